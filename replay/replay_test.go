package replay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/replay"
)

var update = flag.Bool("update", false, "rewrite golden files")

// load assembles an HCL configuration into a new engine.
func load(t *testing.T, path string) replay.Config {
	t.Helper()
	eng, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := assemble.Load(path, assemble.WithEngine(eng))
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		eng.Close(context.Background())
		cfg.Close()
	})
	return replay.Config{Name: path, Engine: eng}
}

// goEngine returns an engine with Go hooks.
func goEngine(t *testing.T, hooks ...engine.Hook) replay.Config {
	t.Helper()
	eng, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hooks {
		if err := eng.Register(h); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { eng.Close(context.Background()) })
	return replay.Config{Name: "go", Engine: eng}
}

func run(t *testing.T, src string, configs ...replay.Config) *replay.Report {
	t.Helper()
	rep, err := replay.Run(context.Background(), replay.NewReader(strings.NewReader(src), replay.WithPath("t.jsonl")), configs...)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./replay -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./replay -update rewrites it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// The hand-made transcript through testdata/policy.hcl, one hook per kind
// of outcome: the table, the summary and the JSON lines.
func TestRunPolicy(t *testing.T) {
	rep := run(t, readFile(t, "testdata/policy.jsonl"), load(t, "testdata/policy.hcl"))
	var out bytes.Buffer
	if err := rep.WriteTable(&out, 0, replay.TableOptions{}); err != nil {
		t.Fatal(err)
	}
	out.WriteString("\n")
	if err := rep.WriteSummary(&out, 0); err != nil {
		t.Fatal(err)
	}
	golden(t, "policy.txt", out.Bytes())

	out.Reset()
	if err := rep.WriteJSON(&out, 0); err != nil {
		t.Fatal(err)
	}
	golden(t, "policy.json", out.Bytes())
	// Every line is a JSON object; one per event, then the summary.
	ls := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(ls) != len(rep.Records)+1 {
		t.Fatalf("%d JSON lines for %d records", len(ls), len(rep.Records))
	}
	for i, l := range ls {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if want := map[bool]string{true: "summary", false: "event"}[i == len(ls)-1]; m["type"] != want {
			t.Errorf("line %d: type %v", i+1, m["type"])
		}
	}

	s := rep.Summaries[0]
	want := replay.Summary{Blocked: 3, Asked: 1, Rewritten: 1, Context: 2, Allowed: 1, HookErrors: 1, DeniedRan: 1,
		Fired: map[string]int{"SessionStart": 1, "UserPromptSubmit": 2, "PreToolUse": 7, "PostToolUse": 4, "PostToolUseFailure": 1, "Stop": 1}}
	if s.Blocked != want.Blocked || s.Asked != want.Asked || s.Rewritten != want.Rewritten || s.Context != want.Context ||
		s.Allowed != want.Allowed || s.HookErrors != want.HookErrors || s.DeniedRan != want.DeniedRan || !mapsEqual(s.Fired, want.Fired) {
		t.Errorf("summary\n got %+v\nwant %+v", s, want)
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// The verdict of each event of the policy replay, and the marks: the post
// event of a denied call that ran, what the session did with each call.
func TestRunVerdicts(t *testing.T) {
	rep := run(t, readFile(t, "testdata/policy.jsonl"), load(t, "testdata/policy.hcl"))
	var got []string
	for _, r := range rep.Records {
		v := r.Verdicts[0]
		s := r.Event + " " + string(v.Action) + " " + strings.Join(v.Hooks, ",")
		if r.Recorded != "" {
			s += " [" + string(r.Recorded) + "]"
		}
		if v.AfterDeny {
			s += " after-deny"
		}
		for _, e := range v.Errors {
			s += " error:" + e.ID
		}
		got = append(got, s)
	}
	sameList(t, got, []string{
		"SessionStart none  error:broken",
		"UserPromptSubmit context remind-tests",
		"PreToolUse allow reads-in-project [ran]",
		"PostToolUse none  [ran]",
		"PreToolUse rewritten pip-to-uv [ran]",
		"PostToolUse none  [ran]",
		"PreToolUse deny no-secrets [ran]",
		"PostToolUse none  [ran] after-deny",
		"PreToolUse none  [ran]",
		"PostToolUse none  [ran]",
		"PreToolUse none  [failed]",
		"PostToolUseFailure context failure-hint [failed]",
		"PreToolUse ask push-needs-human [rejected]",
		"UserPromptSubmit none ",
		"PreToolUse deny no-rm-home [blocked]",
		"Stop block tests-before-stop",
	})
	pip := rep.Records[4].Verdicts[0]
	if pip.UpdatedInput["command"] != "uv pip install requests" || pip.Reason != "command → uv pip install requests" || !pip.Rewritten {
		t.Errorf("pip verdict %+v", pip)
	}
}

// --diff: the events whose effect differs, not those whose hooks were
// only renamed (no-rm-home became guard-home).
func TestRunDiff(t *testing.T) {
	rep := run(t, readFile(t, "testdata/policy.jsonl"), load(t, "testdata/policy.hcl"), load(t, "testdata/policy-new.hcl"))
	var out bytes.Buffer
	if err := rep.WriteDiffTable(&out, 0, 1); err != nil {
		t.Fatal(err)
	}
	golden(t, "diff.txt", out.Bytes())
	out.Reset()
	if err := rep.WriteDiffJSON(&out, 0, 1); err != nil {
		t.Fatal(err)
	}
	golden(t, "diff.json", out.Bytes())

	var lines []int
	for _, r := range rep.Diff(0, 1) {
		lines = append(lines, r.Line)
	}
	if want := []int{5, 7, 14, 16, 27}; !slices.Equal(lines, want) {
		t.Errorf("differing lines %v, want %v", lines, want)
	}
	rm := rep.Records[14]
	if rm.Tool != "Bash" || rm.Verdicts[0].Hooks[0] != "no-rm-home" || rm.Verdicts[1].Hooks[0] != "guard-home" || rm.Differs(0, 1) {
		t.Errorf("renamed hook: %+v", rm)
	}
	if same := run(t, readFile(t, "testdata/policy.jsonl"), load(t, "testdata/policy.hcl"), load(t, "testdata/policy.hcl")); len(same.Diff(0, 1)) != 0 {
		t.Errorf("a configuration differs from itself: %+v", same.Diff(0, 1))
	}
}

// The real transcript through the policy: the table golden.
func TestRunRealTranscript(t *testing.T) {
	rep := run(t, readFile(t, "testdata/session-echo.jsonl"), load(t, "testdata/policy.hcl"))
	var out bytes.Buffer
	if err := rep.WriteTable(&out, 0, replay.TableOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	out.WriteString("\n")
	if err := rep.WriteSummary(&out, 0); err != nil {
		t.Fatal(err)
	}
	golden(t, "session-echo.txt", out.Bytes())
}

// Judge: each kind of outcome gives its action, the hooks behind it and
// its reason.
func TestJudge(t *testing.T) {
	static := func(id string, prio int, r engine.Result) engine.Hook {
		return engine.Hook{ID: id, Event: "PreToolUse", Priority: prio, Handler: engine.Static(r)}
	}
	cases := []struct {
		name   string
		hooks  []engine.Hook
		action replay.Action
		ids    []string
		reason string
	}{
		{"nothing", nil, replay.ActionNone, nil, ""},
		{"stop", []engine.Hook{static("halt", 1, engine.Result{"continue": false, "stop_reason": "halted"}), static("ctx", 0, engine.Context("c"))},
			replay.ActionStop, []string{"halt"}, "halted"},
		{"deny wins over ask, the winner named", []engine.Hook{static("asker", 2, engine.Ask("maybe")), static("denier", 1, engine.Deny("no"))},
			replay.ActionDeny, []string{"denier"}, "no"},
		{"OpenClaw's block field is a deny", []engine.Hook{static("claw", 0, engine.Result{"block": true, "block_reason": "nope"})},
			replay.ActionDeny, []string{"claw"}, "nope"},
		{"defer", []engine.Hook{static("sdk", 0, engine.Defer("later"))}, replay.ActionDefer, []string{"sdk"}, "later"},
		{"rewrite beats context and allow", []engine.Hook{
			static("ok", 3, engine.Allow("fine")),
			static("rw", 2, engine.Result{"updated_input": map[string]any{"command": "ls -la"}}),
			static("ctx", 1, engine.Context("listed")),
		}, replay.ActionRewritten, []string{"rw"}, "command → ls -la"},
		{"context from two hooks", []engine.Hook{static("a", 1, engine.Context("one")), static("b", 0, engine.Result{"additionalContext": "two"})},
			replay.ActionContext, []string{"a", "b"}, "one\n\ntwo"},
		{"allow", []engine.Hook{static("ok", 0, engine.Allow("fine"))}, replay.ActionAllow, []string{"ok"}, "fine"},
		{"a failing hook that fails closed", []engine.Hook{{ID: "bad", Event: "PreToolUse", OnError: engine.OnError{Policy: engine.ErrorBlock},
			Handler: engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) { return nil, errors.New("boom") })}},
			replay.ActionDeny, []string{"bad"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			eng := goEngine(t, c.hooks...).Engine
			out, err := eng.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}})
			if err != nil {
				t.Fatal(err)
			}
			v := replay.Judge(out)
			if v.Action != c.action || !slices.Equal(v.Hooks, c.ids) || (c.reason != "" && v.Reason != c.reason) {
				t.Errorf("verdict %s %v %q, want %s %v %q", v.Action, v.Hooks, v.Reason, c.action, c.ids, c.reason)
			}
			if c.name == "a failing hook that fails closed" && (len(v.Errors) != 1 || v.Errors[0].ID != "bad" || !v.Blocked) {
				t.Errorf("errors %+v blocked %v", v.Errors, v.Blocked)
			}
		})
	}
}

