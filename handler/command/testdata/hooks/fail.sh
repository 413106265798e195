#!/usr/bin/env bash
cat >/dev/null
echo "something broke" >&2
exit 1
