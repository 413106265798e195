package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/fastpath"
)

// The differential suite of the engine's and the conditions' fast paths:
// a generated configuration and a hostile payload must give the same
// outcome (decision, reason, updated input, context, every trace) with
// every optimisation on, with each one off, and with all of them off.

// diffSwitches are the settings each configuration runs under: all fast
// paths on (the first, which the others are compared with), each one off,
// and all off.
func diffSwitches() []fastpath.Set {
	s := []fastpath.Set{0}
	for b := fastpath.Set(1); b&fastpath.All != 0; b <<= 1 {
		s = append(s, b)
	}
	return append(s, fastpath.All)
}

// diffAtoms are the sub-conditions the generated conditions are made of:
// fields hostile payloads make missing, null, of the wrong type, huge,
// unicode, numbers near 2^53, the canonical tool field, the whole
// environment, and regexes each fast matcher takes.
var diffAtoms = []string{
	`tool_name == "Bash"`,
	`tool_name in ["Bash", "Shell", "bash"]`,
	`tool == "Bash"`,
	`$env.tool_name == "Bash"`,
	`$env["tool_input"].command contains "rm"`,
	`tool_input.command contains "rm"`,
	`tool_input.command matches "^rm "`,
	"tool_input.command matches `\\brm\\s+-rf\\b`",
	`tool_input.command matches "(?i)SUDO"`,
	`tool_input.command matches "\uFFFD"`,
	`tool_input.command matches "sh$"`,
	`tool_input.command startsWith "sudo"`,
	`tool_input.command endsWith "/"`,
	`tool_input.command == "ls"`,
	`tool_input.command == nil`,
	`tool_input.command != nil`,
	`tool_input.n > 9007199254740992`,
	`tool_input.n == 9007199254740993`,
	`tool_input.n >= 1.5`,
	`tool_input.n < 0`,
	`tool_input.flag == true`,
	`tool_input.flag`,
	`tool_input.list[0] == "a"`,
	`tool_input.list[-1] == "z"`,
	`tool_input.nested.k startsWith "x"`,
	`tool_input["é"] == "ü"`,
	`session_id endsWith "-test"`,
	`len(tool_input.command) > 3`,
	`state.count > 0`,
	`state.seen == true`,
}

// diffHook is a generated hook: its shape, kept to describe a failure.
type diffHook struct {
	h    engine.Hook
	desc string
}

func genCondition(r *rand.Rand, depth int) string {
	if depth == 0 || r.IntN(3) == 0 {
		return diffAtoms[r.IntN(len(diffAtoms))]
	}
	switch r.IntN(6) {
	case 0:
		return "!(" + genCondition(r, depth-1) + ")"
	case 1:
		return "not (" + genCondition(r, depth-1) + ")"
	case 2, 3:
		return "(" + genCondition(r, depth-1) + ") && (" + genCondition(r, depth-1) + ")"
	case 4:
		return "(" + genCondition(r, depth-1) + ") or (" + genCondition(r, depth-1) + ")"
	}
	return "(" + genCondition(r, depth-1) + ") || (" + genCondition(r, depth-1) + ")"
}

var diffResults = []engine.Result{
	nil,
	{"decision": "deny", "reason": "denied"},
	{"decision": "ask", "reason": "asked"},
	{"decision": "allow", "reason": "allowed"},
	{"permissionDecision": "deny", "permissionDecisionReason": "camel deny"},
	{"decision": "maybe"},
	{"decision": 5},
	{"additional_context": "ctx"},
	{"additional_context": "more", "system_message": "sys"},
	{"updated_input": map[string]any{"command": "ls"}},
	{"updated_input": map[string]any{"command": "rm -rf /", "n": 9007199254740993.0}},
	{"updated_input": map[string]any{"command": "sudo sh", "flag": true}, "decision": "allow"},
	{"updated_input": "not a map"},
	{"continue": false, "stop_reason": "stopped"},
	{"unknown_field": 1},
}

// diffEntrant is a Go handler that is an Entrant: run, when it calls it, runs
// the rest of the fire inside Enter.
type diffEntrant struct {
	engine.Handler
	call bool
}

func (diffEntrant) Inline() bool  { return true }
func (diffEntrant) EntryKey() any { return "diff" }
func (en diffEntrant) Enter(ctx context.Context, _ uint64, run func(context.Context)) {
	if en.call {
		run(ctx)
	}
}

