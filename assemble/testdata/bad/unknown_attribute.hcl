hook "x" {
  event  = "PreToolUse"
  matchr = "Bash"
  decision = "deny"
}
