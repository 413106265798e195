# One policy for every host: deny rm -rf, rewrite pip install to uv pip
# install, ask before git push. Tool names are canonical (Bash), so the
# matchers hold for crush's bash, Gemini CLI's run_shell_command, Cursor's
# shell event and Copilot CLI's bash.
hook "no-rm-rf" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command matches `rm\\s+-[a-zA-Z]*r[a-zA-Z]*f`"
  decision = "deny"
  reason   = "rm -rf is not allowed by policy"
}

hook "pip-to-uv" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command startsWith \"pip install\""
  js       = <<-JS
    return { decision: "allow", updated_input: { ...event.tool_input, command: "uv " + event.tool_input.command } };
  JS
}

hook "ask-push" {
  event    = "PreToolUse"
  when     = "tool == \"Bash\" && tool_input.command contains \"git push\""
  decision = "ask"
  reason   = "pushing needs a human"
}

hook "no-stop-without-tests" {
  event    = "Stop"
  when     = "!stop_hook_active"
  decision = "block"
  reason   = "run the tests first"
}
