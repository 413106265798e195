# The same 10 hooks, declarative: the condition decides, no code runs.

hook "d0" {
  event              = "PreToolUse"
  when               = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\") && !(tool_input.command matches `^rm\\s+-rf\\s+/`)"
  priority           = 0
  additional_context = "hook 0: ok"
}

hook "d1" {
  event              = "PreToolUse"
  when               = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\") && !(tool_input.command matches `^rm\\s+-rf\\s+/`)"
  priority           = -1
  additional_context = "hook 1: ok"
}

hook "d2" {
  event              = "PreToolUse"
  when               = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\") && !(tool_input.command matches `^rm\\s+-rf\\s+/`)"
  priority           = -2
  additional_context = "hook 2: ok"
}

hook "d3" {
  event              = "PreToolUse"
  when               = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\") && !(tool_input.command matches `^rm\\s+-rf\\s+/`)"
  priority           = -3
  additional_context = "hook 3: ok"
}

hook "d4" {
  event              = "PreToolUse"
  when               = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\") && !(tool_input.command matches `^rm\\s+-rf\\s+/`)"
  priority           = -4
  additional_context = "hook 4: ok"
}

hook "d5" {
  event              = "PreToolUse"
  when               = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\") && !(tool_input.command matches `^rm\\s+-rf\\s+/`)"
  priority           = -5
  observe            = true
  additional_context = "hook 5: ok"
}

hook "d6" {
  event              = "PreToolUse"
  when               = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\") && !(tool_input.command matches `^rm\\s+-rf\\s+/`)"
  priority           = -6
  observe            = true
  additional_context = "hook 6: ok"
}

hook "d7" {
  event              = "PreToolUse"
  when               = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\") && !(tool_input.command matches `^rm\\s+-rf\\s+/`)"
  priority           = -7
  observe            = true
  additional_context = "hook 7: ok"
}

hook "d8" {
  event              = "PreToolUse"
  when               = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\") && !(tool_input.command matches `^rm\\s+-rf\\s+/`)"
  priority           = -8
  observe            = true
  additional_context = "hook 8: ok"
}

hook "d9" {
  event              = "PreToolUse"
  when               = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\") && !(tool_input.command matches `^rm\\s+-rf\\s+/`)"
  priority           = -9
  observe            = true
  additional_context = "hook 9: ok"
}
