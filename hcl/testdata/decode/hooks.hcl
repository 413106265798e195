settings {
  default_timeout = "2s"
  required        = ["no-rm"]
}

locals {
  banner = file("banner.txt")
}

hook "no-rm" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command contains 'rm -rf'"
  decision = "deny"
  reason   = "no recursive deletes"
}

hook "rewrite" {
  event  = "PreToolUse"
  script = "scripts/rewrite.js"
  allow  = ["read"]
}

hook "inline" {
  event = "UserPromptSubmit"
  js    = "return { additional_context: '${local.banner}' }"
}

hook "lint" {
  event   = "PostToolUse"
  command = ["scripts/lint.sh", "--quiet"]
}

builtin "prompt-length" {
  max_chars = 1000
}
