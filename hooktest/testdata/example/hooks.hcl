hook "no-rm" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "hasCommand(tool_input.command, 'rm')"
  decision = "deny"
  reason   = "rm is not allowed"
}

hook "pip-to-uv" {
  event   = "PreToolUse"
  matcher = "Bash"
  js      = <<-JS
    const cmd = event.tool_input.command;
    if (cmd.startsWith("pip ")) return { updated_input: { command: "uv " + cmd } };
  JS
}

hook "greet" {
  event              = "SessionStart"
  additional_context = "hello"
}
