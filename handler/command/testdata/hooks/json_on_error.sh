#!/usr/bin/env bash
# A non-zero exit with valid JSON: the JSON alone decides.
cat >/dev/null
echo '{"decision": "block", "reason": "json wins"}'
exit 1
