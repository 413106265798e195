#!/usr/bin/env bash
# Exit 2 cannot be undone by a JSON allow; the JSON reason is the message.
cat >/dev/null
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}, "reason": "json reason"}'
exit 2
