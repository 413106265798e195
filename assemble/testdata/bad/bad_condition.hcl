hook "x" {
  event    = "PreToolUse"
  when     = "tool_input.command matches '\\s+rm'"
  decision = "deny"
}

hook "y" {
  event    = "PreToolUse"
  when     = <<-EXPR
    tool_name == "Bash" and
      (tool_input.command contains
  EXPR
  decision = "deny"
}
