# A stricter policy than policy.hcl: pushes denied, no rewrites, and the
# hooks renamed (a rename alone is no difference).

hook "guard-home" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command matches `\\brm\\s+-rf\\s+~`"
  decision = "deny"
  reason   = "rm -rf of the home directory"
}

hook "guard-secrets" {
  event    = "PreToolUse"
  matcher  = "Read"
  when     = "tool_input.file_path endsWith '/.env'"
  decision = "deny"
  reason   = ".env holds secrets"
}

hook "no-push" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command contains 'git push'"
  decision = "deny"
  reason   = "agents do not push"
}

hook "remind-tests" {
  event              = "UserPromptSubmit"
  when               = "prompt contains 'refactor'"
  additional_context = "Run the tests after refactoring."
}
