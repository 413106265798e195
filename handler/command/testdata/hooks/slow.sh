#!/usr/bin/env bash
cat >/dev/null
sleep 30 &
echo $! > "$1"
sleep 30
