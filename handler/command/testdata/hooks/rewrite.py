#!/usr/bin/env python3
"""updatedInput: pip install -> uv pip install, keeping the other fields."""
import json, sys
event = json.load(sys.stdin)
inp = dict(event.get("tool_input", {}))
cmd = inp.get("command", "")
if cmd.startswith("pip install"):
    inp["command"] = "uv " + cmd
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "allow", "updatedInput": inp,
        "additionalContext": "pip was rewritten to uv pip"}}))
