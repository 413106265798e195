settings {
  default_timeout = "5 seconds"
}

hook "x" {
  event    = "PreToolUse"
  timeout  = "-1s"
  decision = "deny"
}
