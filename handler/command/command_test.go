package command_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/handler/command"
	"github.com/hookctl/hookctl/internal/ostest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent())
}

func hookPath(name string) string {
	p, _ := filepath.Abs(filepath.Join("testdata", "hooks", name))
	return p
}

func newEngine(t *testing.T) *engine.Engine {
	t.Helper()
	e, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

func cmdHook(t *testing.T, id, event string, spec command.Spec) engine.Hook {
	t.Helper()
	h, err := command.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Hook{ID: id, Event: event, Handler: h, Timeout: 20 * time.Second}
}

func bashPayload(cmd string) map[string]any {
	return map[string]any{"session_id": "s1", "cwd": "/tmp", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": cmd, "description": "d"}, "tool_use_id": "toolu_1"}
}

// TestRealHookScripts runs bash and python hooks, written in both blocking
// dialects, through the command handler and checks every outcome.
func TestRealHookScripts(t *testing.T) {
	if _, err := os.Stat("/usr/bin/env"); err != nil {
		t.Skip("no /usr/bin/env")
	}
	type want struct {
		decision, reason, context, sysMsg string
		blocked                           bool
		halted                            bool
		status                            engine.Status
		errHas, reasonHas                 string
		input                             map[string]any
	}
	cases := []struct {
		name    string
		spec    command.Spec
		event   string
		payload map[string]any
		want    want
	}{
		{"bash exit 2 blocks PreToolUse with stderr as reason", command.Spec{Argv: []string{hookPath("block_exit2.sh")}}, "PreToolUse",
			bashPayload("rm -rf /tmp/x"), want{decision: "deny", reason: "rm -rf is not allowed by policy", blocked: true, status: engine.StatusDecided}},
		{"bash exit 0 allows", command.Spec{Argv: []string{hookPath("block_exit2.sh")}}, "PreToolUse",
			bashPayload("ls"), want{status: engine.StatusRan}},
		{"python JSON deny", command.Spec{Argv: []string{"python3", hookPath("deny_json.py")}}, "PreToolUse",
			bashPayload("sudo ls"), want{decision: "deny", reason: "sudo needs a human", blocked: true, status: engine.StatusDecided}},
		{"python JSON no opinion", command.Spec{Argv: []string{"python3", hookPath("deny_json.py")}}, "PreToolUse",
			bashPayload("ls"), want{status: engine.StatusRan}},
		{"python updatedInput keeps the other fields", command.Spec{Argv: []string{"python3", hookPath("rewrite.py")}}, "PreToolUse",
			bashPayload("pip install requests"), want{decision: "allow", context: "pip was rewritten to uv pip", status: engine.StatusDecided,
				input: map[string]any{"command": "uv pip install requests", "description": "d"}}},
		{"python legacy block on Stop", command.Spec{Argv: []string{"python3", hookPath("legacy_block.py")}}, "Stop",
			map[string]any{"session_id": "s1", "hook_event_name": "Stop", "stop_hook_active": false}, want{decision: "block", reason: "run the tests first", blocked: true, status: engine.StatusDecided}},
		{"python legacy approve is allow", command.Spec{Argv: []string{"python3", hookPath("legacy_block.py")}}, "PreToolUse",
			map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": "/tmp/a"}}, want{decision: "allow", reason: "writes are fine", status: engine.StatusDecided}},
		{"shell form runs with sh -c", command.Spec{Shell: `cat >/dev/null; echo "ctx from sh" `}, "UserPromptSubmit",
			map[string]any{"prompt": "hi"}, want{context: "ctx from sh", status: engine.StatusDecided}},
		{"plain stdout is context on UserPromptSubmit", command.Spec{Argv: []string{hookPath("context.sh")}}, "UserPromptSubmit",
			map[string]any{"prompt": "hi"}, want{context: "branch: main", status: engine.StatusDecided}},
		{"plain stdout is ignored on PreToolUse", command.Spec{Argv: []string{hookPath("context.sh")}}, "PreToolUse",
			bashPayload("ls"), want{status: engine.StatusRan}},
		{"continue false stops everything", command.Spec{Argv: []string{hookPath("halt.sh")}}, "PostToolUse",
			bashPayload("ls"), want{halted: true, blocked: true, sysMsg: "stopping", status: engine.StatusDecided}},
		{"exit 1 is a failure, not a block", command.Spec{Argv: []string{hookPath("fail.sh")}}, "PreToolUse",
			bashPayload("ls"), want{status: engine.StatusError, errHas: "something broke"}},
		{"exit 1 with JSON: the JSON decides", command.Spec{Argv: []string{hookPath("json_on_error.sh")}}, "PreToolUse",
			bashPayload("ls"), want{decision: "deny", reason: "json wins", blocked: true, status: engine.StatusDecided}},
		{"exit 2 beats a JSON allow", command.Spec{Argv: []string{hookPath("exit2_json_allow.sh")}}, "PreToolUse",
			bashPayload("ls"), want{decision: "deny", reason: "json reason", blocked: true, status: engine.StatusDecided}},
		{"exit 2 on PostToolBatch ends the turn", command.Spec{Shell: "cat >/dev/null; echo 'tests failed' >&2; exit 2"}, "PostToolBatch",
			map[string]any{"tool_calls": []any{}}, want{decision: "block", reason: "tests failed", blocked: true, status: engine.StatusDecided}},
		{"exit 2 on SessionStart only shows a message", command.Spec{Shell: "cat >/dev/null; echo 'no venv' >&2; exit 2"}, "SessionStart",
			map[string]any{"source": "startup"}, want{sysMsg: "no venv", status: engine.StatusDecided}},
		{"invalid JSON is a failure", command.Spec{Argv: []string{hookPath("bad_json.sh")}}, "PreToolUse",
			bashPayload("ls"), want{status: engine.StatusError, errHas: "not valid JSON"}},
		{"missing program could not run", command.Spec{Argv: []string{hookPath("no-such-hook.sh")}}, "PreToolUse",
			bashPayload("rm -rf /"), want{status: engine.StatusError, errHas: "could not run"}},
		{"not executable could not run", command.Spec{Argv: []string{hookPath("not_executable.sh")}}, "PreToolUse",
			bashPayload("rm -rf /"), want{status: engine.StatusError, errHas: "could not run"}},
		{"shell 127 could not run", command.Spec{Shell: "no-such-command-hookctl"}, "PreToolUse",
			bashPayload("rm -rf /"), want{status: engine.StatusError, errHas: "could not run"}},
		{"python missing script (exit 2) blocks, as in Claude Code, and says why", command.Spec{Argv: []string{"python3", hookPath("no-such.py")}}, "PreToolUse",
			bashPayload("ls"), want{decision: "deny", blocked: true, status: engine.StatusDecided, reasonHas: "could not run its script"}},
		{"a missing working directory is named as such", command.Spec{Shell: "true", Dir: "/nonexistent-hookctl-dir"}, "PreToolUse",
			bashPayload("ls"), want{status: engine.StatusError, errHas: "working directory /nonexistent-hookctl-dir"}},
		{"python missing script on an event that ignores exit 2 fails the hook instead of passing silently", command.Spec{Argv: []string{"python3", hookPath("no-such.py")}}, "Notification",
			map[string]any{"message": "m"}, want{status: engine.StatusError, errHas: "could not run"}},
		{"PermissionRequest decision.behavior deny", command.Spec{Argv: []string{"python3", hookPath("permission.py")}}, "PermissionRequest",
			map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm x"}}, want{decision: "deny", reason: "checked by policy", blocked: true, status: engine.StatusDecided}},
		{"PermissionRequest decision.behavior allow", command.Spec{Argv: []string{"python3", hookPath("permission.py")}}, "PermissionRequest",
			map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}, want{decision: "allow", reason: "checked by policy", status: engine.StatusDecided}},
		{"Claude's environment is passed on", command.Spec{Argv: []string{hookPath("env.sh")}, ProjectDir: "/"}, "SessionStart",
			map[string]any{"source": "startup"}, want{context: "/|h|SessionStart", status: engine.StatusDecided}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "Claude's environment is passed on" {
				t.Setenv("CLAUDE_PROJECT_DIR", "")
				os.Unsetenv("CLAUDE_PROJECT_DIR")
			}
			e := newEngine(t)
			if err := e.Register(cmdHook(t, "h", tc.event, tc.spec)); err != nil {
				t.Fatal(err)
			}
			out, err := e.Fire(context.Background(), engine.Event{Name: tc.event, Payload: tc.payload})
			if err != nil {
				t.Fatal(err)
			}
			tr, _ := out.Hook("h")
			w := tc.want
			reasonOK := out.Reason == w.reason || w.reasonHas != "" && strings.Contains(out.Reason, w.reasonHas)
			if string(out.Decision) != w.decision || !reasonOK || out.Blocked != w.blocked || out.Continue == w.halted ||
				out.AdditionalContext != w.context || out.SystemMessage != w.sysMsg || tr.Status != w.status ||
				(w.errHas != "" && !strings.Contains(tr.Error, w.errHas)) {
				t.Fatalf("outcome: decision=%q reason=%q blocked=%v continue=%v context=%q sys=%q status=%s err=%q",
					out.Decision, out.Reason, out.Blocked, out.Continue, out.AdditionalContext, out.SystemMessage, tr.Status, tr.Error)
			}
			if w.input != nil {
				for k, v := range w.input {
					if out.UpdatedInput[k] != v {
						t.Fatalf("updated_input %v, want %v", out.UpdatedInput, w.input)
					}
				}
			}
		})
	}
}

func TestLaunchFailureCanFailClosed(t *testing.T) {
	e := newEngine(t)
	h := cmdHook(t, "gate", "PreToolUse", command.Spec{Argv: []string{hookPath("no-such-hook.sh")}})
	h.OnError = engine.OnError{Policy: engine.ErrorBlock}
	if err := e.Register(h); err != nil {
		t.Fatal(err)
	}
	out, _ := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: bashPayload("ls")})
	tr, _ := out.Hook("gate")
	if !out.Blocked || tr.Status != engine.StatusError || !tr.FailClosed {
		t.Fatalf("%+v / %+v", out, tr)
	}
}

