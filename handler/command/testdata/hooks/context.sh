#!/usr/bin/env bash
# Plain stdout: context on UserPromptSubmit, ignored elsewhere.
cat >/dev/null
echo "branch: main"
