#!/usr/bin/env bash
cat >/dev/null
head -c 5000000 /dev/zero | tr '\0' 'x'