// genHandler returns a handler and its description.
func genHandler(r *rand.Rand) (engine.Handler, string) {
	res := diffResults[r.IntN(len(diffResults))]
	switch r.IntN(10) {
	case 0, 1, 2:
		return engine.Static(res), fmt.Sprintf("static %v", res)
	case 8, 9:
		// A constant return, read once (as a script's is): the engine
		// merges its reading where it would read the map.
		if len(res) == 0 {
			return engine.Static(res), fmt.Sprintf("static %v", res)
		}
		pr := engine.PrepareResult(maps.Clone(res))
		return fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			c.Constant(pr)
			return pr.Result(), nil
		}), fmt.Sprintf("constant %v", res)
	case 3:
		return fn(func(context.Context, *engine.Call) (engine.Result, error) { return res, nil }), fmt.Sprintf("go %v", res)
	case 4:
		// A rewrite computed from the payload it sees, and state.
		return fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			in, _ := c.Payload["tool_input"].(map[string]any)
			cmd, _ := in["command"].(string)
			if c.State != nil {
				n, _ := c.State.Get("count")
				i, _ := n.(int)
				c.State.Set("count", i+1)
				c.State.Set("seen", true)
			}
			if strings.Contains(cmd, "rm") {
				return engine.Result{"updated_input": map[string]any{"command": "echo " + cmd}}, nil
			}
			return engine.Result{"updated_input": map[string]any{"command": "rm -rf / " + cmd}}, nil
		}), "go rewrite from payload"
	case 5:
		return fn(func(context.Context, *engine.Call) (engine.Result, error) { return nil, errors.New("broken") }), "go error"
	case 6:
		return diffEntrant{Handler: engine.Static(res), call: r.IntN(2) == 0}, fmt.Sprintf("entrant %v", res)
	}
	return engine.Inline(fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
		cmd, _ := c.Payload["tool"].(string)
		return engine.Result{"additional_context": "tool=" + cmd}, nil
	})), "go reads tool"
}

var diffMatchers = []string{"", "", "Bash", "Write|Edit", "B.*", "bash", "*"}

// genConfig returns the hooks of one configuration.
func genConfig(r *rand.Rand) []diffHook {
	n := 2 + r.IntN(7)
	// A few conditions reused across hooks, so that they and their parts
	// are shared.
	shared := []string{genCondition(r, 2), genCondition(r, 2)}
	var hooks []diffHook
	for i := range n {
		h := engine.Hook{ID: fmt.Sprint("h", i), Event: "PreToolUse", Priority: r.IntN(5) - 2}
		switch r.IntN(4) {
		case 0:
		case 1:
			h.When = shared[r.IntN(len(shared))]
		default:
			h.When = genCondition(r, 3)
		}
		h.Matcher = diffMatchers[r.IntN(len(diffMatchers))]
		var desc string
		h.Handler, desc = genHandler(r)
		switch r.IntN(8) {
		case 0:
			h.Observe = true
		case 1:
			h.OnError = engine.OnError{Policy: engine.ErrorBlock}
		case 2:
			h.Event = "PostToolUse"
		}
		hooks = append(hooks, diffHook{h: h, desc: fmt.Sprintf("%s prio %d observe %v on_error %v event %s matcher %q when %q: %s", h.ID, h.Priority, h.Observe, h.OnError.Policy, h.Event, h.Matcher, h.When, desc)})
	}
	return hooks
}

// diffPayloads are hostile payloads.
func diffPayloads() []map[string]any {
	huge := strings.Repeat("rm -rf / ", 8<<10)
	inputs := []any{
		nil, "not a map", 42, []any{"rm"},
		map[string]any{},
		map[string]any{"command": nil},
		map[string]any{"command": 7},
		map[string]any{"command": "ls"},
		map[string]any{"command": "rm -rf /", "n": 9007199254740993, "flag": true},
		map[string]any{"command": "sudo rm -rf /", "n": 9007199254740992.0, "flag": "true"},
		map[string]any{"command": "SUDO sh", "n": math.NaN(), "list": []any{"a", "z"}},
		map[string]any{"command": "rm\u00a0-rf ü", "é": "ü", "list": []any{}, "nested": map[string]any{"k": "xyz"}},
		map[string]any{"command": "\xff\xfe rm -rf", "n": math.Copysign(0, -1), "list": "a", "nested": "x"},
		map[string]any{"command": huge, "n": 1 << 62},
		map[string]any{"command": "ls", "_$K0": map[string]any{"decision": "allow"}},
	}
	names := []any{"Bash", "bash", "run_shell_command", nil, 3, "Write", "Edit"}
	var out []map[string]any
	for i, in := range inputs {
		p := map[string]any{"session_id": "s-test", "tool_name": names[i%len(names)]}
		if in != nil || i%2 == 0 {
			p["tool_input"] = in
		}
		switch i % 4 {
		case 1:
			p["tool"] = "Read" // a canonical name that lies
		case 2:
			p["session_id"] = nil
		case 3:
			p["state"] = map[string]any{"count": 9}
		}
		out = append(out, p)
	}
	return append(out, nil, map[string]any{})
}

