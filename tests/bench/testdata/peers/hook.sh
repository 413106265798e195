#!/usr/bin/env bash
# The comparison hook as a Claude Code command hook in pure bash (no jq, no
# forks): the same condition and regexes as the other peers.
IFS= read -r -d '' input
[[ $input =~ \"tool_name\":\ *\"([^\"]*)\" ]] && tool=${BASH_REMATCH[1]}
[[ $input =~ \"command\":\ *\"([^\"]*)\" ]] && cmd=${BASH_REMATCH[1]}
[[ $input =~ \"session_id\":\ *\"([^\"]*)\" ]] && sid=${BASH_REMATCH[1]}
case $tool in Bash|Shell) ;; *) exit 0 ;; esac
[[ $cmd == "rm "* || $cmd == *sudo* ]] || exit 0
[[ $sid == test-* ]] && exit 0
if [[ $cmd =~ ^rm[[:space:]]+-rf[[:space:]]+/ ]]; then echo '{"decision":"block","reason":"rm -rf of an absolute path"}'; exit 2; fi
if [[ $cmd =~ (^|[^[:alnum:]_])sudo([^[:alnum:]_]|$) ]]; then echo '{"decision":"block","reason":"sudo"}'; exit 2; fi
if [[ $cmd =~ curl[^\|]*\|[[:space:]]*(ba)?sh ]]; then echo '{"decision":"block","reason":"curl | sh"}'; exit 2; fi
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"ok"}}'
