# The 10 hooks of the performance comparison: the same logic in every peer
# (node_runner.js, hook.sh, hook.py): an expr condition, then three regexes.
# 5 modifying hooks and 5 observe hooks.

hook "h0" {
  event   = "PreToolUse"
  when    = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\")"
  priority = 0
  js      = <<-JS
    const c = event.tool_input.command;
    if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
    if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
    if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
    return { additional_context: "hook 0: ok" };
  JS
}

hook "h1" {
  event   = "PreToolUse"
  when    = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\")"
  priority = -1
  js      = <<-JS
    const c = event.tool_input.command;
    if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
    if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
    if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
    return { additional_context: "hook 1: ok" };
  JS
}

hook "h2" {
  event   = "PreToolUse"
  when    = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\")"
  priority = -2
  js      = <<-JS
    const c = event.tool_input.command;
    if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
    if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
    if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
    return { additional_context: "hook 2: ok" };
  JS
}

hook "h3" {
  event   = "PreToolUse"
  when    = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\")"
  priority = -3
  js      = <<-JS
    const c = event.tool_input.command;
    if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
    if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
    if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
    return { additional_context: "hook 3: ok" };
  JS
}

hook "h4" {
  event   = "PreToolUse"
  when    = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\")"
  priority = -4
  js      = <<-JS
    const c = event.tool_input.command;
    if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
    if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
    if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
    return { additional_context: "hook 4: ok" };
  JS
}

hook "h5" {
  event   = "PreToolUse"
  when    = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\")"
  priority = -5
  observe = true
  js      = <<-JS
    const c = event.tool_input.command;
    if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
    if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
    if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
    return { additional_context: "hook 5: ok" };
  JS
}

hook "h6" {
  event   = "PreToolUse"
  when    = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\")"
  priority = -6
  observe = true
  js      = <<-JS
    const c = event.tool_input.command;
    if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
    if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
    if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
    return { additional_context: "hook 6: ok" };
  JS
}

hook "h7" {
  event   = "PreToolUse"
  when    = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\")"
  priority = -7
  observe = true
  js      = <<-JS
    const c = event.tool_input.command;
    if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
    if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
    if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
    return { additional_context: "hook 7: ok" };
  JS
}

hook "h8" {
  event   = "PreToolUse"
  when    = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\")"
  priority = -8
  observe = true
  js      = <<-JS
    const c = event.tool_input.command;
    if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
    if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
    if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
    return { additional_context: "hook 8: ok" };
  JS
}

hook "h9" {
  event   = "PreToolUse"
  when    = "tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\")"
  priority = -9
  observe = true
  js      = <<-JS
    const c = event.tool_input.command;
    if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
    if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
    if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
    return { additional_context: "hook 9: ok" };
  JS
}
