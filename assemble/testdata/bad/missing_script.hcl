hook "x" {
  event  = "PreToolUse"
  script = "scripts/nope.js"
}
