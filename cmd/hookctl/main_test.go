package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	if os.Getenv(gcProbeEnv) != "" {
		gcProbe()
		return
	}
	testscript.Main(m, map[string]func(){
		"hookctl": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI tests in testdata/script/*.txtar: every
// subcommand, every exit status, --explain, --set, directory configs and
// the diagnostics of each class of bad configuration.
func TestScripts(t *testing.T) {
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"http":         httpCmd,
			"sleep":        sleepCmd,
			"exits":        exitsCmd,
			"runinstalled": runInstalledCmd,
			"tamper":       tamperCmd,
		},
		// [root]: the tests run as root. A managed file is refused when
		// the user running hookctl owns it (unless that user is root),
		// and every file a test writes is the tester's: a test that needs
		// a managed layer accepted needs root to run.
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOOKCTL_CONFIG", "")
			env.Setenv("CLAUDE_PROJECT_DIR", "")
			env.Setenv("HOOKCTL_STATE_DIR", env.WorkDir+"/.state")
			// Trust records stay in the test's directory, and no test
			// runs untrusted configurations unless it says so.
			env.Setenv("HOOKCTL_TRUST_FILE", env.WorkDir+"/.config/hookctl/trusted.json")
			env.Setenv("HOOKCTL_ALLOW_UNTRUSTED", "")
			// The repository's examples, which scripts read but never
			// write.
			env.Setenv("EXAMPLES", examples)
			return nil
		},
	})
}

// exitsCmd runs a program and checks its exit status (exec only tells
// zero from non-zero): exits CODE PROGRAM [ARGS...]. stdout and stderr are
// kept for the next stdout/stderr checks, as after exec.
func exitsCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// sleepCmd waits: sleep DURATION.
func sleepCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sleep DURATION")
	}
	d, err := time.ParseDuration(args[0])
	if err != nil {
		ts.Fatalf("sleep: %v", err)
	}
	time.Sleep(d)
}

// httpCmd is a small HTTP client for scripts:
//
//	http [-until REGEXP] METHOD URL [BODYFILE]
//
// It retries connection errors for a few seconds (a server may still be
// starting), prints the status line and the body on stdout, and fails on a
// status that is not 2xx unless negated. With -until it repeats the request
// for up to ten seconds until the body matches REGEXP (a server reloading).
func httpCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) > 1 && args[0] == "-until" {
		re, err := regexp.Compile(args[1])
		if err != nil {
			ts.Fatalf("http -until: %v", err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			code, body := httpDo(ts, args[2:])
			if re.Match(body) || time.Now().After(deadline) {
				httpReport(ts, neg, args[2:], code, body)
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	code, body := httpDo(ts, args)
	httpReport(ts, neg, args, code, body)
}

func httpDo(ts *testscript.TestScript, args []string) (int, []byte) {
	if len(args) < 2 {
		ts.Fatalf("usage: http [-until REGEXP] METHOD URL [BODYFILE]")
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
	return resp.StatusCode, b
}

func httpReport(ts *testscript.TestScript, neg bool, args []string, code int, body []byte) {
	fmt.Fprintf(ts.Stdout(), "%d\n%s", code, body)
	ok := code/100 == 2
	if ok == neg {
		ts.Fatalf("http %s %s: status %d", args[0], args[1], code)
	}
}

// runInstalledCmd runs, through sh -c in the current directory, the first
// hook command a host configuration file registers for an event, as the
// host would: runinstalled FILE EVENT. stdin, stdout and stderr are those
// of exec.
func runInstalledCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: runinstalled FILE EVENT")
	}
	var doc struct {
		Hooks map[string][]struct {
			Command string `json:"command"`
			Bash    string `json:"bash"`
			Hooks   []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc); err != nil {
		ts.Fatalf("runinstalled: %v", err)
	}
	line := ""
	for _, e := range doc.Hooks[args[1]] {
		for _, c := range append([]string{e.Command, e.Bash}, func() (cs []string) {
			for _, h := range e.Hooks {
				cs = append(cs, h.Command)
			}
			return
		}()...) {
			if strings.HasPrefix(c, "hookctl") && line == "" {
				line = c
			}
		}
	}
	if line == "" {
		ts.Fatalf("runinstalled: no hookctl command for %s in %s", args[1], args[0])
	}
	ts.Logf("sh -c %s", line)
	err := ts.Exec("sh", "-c", line)
	if (err != nil) != neg {
		ts.Fatalf("runinstalled: %v", err)
	}
}
