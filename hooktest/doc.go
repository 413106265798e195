// Package hooktest runs the tests of a hookctl configuration, as
// `hookctl test` does: the `test` blocks of the *_test.hcl files beside it
// (the files of a directory configuration, or those in the directory of a
// file configuration), which are never loaded as configuration.
//
//	test "rm is denied" {
//	  event   = "PreToolUse"
//	  payload = { tool_name = "Bash", tool_input = { command = "rm -rf /" } }
//	  expect {
//	    decision        = "deny"
//	    blocked         = true
//	    reason_contains = "rm -rf"
//	    hooks           = { no-rm = "decided", pip-to-uv = "skipped" }
//	  }
//	}
//
// Run loads the configuration once into one engine and fires every test's
// event at it, in file order, comparing the outcome (engine.Outcome) with
// the test's expectations. Each test runs with its own empty kv store and
// Stop loop-guard count, so tests do not depend on each other or on their
// order (--run); its env reaches its command hooks (command.WithEnv) and
// nothing else, since the process environment is never changed (env() in
// the configuration was evaluated once, at load). A hook that fails (error
// or timeout) fails the test unless the test expects that status of it.
// Fires are not written to the configuration's audit_log.
//
// The Report says which tests failed and what differed, and the coverage
// of the configuration's hooks: a hook is reached by a test when it ran
// there (any status but skipped: a hook skipped because its matcher or
// condition was false, because it is disabled or because an earlier hook
// stopped the chain never ran), and it decided when its status was
// decided. Hooks that cannot decide anything (background and observe
// hooks, hooks only on void events) are left out of the decision count.
// Report.WriteText prints it as `go test` does, WriteJSON as JSON and
// WriteJUnit as JUnit XML.
//
// The files: run.go (Run, the options, the checks made against the loaded
// engine), expect.go (comparing an outcome with the expectations),
// coverage.go, report.go (the three output formats), scope.go (the store
// each test gets).
package hooktest
