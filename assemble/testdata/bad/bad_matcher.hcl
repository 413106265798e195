hook "x" {
  event    = "PreToolUse"
  matcher  = "Bash(git *"
  decision = "deny"
}
