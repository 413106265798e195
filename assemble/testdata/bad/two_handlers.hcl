hook "x" {
  event    = "PreToolUse"
  decision = "deny"
  js       = "return;"
}
