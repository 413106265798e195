#!/usr/bin/env python3
"""JSON dialect: hookSpecificOutput.permissionDecision deny."""
import json, sys
event = json.load(sys.stdin)
cmd = event.get("tool_input", {}).get("command", "")
if "sudo" in cmd:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "sudo needs a human"}}))
sys.exit(0)
