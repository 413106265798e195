// Package e2e runs the real Claude Code CLI against hookctl: installed from
// the npm registry, headless, talking to a fake Anthropic API on 127.0.0.1
// inside a network namespace of its own (nothing else is reachable), with
// hookctl as its hook — once as a command hook (`hookctl claude`) and once
// through `hookctl serve` and Claude's http hooks.
//
// The test skips, saying why, only when the npm registry cannot be reached
// or the machine cannot create a network namespace (or lacks unshare, ip
// or npm); with HOOKCTL_E2E_REQUIRED=1, which CI sets, each of those is a
// failure instead. The crush test (crush_test.go) runs only when
// HOOKCTL_E2E_CRUSH names a crush binary, and skips otherwise, saying so.
//
// hosts_test.go does the same for Gemini CLI, Codex and the GitHub Copilot
// CLI (npm packages, installed into the same cache): a re-executed test
// binary brings up loopback in a new network namespace, serves the host's
// fake model API (fakehosts.go: Gemini, OpenAI Responses, OpenAI chat
// completions) on a fixed port there and runs one headless session, with
// hookctl registered as the host's tool hook in each of the ways a user
// registers it.
package e2e