// describe prints what a comparison looks at: everything but durations,
// stacks, and nil against empty.
func describe(o engine.Outcome, err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "err=%v event=%s decision=%q reason=%q blocked=%v continue=%v stop=%q ui=%v ctx=%q sys=%q\n",
		err, o.Event, o.Decision, o.Reason, o.Blocked, o.Continue, o.StopReason, o.UpdatedInput, o.AdditionalContext, o.SystemMessage)
	if len(o.Output) > 0 {
		fmt.Fprintf(&b, "output=%v\n", o.Output)
	}
	if len(o.State) > 0 {
		fmt.Fprintf(&b, "state=%v\n", o.State)
	}
	for _, t := range o.Hooks {
		fmt.Fprintf(&b, "  %s %s %s %q %q skip=%q/%s err=%q fc=%v panic=%v phase=%s note=%q out=%v\n",
			t.ID, t.Handler, t.Status, t.Decision, t.Reason, t.SkipReason, t.SkipCode, t.Error, t.FailClosed, t.Panic, t.Phase, t.Note, t.Output)
	}
	return b.String()
}

// diffRun fires every payload of one configuration on engines with each
// switch setting and reports every difference from the first setting.
// The first engine fires with FireInto into one Outcome reused across the
// payloads; the others with Fire.
func diffRun(t testing.TB, r *rand.Rand, switches []fastpath.Set, payloads []map[string]any) (fires int) {
	t.Helper()
	hooks := genConfig(r)
	engines := make([]*engine.Engine, len(switches))
	refused := map[string]string{} // a hook the first engine refused, and why
	for i, off := range switches {
		e, err := engine.New(engine.WithoutFastPaths(off))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = e.Close(context.Background()) }()
		for _, h := range hooks {
			err := e.Register(h.h)
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			if i == 0 {
				refused[h.h.ID] = msg
			} else if refused[h.h.ID] != msg {
				t.Fatalf("register %s with fast paths off %#x: %q, with them on: %q", h.desc, off, msg, refused[h.h.ID])
			}
		}
		engines[i] = e
	}
	ctx := context.Background()
	var reused engine.Outcome
	for pi, p := range payloads {
		for _, event := range []string{"PreToolUse", "PostToolUse", "Notification"} {
			ev := engine.Event{Name: event, Payload: p}
			err := engines[0].FireInto(ctx, ev, &reused)
			want := describe(reused, err)
			fires++
			for i, e := range engines[1:] {
				got := describe(e.Fire(ctx, ev))
				fires++
				if got != want {
					var cfg strings.Builder
					for _, h := range hooks {
						cfg.WriteString("  " + h.desc + "\n")
					}
					t.Fatalf("%s, payload %d (%.200v), fast paths off %#x:\n%s\ngot:\n%s\nwant (all on):\n%s", event, pi, p, switches[i+1], cfg.String(), got, want)
				}
			}
		}
	}
	return fires
}

// TestEngineFastPathsAreInvisible runs the generated corpus.
func TestEngineFastPathsAreInvisible(t *testing.T) {
	configs := 80
	if testing.Short() {
		configs = 20
	}
	r := rand.New(rand.NewPCG(24, 1))
	payloads := diffPayloads()
	switches := diffSwitches()
	fires := 0
	for range configs {
		fires += diffRun(t, r, switches, payloads)
	}
	t.Logf("%d configurations × %d payloads × 3 events × %d switch settings: %d fires", configs, len(payloads), len(switches), fires)
}

