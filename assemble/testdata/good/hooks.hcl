settings {
  max_concurrency = 4
  default_timeout = "2s"
  stop_block_cap  = 2
  required        = ["gate"]
}

locals {
  tools = ["Bash", "Shell"]
  msg   = "no ${local.tools[0]} rm -rf"
}

event "deploy.pre" {
  strategy  = "modifying"
  matcher   = "service"
  decisions = ["block"]
  merge     = {
    replicas = "last"
    notes    = "concat"
    block    = "sticky"
    level    = { rule = "restrictive", order = ["high", "low"] }
  }
}

hook "gate" {
  events   = ["PreToolUse", "before_tool_call"]
  matcher  = join("|", local.tools)
  when     = "tool_input.command matches `\\brm\\s+-rf\\b`"
  priority = 100
  decision = "deny"
  reason   = local.msg
}

hook "ctx" {
  event              = "UserPromptSubmit"
  additional_context = file("context.txt")
}

hook "rewrite" {
  event   = "PreToolUse"
  matcher = "Bash"
  script  = "scripts/rewrite.js"
  timeout = "300ms"
  on_error = "retry"
  retry {
    attempts = 2
    backoff  = "10ms"
  }
}

hook "deploy" {
  event  = "deploy.pre"
  result = { replicas = 3, notes = "scaled", level = "low" }
}

hook "who" {
  event   = "SessionStart"
  enabled = false
  command = ["./scripts/who.sh", "--flag"]
}

builtin "prompt-length" {
  max_chars = 10
  priority  = 5
}
