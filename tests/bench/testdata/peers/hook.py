#!/usr/bin/env python3
"""The comparison hook as a Claude Code command hook in python3."""
import json, re, sys
e = json.load(sys.stdin)
c = e.get("tool_input", {}).get("command", "")
if e.get("tool_name") not in ("Bash", "Shell"):
    sys.exit(0)
if not (re.match(r"^rm ", c) or "sudo" in c) or e.get("session_id", "").startswith("test-"):
    sys.exit(0)
for pat, why in ((r"^rm\s+-rf\s+/", "rm -rf of an absolute path"), (r"\bsudo\b", "sudo"), (r"curl[^|]*\|\s*(ba)?sh", "curl | sh")):
    if re.search(pat, c):
        print(json.dumps({"decision": "block", "reason": why}))
        sys.exit(2)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "ok"}}))
