package engine_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/engine"
)

func Example() {
	eng, err := engine.New(engine.WithMaxConcurrency(8))
	if err != nil {
		panic(err)
	}
	defer eng.Close(context.Background())

	// A declarative hook: no code runs, an expr condition decides.
	_ = eng.Register(engine.Hook{
		ID: "no-rm-rf", Event: "PreToolUse", Matcher: "Bash", Priority: 100,
		When:    "tool_input.command matches `\\brm\\s+-rf\\b`",
		Handler: engine.Static(engine.Deny("rm -rf is not allowed")),
	})
	// A Go hook rewriting the tool input for the hooks after it.
	_ = eng.Register(engine.Hook{
		ID: "pip-to-uv", Event: "PreToolUse", Matcher: "Bash",
		Handler: engine.HandlerFunc(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
			cmd, _ := c.Payload["tool_input"].(map[string]any)["command"].(string)
			if !strings.HasPrefix(cmd, "pip install ") {
				return nil, nil
			}
			return engine.Result{"updated_input": map[string]any{"command": "uv " + cmd}}, nil
		}),
	})

	for _, cmd := range []string{"rm -rf /", "pip install requests"} {
		out, err := eng.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{
			"tool_name": "Bash", "tool_input": map[string]any{"command": cmd},
		}})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: decision=%q blocked=%v updated_input=%v\n", cmd, out.Decision, out.Blocked, out.UpdatedInput)
	}
	// Output:
	// rm -rf /: decision="deny" blocked=true updated_input=map[]
	// pip install requests: decision="" blocked=false updated_input=map[command:uv pip install requests]
}

func ExampleEngine_RegisterEvent() {
	eng, _ := engine.New()
	defer eng.Close(context.Background())
	_, _ = eng.RegisterEvent(engine.EventSpec{
		Name: "deploy.pre", Strategy: engine.Modifying, MatcherField: "service",
		Merge: map[string]engine.FieldRule{
			"replicas": {Rule: engine.MergeLast},
			"notes":    {Rule: engine.MergeConcat},
			"block":    {Rule: engine.MergeSticky, Terminal: true, Blocks: true},
		},
	})
	_ = eng.Register(engine.Hook{ID: "freeze", Event: "deploy.pre", Matcher: "billing",
		Handler: engine.Static(engine.Result{"block": true, "notes": "billing is frozen"})})
	out, _ := eng.Fire(context.Background(), engine.Event{Name: "deploy.pre", Payload: map[string]any{"service": "billing"}})
	fmt.Println(out.Blocked, out.Output["notes"])
	// Output: true billing is frozen
}

func ExampleEngine_Fire_stopGuard() {
	eng, _ := engine.New(engine.WithStopBlockCap(2))
	defer eng.Close(context.Background())
	_ = eng.Register(engine.Hook{ID: "tests-first", Event: "Stop", Handler: engine.Static(engine.Block("run the tests"))})
	for range 3 {
		out, _ := eng.Fire(context.Background(), engine.Event{Name: "Stop", Payload: map[string]any{"session_id": "s1"}})
		fmt.Printf("decision=%q released=%v\n", out.Decision, out.StopGuard.Released)
	}
	// Output:
	// decision="block" released=false
	// decision="block" released=false
	// decision="" released=true
}

// On registers a Go hook with a typed payload, as ADK and eino type their
// callbacks.
func ExampleOn() {
	eng, _ := engine.New()
	defer eng.Close(context.Background())
	_ = engine.On(eng, "no-force-push", "PreToolUse", func(_ context.Context, p engine.ToolPayload, _ *engine.Call) (engine.Result, error) {
		if cmd, _ := p.ToolInput["command"].(string); p.ToolName == "Bash" && strings.Contains(cmd, "push --force") {
			return engine.Deny("force pushes need a human"), nil
		}
		return nil, nil
	})
	out, _ := eng.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{
		"tool_name": "Bash", "tool_input": map[string]any{"command": "git push --force"},
	}})
	fmt.Println(out.Decision, out.Decision.Blocks(), out.Reason)
	// Output: deny true force pushes need a human
}

// WithMiddleware wraps every hook, here to count the calls per hook.
func ExampleWithMiddleware() {
	calls := map[string]int{}
	count := func(next engine.Handler, info engine.HookInfo) engine.Handler {
		return engine.HandlerFunc(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
			calls[info.ID]++ // one fire at a time here; guard it with a mutex otherwise
			return next.Handle(ctx, c)
		})
	}
	eng, _ := engine.New(engine.WithMiddleware(count))
	defer eng.Close(context.Background())
	_ = eng.Register(engine.Hook{ID: "ctx", Event: "UserPromptSubmit", Handler: engine.Static(engine.Context("be brief"))})
	for range 3 {
		_, _ = eng.Fire(context.Background(), engine.Event{Name: "UserPromptSubmit", Payload: map[string]any{"prompt": "hi"}})
	}
	fmt.Println(calls)
	// Output: map[ctx:3]
}

// logObserver prints what the engine reports of each fire.
type logObserver struct{}

func (logObserver) FireStarted(ctx context.Context, f engine.FireInfo) context.Context {
	fmt.Println("start", f.Event)
	return ctx
}

func (logObserver) HookDone(_ context.Context, f engine.FireInfo, tr *engine.HookTrace) {
	fmt.Println("  hook", tr.ID, tr.Status, tr.Decision)
}

func (logObserver) FireEnded(_ context.Context, f engine.FireInfo, out *engine.Outcome, err error) {
	fmt.Println("end", f.Event, out.Decision, len(out.Hooks), "hooks")
}

// WithObserver reports every fire with hooks, and every hook that ran
// (skipped hooks only in the outcome), without wrapping any handler.
func ExampleWithObserver() {
	eng, _ := engine.New(engine.WithObserver(logObserver{}))
	defer eng.Close(context.Background())
	_ = eng.Register(engine.Hook{ID: "no-rm", Event: "PreToolUse", Matcher: "Bash", Handler: engine.Static(engine.Deny("no rm"))})
	_ = eng.Register(engine.Hook{ID: "edits", Event: "PreToolUse", Matcher: "Edit", Handler: engine.Static(engine.Ask("check it"))})
	_, _ = eng.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash"}})
	// Output:
	// start PreToolUse
	//   hook no-rm decided deny
	// end PreToolUse deny 2 hooks
}

// A server answering one event per request reuses one Outcome per worker:
// FireInto writes each fire's traces into the memory of the last one's.
func ExampleEngine_FireInto() {
	eng, err := engine.New()
	if err != nil {
		panic(err)
	}
	defer eng.Close(context.Background())
	_ = eng.Register(engine.Hook{ID: "no-sudo", Event: "PreToolUse", When: `tool_input.command contains "sudo"`,
		Handler: engine.Static(engine.Deny("no sudo"))})

	var out engine.Outcome // reused: keep nothing of one fire past the next
	for _, cmd := range []string{"sudo ls", "ls"} {
		ev := engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}}}
		if err := eng.FireInto(context.Background(), ev, &out); err != nil {
			panic(err)
		}
		// Skipped hooks are counted, not traced, unless the engine was
		// built WithSkippedTraces.
		fmt.Printf("%s: decision=%q, %d traced, %d skipped\n", cmd, out.Decision, len(out.Hooks), out.Untraced)
	}
	// Output:
	// sudo ls: decision="deny", 1 traced, 0 skipped
	// ls: decision="", 0 traced, 1 skipped
}
