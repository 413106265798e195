package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

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
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"http": httpCmd,
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOOKCTL_CONFIG", "")
			env.Setenv("CLAUDE_PROJECT_DIR", "")
			env.Setenv("HOOKCTL_STATE_DIR", env.WorkDir+"/.state")
			return nil
		},
	})
}

// httpCmd is a small HTTP client for scripts:
//
//	http METHOD URL [BODYFILE]
//
// It retries connection errors for a few seconds (a server may still be
// starting), prints the status line and the body on stdout, and fails on a
// status that is not 2xx unless negated.
func httpCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: http METHOD URL [BODYFILE]")
	}
	var body []byte
	if len(args) > 2 {
		body = []byte(ts.ReadFile(args[2]))
	}
	var resp *http.Response
	var err error
	for i := 0; i < 100; i++ {
		req, _ := http.NewRequest(args[0], args[1], bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err = http.DefaultClient.Do(req)
		if err == nil || !strings.Contains(err.Error(), "connection refused") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		ts.Fatalf("http: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	fmt.Fprintf(ts.Stdout(), "%d\n%s", resp.StatusCode, b)
	ok := resp.StatusCode/100 == 2
	if ok == neg {
		ts.Fatalf("http %s %s: status %d", args[0], args[1], resp.StatusCode)
	}
}
