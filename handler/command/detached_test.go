package command_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/handler/command"
	"github.com/hookctl/hookctl/internal/ostest"
)

// detachedHolders are command hooks that print a deny, leave a child
// holding their stdout (and stderr) open, and exit; the child writes its
// pid to $PIDFILE so that the test can make sure it is gone.
var detachedHolders = map[string]string{
	// A background child in the hook's process group.
	"subshell": `printf '%s\n' '{"decision":"block","reason":"no"}'; (sleep 30 & echo $! >"$PIDFILE"); exit 2`,
	// nohup: same group, stdout inherited (a pipe is not a terminal).
	"nohup": `printf '%s\n' '{"decision":"block","reason":"no"}'; nohup sleep 30 2>/dev/null & echo $! >"$PIDFILE"; exit 2`,
	// setsid: a new session, out of reach of a process-group kill.
	"setsid": `printf '%s\n' '{"decision":"block","reason":"no"}'; setsid sleep 30 & echo $! >"$PIDFILE"; exit 2`,
	// JSON alone decides (exit 0), the child holds stdout.
	"json exit 0": `printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}'; (sleep 30 & echo $! >"$PIDFILE"); exit 0`,
}

// TestDetachedChildKeepsTheDeny: a command hook that printed a deny and
// exited while a child it left behind still holds its stdout used to lose
// the deny whenever its timeout was 2s or less (the output pipes were
// waited for until the timeout killed the run, and the hook was reported
// as timed out). The hook's own exit decides: its exit status and what it
// printed are used at once, for every timeout, and the call returns
// without waiting for the child.
func TestDetachedChildKeepsTheDeny(t *testing.T) {
	for _, name := range []string{"subshell", "nohup", "setsid", "json exit 0"} {
		for _, timeout := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 10 * time.Second} {
			t.Run(name+"/"+timeout.String(), func(t *testing.T) {
				if _, err := exec.LookPath(strings.Fields(name)[0]); name != "subshell" && name != "json exit 0" && err != nil {
					t.Skip(err)
				}
				pidFile := filepath.Join(t.TempDir(), "pid")
				e := newEngine(t)
				h := cmdHook(t, "gate", "PreToolUse", command.Spec{Shell: detachedHolders[name], Env: map[string]string{"PIDFILE": pidFile}})
				h.Timeout = timeout
				if err := e.Register(h); err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: bashPayload("rm -rf /")})
				took := time.Since(start)
				t.Cleanup(func() { killPidFile(pidFile) })
				if err != nil {
					t.Fatal(err)
				}
				tr, _ := out.Hook("gate")
				if out.Decision != "deny" || out.Reason != "no" || !out.Blocked || tr.Status != engine.StatusDecided {
					t.Fatalf("the deny was lost: decision=%q reason=%q status=%s error=%q (after %s)", out.Decision, out.Reason, tr.Status, tr.Error, took)
				}
				// Promptly: the hook exits at once; the grace for its
				// output is a fraction of a second.
				if took > 1500*time.Millisecond {
					t.Fatalf("took %s: the call waited for the child holding stdout", took)
				}
				if name == "setsid" {
					return // out of the group: not ours to kill
				}
				pid := readPid(t, pidFile)
				deadline := time.Now().Add(3 * time.Second)
				for ostest.Alive(pid) {
					if time.Now().After(deadline) {
						t.Fatalf("child %d of the hook's process group outlived it", pid)
					}
					time.Sleep(20 * time.Millisecond)
				}
			})
		}
	}
}

// TestTimeoutBeforeExitIsATimeout: a hook that prints a deny but does not
// exit before its timeout is a timeout, and on_error decides.
func TestTimeoutBeforeExitIsATimeout(t *testing.T) {
	for _, policy := range []engine.ErrorPolicy{engine.ErrorIgnore, engine.ErrorBlock} {
		e := newEngine(t)
		h := cmdHook(t, "gate", "PreToolUse", command.Spec{Shell: `printf '%s\n' '{"decision":"allow"}'; exec sleep 30`})
		h.Timeout = 300 * time.Millisecond
		h.OnError = engine.OnError{Policy: policy}
		if err := e.Register(h); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: bashPayload("ls")})
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("took %s", d)
		}
		tr, _ := out.Hook("gate")
		if tr.Status != engine.StatusTimeout {
			t.Fatalf("%s: status %s (%s), want timeout", policy, tr.Status, tr.Error)
		}
		if blocked := policy == engine.ErrorBlock; out.Blocked != blocked || tr.FailClosed != blocked {
			t.Fatalf("%s: blocked=%v failClosed=%v decision=%q", policy, out.Blocked, tr.FailClosed, out.Decision)
		}
	}
}

// TestCancelledFireStopsTheHook: the fire's own context (a client gone)
// still ends the hook at once and is not its decision.
func TestCancelledFireStopsTheHook(t *testing.T) {
	e := newEngine(t)
	if err := e.Register(cmdHook(t, "slow", "PreToolUse", command.Spec{Shell: `exec sleep 30`})); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	out, _ := e.Fire(ctx, engine.Event{Name: "PreToolUse", Payload: bashPayload("ls")})
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %s", d)
	}
	if tr, _ := out.Hook("slow"); tr.Status == engine.StatusDecided || tr.Status == engine.StatusRan {
		t.Fatalf("%+v", tr)
	}
}

// TestStdinNotReadAndHeldByAChild: a payload larger than a pipe buffer
// that the hook never reads, while a child holds stdin, does not hold the
// call past the hook's exit.
func TestStdinNotReadAndHeldByAChild(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	e := newEngine(t)
	h := cmdHook(t, "gate", "PreToolUse", command.Spec{Shell: `(sleep 30 & echo $! >"$PIDFILE"); echo 'stdin ignored' >&2; exit 2`, Env: map[string]string{"PIDFILE": pidFile}})
	h.Timeout = 10 * time.Second
	if err := e.Register(h); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: bashPayload(strings.Repeat("x", 1<<20))})
	t.Cleanup(func() { killPidFile(pidFile) })
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %s", d)
	}
	if out.Decision != "deny" || out.Reason != "stdin ignored" {
		t.Fatalf("decision=%q reason=%q", out.Decision, out.Reason)
	}
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	var b []byte
	for range 100 {
		var err error
		if b, err = os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file: %q: %v", b, err)
	}
	return pid
}

func killPidFile(path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	}
}
