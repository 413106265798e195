# The fleet's hooks: every hookctl serve replica loads this file (the
# compose file mounts it, Kubernetes holds it in the ConfigMap
# k8s/configmap.yaml: keep the two the same).
#
# The shared state is named on the command line (--nats), so the same
# file also runs locally with the file store; alternatively, write
#   state = "nats://nats:4222"
# in the settings block, and every command (hookctl claude and hook
# included) keeps its state in NATS.

settings {
  default_timeout = "5s"
  stop_block_cap  = 3     # counted once across replicas: the loop guard's counts live in NATS
}

builtin "dangerous-commands" {
  priority = 1000
}

hook "no-push-to-main" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command matches `\\bgit\\s+push\\b.*\\b(main|master)\\b`"
  decision = "deny"
  reason   = "push to a branch and open a pull request instead"
  on_error = "block" # a command the condition cannot read is denied
}

# A fleet-wide rate limit: at most 200 Bash calls per session per hour,
# whichever replica a call lands on.
hook "bash-budget" {
  event    = "PreToolUse"
  matcher  = "Bash"
  on_error = "block" # NATS unreachable: a guard that cannot count blocks
  js       = <<-JS
    const kv = require("hookctl/kv");
    const n = kv.incr("bash.calls", { ttl: "1h" });
    if (n > 200) {
      return { decision: "deny", reason: "this session used its 200 Bash calls for the hour" };
    }
  JS
}

# Keep working until the tests ran in this session (whichever replica saw
# them run), at most stop_block_cap times in a row.
hook "note-tests" {
  event   = "PostToolUse"
  matcher = "Bash"
  when    = "tool_input.command matches `\\b(go test|npm test|pytest|cargo test)\\b`"
  js      = "require('hookctl/kv').set('tests.ran', true, { ttl: '12h' })"
}

hook "tests-before-stop" {
  event    = "Stop"
  on_error = "ignore" # NATS unreachable: let the agent stop (the trace says why)
  js       = <<-JS
    if (!require("hookctl/kv").get("tests.ran")) {
      return { decision: "block", reason: "run the tests before stopping" };
    }
  JS
}
