# The policy the replay tests run: one hook per kind of outcome.

hook "no-rm-home" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command matches `\\brm\\s+-rf\\s+~`"
  priority = 100
  decision = "deny"
  reason   = "rm -rf of the home directory"
}

hook "no-secrets" {
  event    = "PreToolUse"
  matcher  = "Read"
  when     = "tool_input.file_path endsWith '/.env'"
  decision = "deny"
  reason   = ".env holds secrets"
}

hook "push-needs-human" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command contains 'git push'"
  decision = "ask"
  reason   = "pushing needs a human"
}

hook "pip-to-uv" {
  event   = "PreToolUse"
  matcher = "Bash"
  js      = <<-JS
    const cmd = event.tool_input.command;
    if (!/^pip install /.test(cmd)) return;
    return { updated_input: { ...event.tool_input, command: cmd.replace(/^pip /, "uv pip ") } };
  JS
}

hook "reads-in-project" {
  event    = "PreToolUse"
  matcher  = "Read"
  when     = "tool_input.file_path startsWith cwd + '/' and not (tool_input.file_path endsWith '/.env')"
  decision = "allow"
  reason   = "reads inside the project"
}

hook "remind-tests" {
  event              = "UserPromptSubmit"
  when               = "prompt contains 'refactor'"
  additional_context = "Run the tests after refactoring."
}

hook "failure-hint" {
  event              = "PostToolUseFailure"
  matcher            = "Bash"
  when               = "error startsWith 'Exit code'"
  additional_context = "A command failed: read its output before retrying."
}

hook "tests-before-stop" {
  event = "Stop"
  js    = <<-JS
    if (!/test/i.test(event.last_assistant_message || "")) {
      return { decision: "block", reason: "Run the tests before stopping." };
    }
  JS
}

hook "broken" {
  event    = "SessionStart"
  on_error = "ignore"
  js       = <<-JS
    throw new Error("no session store");
  JS
}
