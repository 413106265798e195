#!/usr/bin/env bash
cat >/dev/null
printf '{"continue": false, "stopReason": "budget exhausted", "systemMessage": "stopping"}'
