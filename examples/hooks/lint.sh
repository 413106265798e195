#!/usr/bin/env bash
# A Claude Code command hook, unchanged: the payload is JSON on stdin.
# Flags trailing whitespace in the edited file; exit 2 feeds stderr back.
input=$(cat)
file=$(printf '%s' "$input" | sed -n 's/.*"file_path" *: *"\([^"]*\)".*/\1/p')
[ -n "$file" ] && [ -f "$file" ] || exit 0
if grep -nE '[[:space:]]+$' "$file" >/dev/null; then
  echo "$file has trailing whitespace" >&2
  exit 2
fi
exit 0
