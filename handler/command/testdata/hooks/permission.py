#!/usr/bin/env python3
"""PermissionRequest: decision.behavior."""
import json, sys
event = json.load(sys.stdin)
behavior = "deny" if "rm" in event["tool_input"]["command"] else "allow"
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
    "decision": {"behavior": behavior, "message": "checked by policy"}}}))
