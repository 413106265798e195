package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"hookctl": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI tests in testdata/script/*.txtar: every
// subcommand, every exit status, --explain, --set, directory configs and
// the diagnostics of each class of bad configuration.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOOKCTL_CONFIG", "")
			env.Setenv("CLAUDE_PROJECT_DIR", "")
			env.Setenv("HOOKCTL_STATE_DIR", env.WorkDir+"/.state")
			return nil
		},
	})
}
