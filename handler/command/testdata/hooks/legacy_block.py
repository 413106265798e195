#!/usr/bin/env python3
"""Legacy top-level dialect: {"decision": "block", "reason": ...}."""
import json, sys
event = json.load(sys.stdin)
if event.get("hook_event_name") == "Stop" and not event.get("stop_hook_active"):
    print(json.dumps({"decision": "block", "reason": "run the tests first"}))
elif event.get("tool_name") == "Write":
    print(json.dumps({"decision": "approve", "reason": "writes are fine"}))
