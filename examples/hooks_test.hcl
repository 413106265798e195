# Tests for the hooks of hooks.hcl: `hookctl test --config examples`.
# A *_test.hcl file is never loaded as configuration. Each test fires one
# event at the configuration and checks the outcome; payload_file paths and
# a relative cwd are relative to this file.

# ---------------------------------------------------------------------------
# PreToolUse: the guards, highest priority first.

test "rm -rf of a home directory is denied" {
  payload_file = "payloads/PreToolUse.rm.json" # fires its hook_event_name
  expect {
    decision        = "deny"
    blocked         = true
    reason_contains = "rm -r"
    hooks = {
      "builtin:dangerous-commands" = "decided"
      pip-to-uv                    = "skipped" # the chain stopped
      decision-audit               = "ran"     # observers run anyway
    }
  }
}

test "a force push is denied before it could be asked about" {
  payload_file = "payloads/PreToolUse.push.json"
  expect {
    decision = "deny"
    hooks    = { "builtin:dangerous-commands" = "decided", no-push-to-protected = "skipped" }
  }
}

test "a push to main needs a human" {
  payload_file = "payloads/PreToolUse.push.json"
  set          = { "tool_input.command" = "git push origin main" }
  expect {
    decision        = "ask"
    blocked         = false
    reason_contains = "main or master"
    hooks           = { no-push-to-protected = "decided" }
  }
}

test "a push to a feature branch is left alone" {
  payload_file = "payloads/PreToolUse.push.json"
  set          = { "tool_input.command" = "git push origin feature/login" }
  expect {
    decision = ""
    hooks    = { no-push-to-protected = "skipped" }
  }
}

test "sending .env through the shell is denied" {
  payload_file = "payloads/PreToolUse.env.json"
  expect {
    decision        = "deny"
    reason_contains = ".env"
    hooks           = { "builtin:secret-files" = "decided" }
  }
}

test "pip install is rewritten to uv pip" {
  payload_file = "payloads/PreToolUse.pip.json"
  expect {
    decision           = "allow"
    updated_input      = { command = "uv pip install requests", description = "install requests" }
    additional_context = "pip was rewritten to uv pip"
    state              = { rewrote = true }
    hooks              = { pip-to-uv = "decided", decision-audit = "ran" }
  }
}

test "other commands are not rewritten" {
  payload_file = "payloads/PreToolUse.pip.json"
  set          = { "tool_input.command" = "ls -la" }
  expect {
    decision      = ""
    updated_input = null
    state         = { rewrote = null }
    hooks         = { pip-to-uv = "ran" }
  }
}

test "reads inside the project are allowed" {
  event   = "PreToolUse"
  payload = { tool_name = "Read", cwd = "/home/dev/shop", tool_input = { file_path = "/home/dev/shop/README.md" } }
  expect {
    decision        = "allow"
    reason_contains = "README.md"
    hooks           = { read-only-tools = "decided", "builtin:secret-files" = "ran", pip-to-uv = "skipped" }
  }
}

test "reads outside the project get no answer" {
  event   = "PreToolUse"
  payload = { tool_name = "Read", cwd = "/home/dev/shop", tool_input = { file_path = "/etc/hosts" } }
  expect {
    decision = ""
    hooks    = { read-only-tools = "ran" }
  }
}

test "writes are not read-only" {
  payload_file = "payloads/PreToolUse.Write.json"
  expect {
    decision = ""
    hooks    = { read-only-tools = "skipped", "builtin:secret-files" = "ran" }
  }
}

# ---------------------------------------------------------------------------
# UserPromptSubmit.

test "a refactoring prompt gets a reminder" {
  payload_file = "payloads/UserPromptSubmit.refactor.json"
  expect {
    blocked            = false
    additional_context = "Run the test suite after refactoring: go test ./..."
    hooks              = { remind-tests = "decided", "builtin:prompt-length" = "ran" }
  }
}

test "other prompts get no reminder" {
  payload_file = "payloads/UserPromptSubmit.json"
  expect {
    additional_context = ""
    hooks              = { remind-tests = "skipped" }
  }
}

test "an overlong prompt is blocked" {
  event   = "UserPromptSubmit"
  payload = { prompt = format("%050001d", 0) } # 50001 characters
  expect {
    decision        = "block"
    blocked         = true
    reason_contains = "limit is 50000"
    hooks           = { "builtin:prompt-length" = "decided", remind-tests = "skipped" }
  }
}

# ---------------------------------------------------------------------------
# SessionStart: the branch is only known inside a git repository, and which
# branch depends on the checkout, so the test runs outside one.

test "outside a git repository no branch is given" {
  payload_file = "payloads/SessionStart.startup.json"
  set          = { cwd = "/" }
  expect {
    additional_context = ""
    hooks              = { session-context = "ran" }
  }
}

# ---------------------------------------------------------------------------
# Stop: the loop guard's hook.

test "stopping before running the tests keeps the agent working" {
  payload_file = "payloads/Stop.json"
  set          = { last_assistant_message = "Done: the login form is in." }
  expect {
    decision        = "block"
    blocked         = true
    reason_contains = "Run the tests"
    hooks           = { tests-before-stop = "decided" }
  }
}

test "stopping after the tests ran is allowed" {
  payload_file = "payloads/Stop.json"
  set          = { last_assistant_message = "All tests pass." }
  expect {
    decision = ""
    blocked  = false
    hooks    = { tests-before-stop = "ran" }
  }
}

# ---------------------------------------------------------------------------
# PostToolUse: the command hook runs in the payload's cwd (testdata/ here).

test "trailing whitespace after an edit is fed back" {
  event   = "PostToolUse"
  payload = { tool_name = "Edit", cwd = "testdata", tool_input = { file_path = "trailing.txt" } }
  expect {
    decision        = "block"
    reason_contains = "trailing.txt has trailing whitespace"
    hooks           = { lint-after-edit = "decided", tool-audit = "queued" }
  }
}

test "a clean edit passes" {
  event   = "PostToolUse"
  payload = { tool_name = "Write", cwd = "testdata", tool_input = { file_path = "clean.txt" } }
  expect {
    decision = ""
    hooks    = { lint-after-edit = "ran" }
  }
}

test "a slow shell command is pointed at run_in_background (TypeScript)" {
  event        = "PostToolUse"
  payload_file = "payloads/PostToolUse.slow.json"
  expect {
    additional_context = "`go test ./...` took 94s: run long commands with run_in_background."
    hooks              = { slow-command = "decided" }
  }
}

test "a quick shell command gets no note" {
  event   = "PostToolUse"
  payload = { tool_name = "Bash", duration_ms = 120, tool_input = { command = "ls" } }
  expect {
    additional_context = ""
    hooks              = { slow-command = "ran" }
  }
}

# ---------------------------------------------------------------------------
# The custom event.

test "billing is frozen in production" {
  event        = "deploy.pre"
  payload_file = "payloads/deploy.pre.json"
  expect {
    blocked = true
    output  = { block = true, notes = "billing is frozen until the audit ends" }
    hooks   = { freeze-billing = "decided", scale-api = "skipped" }
  }
}

test "the api is scaled for the launch" {
  event        = "deploy.pre"
  payload_file = "payloads/deploy.pre.json"
  set          = { service = "api" }
  expect {
    blocked = false
    output  = { replicas = 4, notes = "scaled for the launch", block = null }
    hooks   = { freeze-billing = "skipped", scale-api = "decided" }
  }
}