// TestTimeoutKillsProcessGroup: a hook that forks a child and hangs is
// killed with its child at the timeout.
func TestTimeoutKillsProcessGroup(t *testing.T) {
	e := newEngine(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	h := cmdHook(t, "slow", "PreToolUse", command.Spec{Argv: []string{hookPath("slow.sh"), pidFile}})
	h.Timeout = 300 * time.Millisecond
	if err := e.Register(h); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, _ := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: bashPayload("ls")})
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %s", d)
	}
	if tr, _ := out.Hook("slow"); tr.Status != engine.StatusTimeout {
		t.Fatalf("%+v", tr)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(3 * time.Second)
	for ostest.Alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("child %d outlived the timeout", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestOutputIsBounded(t *testing.T) {
	e := newEngine(t)
	if err := e.Register(cmdHook(t, "flood", "UserPromptSubmit", command.Spec{Argv: []string{hookPath("flood.sh")}})); err != nil {
		t.Fatal(err)
	}
	out, _ := e.Fire(context.Background(), engine.Event{Name: "UserPromptSubmit", Payload: map[string]any{"prompt": "x"}})
	if n := len(out.AdditionalContext); n > command.MaxOutput {
		t.Fatalf("context of %d bytes", n)
	}
}

// TestPayloadIsNeverInterpolated: a payload full of shell metacharacters
// reaches an argv hook as data on stdin.
func TestPayloadIsNeverInterpolated(t *testing.T) {
	e := newEngine(t)
	marker := filepath.Join(t.TempDir(), "pwned")
	if err := e.Register(cmdHook(t, "argv", "PreToolUse", command.Spec{Argv: []string{"python3", hookPath("argv.py"), "$(touch " + marker + ")", "a b"}})); err != nil {
		t.Fatal(err)
	}
	out, _ := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: bashPayload("`touch " + marker + "`; $(touch " + marker + ")")})
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a shell ran the payload or the arguments")
	}
	if out.AdditionalContext != `["$(touch `+marker+`)", "a b"]` {
		t.Fatalf("argv %q", out.AdditionalContext)
	}
}