// One engine serves the whole replay: it sees every event in transcript
// order, and what it keeps across fires (the Stop loop guard here) carries
// over, as in the session.
func TestRunOneEngineInOrder(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	record := engine.Hook{ID: "record", Events: replay.Events, Handler: engine.HandlerFunc(func(_ context.Context, c *engine.Call) (engine.Result, error) {
		mu.Lock()
		defer mu.Unlock()
		s := c.Event
		if id, ok := c.Payload["tool_use_id"].(string); ok {
			s += " " + id
		}
		seen = append(seen, s)
		return nil, nil
	})}
	keepWorking := engine.Hook{ID: "keep-working", Event: "Stop", Handler: engine.Static(engine.Block("go on"))}
	src := lines(prompt("go"), toolUse("m1", "t1", "ls"), toolUse("m1", "t2", "pwd"), toolResult("t1", "a", false), toolResult("t2", "b", true),
		text("m2", "done", "end_turn"), text("m3", "done", "end_turn"), text("m4", "done", "end_turn"), text("m5", "done", "end_turn"))
	rep := run(t, src, goEngine(t, record, keepWorking))
	sameList(t, seen, []string{"SessionStart", "UserPromptSubmit", "PreToolUse t1", "PreToolUse t2", "PostToolUse t1", "PostToolUseFailure t2",
		"Stop", "Stop", "Stop", "Stop"})
	var released []bool
	for _, r := range rep.Records {
		if r.Event == "Stop" {
			released = append(released, r.Verdicts[0].StopReleased)
		}
	}
	if want := []bool{false, false, false, true}; !slices.Equal(released, want) {
		t.Errorf("stop guard released %v, want %v (one engine keeps the count)", released, want)
	}
}

