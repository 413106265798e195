hook "gate" {
  event    = "PreToolUse"
  decision = "deny"
}

hook "gate" {
  event    = "Stop"
  decision = "block"
}
