hook "x" {
  event    = "PreToolUs"
  decision = "deny"
}