// Each configuration gets a payload of its own: a hook that changes its
// payload cannot change what the other configuration sees.
func TestRunPayloadPerConfig(t *testing.T) {
	vandal := engine.Hook{ID: "vandal", Event: "PreToolUse", Handler: engine.HandlerFunc(func(_ context.Context, c *engine.Call) (engine.Result, error) {
		c.Payload["tool_input"].(map[string]any)["command"] = "rm -rf /"
		return nil, nil
	})}
	var got string
	witness := engine.Hook{ID: "witness", Event: "PreToolUse", Handler: engine.HandlerFunc(func(_ context.Context, c *engine.Call) (engine.Result, error) {
		got, _ = c.Payload["tool_input"].(map[string]any)["command"].(string)
		return nil, nil
	})}
	run(t, lines(prompt("go"), toolUse("m1", "t1", "ls")), goEngine(t, vandal), goEngine(t, witness))
	if got != "ls" {
		t.Errorf("the second configuration saw %q", got)
	}
}

// Calls without a result, and errors of Run.
func TestRunEdges(t *testing.T) {
	deny := engine.Hook{ID: "deny", Event: "PreToolUse", Handler: engine.Static(engine.Deny("no"))}
	rep := run(t, lines(prompt("go"), toolUse("m1", "t1", "sleep 100")), goEngine(t, deny))
	if r := rep.Records[2]; r.Recorded != replay.RecordedNone || rep.Summaries[0].DeniedRan != 0 || rep.Stats.Unanswered != 1 {
		t.Errorf("record %+v, summary %+v", r, rep.Summaries[0])
	}
	if _, err := replay.Run(context.Background(), replay.NewReader(strings.NewReader(prompt("x")))); err == nil {
		t.Error("Run without a configuration")
	}
	_, err := replay.Run(context.Background(), replay.NewReader(strings.NewReader("nonsense\n")), goEngine(t))
	var fe *replay.FormatError
	if !errors.As(err, &fe) {
		t.Errorf("err = %v, want a FormatError", err)
	}
	closed := goEngine(t)
	closed.Engine.Close(context.Background())
	if _, err := replay.Run(context.Background(), replay.NewReader(strings.NewReader(prompt("x"))), closed); !errors.Is(err, engine.ErrClosed) || !strings.Contains(err.Error(), "line 1: SessionStart") {
		t.Errorf("err = %v", err)
	}
}