// FuzzEngineFastPaths: a configuration generated from the seed and a
// payload decoded from the input give the same outcome with every fast
// path on, with one off and with all off.
func FuzzEngineFastPaths(f *testing.F) {
	for _, p := range diffPayloads() {
		if b, err := json.Marshal(p); err == nil {
			f.Add(uint64(len(b)), b)
		}
	}
	f.Add(uint64(7), []byte(`{"tool_name":"Bash","tool_input":{"command":"rm -rf /","n":9007199254740993}}`))
	f.Fuzz(func(t *testing.T, seed uint64, raw []byte) {
		var p map[string]any
		if json.Unmarshal(raw, &p) != nil {
			p = map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": string(raw)}}
		}
		r := rand.New(rand.NewPCG(seed, seed>>32))
		one := fastpath.Set(1) << r.IntN(11)
		diffRun(t, r, []fastpath.Set{0, one, fastpath.All}, []map[string]any{p})
	})
}

// TestEnvConditionGuards: a condition that reads the payload through $env
// (the whole environment) sees it: the closure fast path read $env as a
// missing field, so `$env.tool_name == "Bash"` was false and its deny
// hook skipped, while the expr virtual machine denies.
func TestEnvConditionGuards(t *testing.T) {
	for _, off := range []fastpath.Set{0, fastpath.All} {
		e := newEngine(t, engine.WithoutFastPaths(off))
		register(t, e,
			engine.Hook{ID: "env", Event: "PreToolUse", When: `$env.tool_name == "Bash" && $env["tool_input"].command contains "rm"`, Handler: engine.Static(engine.Deny("rm"))},
			engine.Hook{ID: "shares", Event: "PreToolUse", Priority: 1, When: `tool_name == "Bash" && $env.tool_name == "Bash"`, Handler: engine.Static(engine.Context("bash"))},
		)
		out := fire(t, e, "PreToolUse", bash("rm -rf /"))
		if out.Decision != engine.DecisionDeny || out.AdditionalContext != "bash" {
			t.Fatalf("fast paths off %#x: %s", off, describe(out, nil))
		}
	}
}

// TestObserveTraceIsCanonical: an observe hook's trace shows its result
// as a chain hook's and a declarative hook's do (canonical names, the
// reason of permissionDecisionReason), whether its handler ran or its
// declared result was used.
func TestObserveTraceIsCanonical(t *testing.T) {
	res := engine.Result{"permissionDecision": "deny", "permissionDecisionReason": "camel"}
	e := newEngine(t)
	register(t, e,
		engine.Hook{ID: "static", Event: "PreToolUse", Observe: true, Handler: engine.Static(res)},
		engine.Hook{ID: "go", Event: "PreToolUse", Observe: true, Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) { return res, nil })},
	)
	out := fire(t, e, "PreToolUse", bash("ls"))
	for _, id := range []string{"static", "go"} {
		tr := traceOf(t, out, id)
		if tr.Decision != engine.DecisionDeny || tr.Reason != "camel" || tr.Output["reason"] != "camel" {
			t.Errorf("%s: %+v", id, tr)
		}
	}
}

// TestRememberedConditionsDoNotOutliveTheFire: the caller may change a
// payload between fires (not during one); a fire through FireInto into
// the outcome of the last, on the same map, with conditions and
// sub-conditions shared between hooks, sees the change.
func TestRememberedConditionsDoNotOutliveTheFire(t *testing.T) {
	e := newEngine(t)
	rm := `tool_name == "Bash" && tool_input.command contains "rm"`
	register(t, e,
		engine.Hook{ID: "note", Event: "PreToolUse", Priority: 2, When: rm, Handler: engine.Static(engine.Context("rm"))},
		engine.Hook{ID: "guard", Event: "PreToolUse", Priority: 1, When: rm, Handler: engine.Static(engine.Deny("rm"))},
		engine.Hook{ID: "part", Event: "PreToolUse", When: `tool_name == "Bash" && !(tool_input.command contains "rm")`, Handler: engine.Static(engine.Context("safe"))},
	)
	in := map[string]any{"command": "ls"}
	payload := map[string]any{"tool_name": "Bash", "tool_input": in}
	var out engine.Outcome
	ctx := context.Background()
	for i, cmd := range []string{"ls", "rm -rf /", "ls", "rm -rf /"} {
		in["command"] = cmd
		if err := e.FireInto(ctx, engine.Event{Name: "PreToolUse", Payload: payload}, &out); err != nil {
			t.Fatal(err)
		}
		deny := strings.Contains(cmd, "rm")
		if (out.Decision == engine.DecisionDeny) != deny || deny != (out.AdditionalContext == "rm") {
			t.Fatalf("fire %d (%s): %s", i, cmd, describe(out, nil))
		}
	}
}
