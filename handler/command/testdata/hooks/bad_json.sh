#!/usr/bin/env bash
cat >/dev/null
echo '{"decision": "block",'
