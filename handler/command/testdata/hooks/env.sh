#!/usr/bin/env bash
cat >/dev/null
printf '{"additionalContext": "%s|%s|%s"}' "$CLAUDE_PROJECT_DIR" "$HOOKCTL_HOOK" "$HOOKCTL_EVENT"
