// Package e2e runs the real Claude Code CLI against hookctl: installed from
// the npm registry, headless, talking to a fake Anthropic API on 127.0.0.1
// inside a network namespace of its own (nothing else is reachable), with
// hookctl as its hook — once as a command hook (`hookctl claude`) and once
// through `hookctl serve` and Claude's http hooks.
//
// The test skips, saying why, only when the npm registry cannot be reached
// or the machine cannot create a network namespace.
package e2e
