locals {
  a = local.b
  b = local.a
}

hook "x" {
  event    = "PreToolUse"
  reason   = local.a
  decision = "deny"
}
