test "rm is denied" {
  event   = "PreToolUse"
  payload = { tool_name = "Bash", tool_input = { command = "rm -rf /" } }
  expect {
    decision        = "deny"
    reason_contains = "rm"
    hooks           = { no-rm = "decided", pip-to-uv = "skipped" }
  }
}

test "pip becomes uv pip" {
  event   = "PreToolUse"
  payload = { tool_name = "Bash", tool_input = { command = "pip install x" } }
  expect {
    updated_input = { command = "uv pip install x" }
    hooks         = { no-rm = "decided" } # wrong: its condition is false
  }
}
