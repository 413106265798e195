hooks "x" {
  event = "PreToolUse"
}
