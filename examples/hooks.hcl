# hookctl example configuration: one of everything that runs offline.
#
#   go run ./cmd/hookctl fire --config examples/hooks.hcl \
#     --payload examples/payloads/PreToolUse.pip.json PreToolUse --explain
#
# Paths are relative to this file.

settings {
  max_concurrency = 8
  default_timeout = "5s"
  stop_block_cap  = 3
}

locals {
  protected_branches = ["main", "master"]
  # Tools that only read; a regex for matchers.
  read_tools = "Read|Glob|Grep|LS"
}

# ---------------------------------------------------------------------------
# Built-in hooks, opt-in, with options.

builtin "dangerous-commands" {
  priority = 1000         # rm -rf ~, mkfs, dd to devices, fork bombs, curl | sh, force pushes
}

builtin "secret-files" {
  mode = "deny"           # .env, keys and credentials via Read/Edit/Write/Grep and Bash
}

builtin "prompt-length" {
  max_chars = 50000
}

# ---------------------------------------------------------------------------
# Declarative hooks: an expr condition and a decision, no code at all.

hook "no-push-to-protected" {
  event    = "PreToolUse"
  matcher  = "Bash"
  priority = 900
  # Regexes go in backticks: expr's quoted strings process escapes.
  when     = "hasCommand(tool_input.command, 'git') and tool_input.command matches `\\bgit\\s+push\\b.*\\b(main|master)\\b`"
  decision = "ask"
  reason   = "pushing to ${join(" or ", local.protected_branches)} needs a human"
}

hook "remind-tests" {
  event              = "UserPromptSubmit"
  when               = "prompt contains 'refactor' or prompt contains 'rewrite'"
  additional_context = "Run the test suite after refactoring: go test ./..."
}

# ---------------------------------------------------------------------------
# JavaScript: a script file (CommonJS) and an inline body.

hook "pip-to-uv" {
  event    = "PreToolUse"
  matcher  = "Bash"
  script   = "scripts/pip_to_uv.js"
  timeout  = "500ms"
  on_error = "ignore"
}

hook "read-only-tools" {
  event   = "PreToolUse"
  matcher = local.read_tools
  js      = <<-JS
    const { allow } = require("hookctl/decision");
    const path = require("hookctl/path");
    const p = event.tool_input.file_path || event.tool_input.path || event.cwd;
    // A JS template literal in HCL is written $${...}.
    if (path.isInside(p, event.cwd)) return allow(`reads inside the project: $${path.basename(p)}`);
  JS
}

hook "session-context" {
  event  = "SessionStart"
  script = "scripts/session_context.js"
  allow  = ["exec"]   # it runs git
}

# The Stop loop guard: keep the agent working until the tests were run,
# at most stop_block_cap times in a row.
hook "tests-before-stop" {
  event    = "Stop"
  on_error = "block"      # a guard fails closed: if it throws, the agent keeps working
  js       = <<-JS
    const { blockStop } = require("hookctl/decision");
    if (!/test/i.test(event.last_assistant_message || "")) {
      return blockStop(event, "Run the tests and report the result before stopping.", { maxLoops: 3 });
    }
  JS
}

# TypeScript: a .ts file (or an inline ts = <<-TS ... TS body) runs as written,
# its types stripped when it loads; hookctl types prints the declarations.

hook "slow-command" {
  event    = "PostToolUse"
  matcher  = "Bash"
  script   = "scripts/slow_command.ts"
  on_error = "ignore"     # it only adds context: failing, it says nothing
}

# ---------------------------------------------------------------------------
# A command hook: any existing Claude Code hook runs unchanged.

hook "lint-after-edit" {
  event    = "PostToolUse"
  matcher  = "Edit|Write|MultiEdit"
  command  = ["./hooks/lint.sh"]
  timeout  = "30s"
  on_error = "ignore"     # feedback after the edit: a linter that cannot run stops nothing
}

# ---------------------------------------------------------------------------
# Observe and background hooks.

hook "decision-audit" {
  event   = "PreToolUse"
  observe = true          # runs after the chain and sees the final outcome
  js      = <<-JS
    if (ctx.state.rewrote) ctx.log.info("command rewritten", { tool: event.tool_name });
  JS
}

hook "tool-audit" {
  event      = "PostToolUse"
  background = true       # queued; fire does not wait
  js         = <<-JS
    ctx.log.info("tool used", { tool: event.tool_name });
  JS
}

# ---------------------------------------------------------------------------
# A custom event, with its own merge rules, fired by an orchestrator:
#   hookctl fire --config examples/hooks.hcl --payload examples/payloads/deploy.pre.json deploy.pre

event "deploy.pre" {
  strategy  = "modifying"
  matcher   = "service"
  decisions = ["block"]
  merge     = { replicas = "last", notes = "concat", block = "sticky" }
}

hook "freeze-billing" {
  event    = "deploy.pre"
  matcher  = "billing"
  when     = "environment == 'production'"
  priority = 10
  on_error = "block"      # a condition that cannot be evaluated blocks
  result   = { block = true, notes = "billing is frozen until the audit ends" }
}

hook "scale-api" {
  event  = "deploy.pre"
  matcher = "api|web"
  result = { replicas = 4, notes = "scaled for the launch" }
}
