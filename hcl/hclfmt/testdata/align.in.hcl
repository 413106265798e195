hook "a" {
  event = "PreToolUse"
  matcher = "Bash"
  priority     = 900
  decision="ask"
  reason =    "pushing needs a human"

  when = "tool_input.command matches 'git'"
  timeout          = "1s"
}
