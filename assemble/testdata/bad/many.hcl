# Every problem is reported at once.
settings {
  stop_block_cap = -1
}

hook "a" {
  event    = "Stop"
  decision = "deny-ish"
}

hook "b" {
  event    = "NotAnEvent"
  on_error = "explode"
  decision = "deny"
}

hook "c" {
  event = "PreToolUse"
}

builtin "dangerous-comands" {}

builtin "prompt-length" {
  max_chars = "lots"
  colour    = "red"
}
