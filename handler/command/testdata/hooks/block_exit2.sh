#!/usr/bin/env bash
# Exit-2 dialect: block rm -rf with a message on stderr.
input=$(cat)
if [[ "$input" =~ \"command\":\"rm\ -rf ]]; then
  echo "rm -rf is not allowed by policy" >&2
  exit 2
fi
exit 0