func TestNewCommandValidation(t *testing.T) {
	if _, err := command.New(command.Spec{}); err == nil {
		t.Fatal("empty command accepted")
	}
	if _, err := command.New(command.Spec{Argv: []string{"x"}, Shell: "y"}); err == nil {
		t.Fatal("argv and shell accepted together")
	}
}

// TestWithEnv: a context's environment reaches the program as if it were
// the process's (hookctl test's per-test env), under the variables
// hookctl sets and the hook's own env, and its CLAUDE_PROJECT_DIR is the
// working directory; the process environment is untouched.
func TestWithEnv(t *testing.T) {
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	os.Unsetenv("CLAUDE_PROJECT_DIR")
	dir := t.TempDir()
	h, err := command.New(command.Spec{
		Shell: `echo "$TEST_ONLY|$HOOKCTL_HOOK|$OWN|$(pwd)"`,
		Env:   map[string]string{"OWN": "hook"},
	})
	if err != nil {
		t.Fatal(err)
	}
	call := &engine.Call{Hook: "h", Event: "SessionStart", Payload: map[string]any{"cwd": "/"}, Deadline: time.Now().Add(10 * time.Second)}
	ctx := command.WithEnv(context.Background(), map[string]string{
		"TEST_ONLY": "per-test", "HOOKCTL_HOOK": "spoofed", "OWN": "test", "CLAUDE_PROJECT_DIR": dir,
	})
	res, err := h.Handle(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if got := res["additional_context"]; got != "per-test|h|hook|"+real {
		t.Fatalf("additional_context %q", got)
	}
	if _, set := os.LookupEnv("TEST_ONLY"); set {
		t.Fatal("the process environment changed")
	}
	res, err = h.Handle(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	if got := res["additional_context"]; got != "|h|hook|/" {
		t.Fatalf("without WithEnv: %q", got)
	}
}
