package engine

import (
	"context"
	"fmt"
	"testing"
)

// benchPayload is a Claude Code PreToolUse payload of the usual size.
func benchPayload() map[string]any {
	return map[string]any{
		"session_id":      "5571db9b-f86b-4717-a6e4-58d884fbb40d",
		"transcript_path": "/home/u/.claude/projects/p/5571db9b.jsonl",
		"cwd":             "/home/u/project",
		"prompt_id":       "f72db9b4-6a84-4a66-9659-bd960301572e",
		"permission_mode": "default",
		"effort":          map[string]any{"level": "medium"},
		"hook_event_name": "PreToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": "rm -rf /tmp/x", "description": "cleanup", "timeout": 120000, "run_in_background": false},
		"tool_use_id":     "toolu_48491c349dd8409bbc4d3ec6",
	}
}

// benchCondition is the condition of the performance baseline.
const benchCondition = `tool_name in ["Bash","Shell"] && (tool_input.command matches "^rm " || tool_input.command contains "sudo") && !(session_id startsWith "test-")`

func newBenchEngine(b *testing.B, hooks ...Hook) *Engine {
	b.Helper()
	e, err := New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close(context.Background()) })
	for _, h := range hooks {
		if err := e.Register(h); err != nil {
			b.Fatal(err)
		}
	}
	return e
}

func BenchmarkFireNoHooks(b *testing.B) {
	e := newBenchEngine(b, Hook{ID: "other", Event: "PreToolUse", Handler: Static(Deny("x"))})
	ctx := context.Background()
	p := benchPayload()
	b.Run("by-name", func(b *testing.B) {
		ev := Event{Name: "Notification", Payload: p}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.Fire(ctx, ev); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("by-id", func(b *testing.B) {
		id, _ := e.Resolve("Notification")
		ev := Event{ID: id, Payload: p}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.Fire(ctx, ev); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("has-hooks", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if e.HasHooks("Notification") {
				b.Fatal("hooks")
			}
		}
	})
}

func declarativeHooks(n int, cond string) []Hook {
	hooks := make([]Hook, n)
	for i := range hooks {
		hooks[i] = Hook{ID: fmt.Sprintf("h%d", i), Event: "PreToolUse", Matcher: "Bash", When: cond, Handler: Static(Context(fmt.Sprintf("note %d", i)))}
	}
	return hooks
}

func BenchmarkFireDeclarative(b *testing.B) {
	ctx := context.Background()
	p := benchPayload()
	for _, n := range []int{1, 10} {
		b.Run(fmt.Sprintf("hooks=%d", n), func(b *testing.B) {
			e := newBenchEngine(b, declarativeHooks(n, benchCondition)...)
			id, _ := e.Resolve("PreToolUse")
			ev := Event{ID: id, Payload: p}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Fire(ctx, ev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFireDeclarativeSharedAtoms: 10 declarative hooks whose
// conditions differ but share sub-conditions (the tool, the command's
// shape), as real configurations do.
func BenchmarkFireDeclarativeSharedAtoms(b *testing.B) {
	ctx := context.Background()
	p := benchPayload()
	hooks := make([]Hook, 10)
	for i := range hooks {
		cond := fmt.Sprintf(`tool_name in ["Bash","Shell"] && (tool_input.command matches "^rm " || tool_input.command contains "sudo") && !(session_id startsWith "test-%d")`, i)
		hooks[i] = Hook{ID: fmt.Sprintf("h%d", i), Event: "PreToolUse", When: cond, Handler: Static(Context(fmt.Sprintf("note %d", i)))}
	}
	e := newBenchEngine(b, hooks...)
	id, _ := e.Resolve("PreToolUse")
	ev := Event{ID: id, Payload: p}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Fire(ctx, ev); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFireConditionFalse(b *testing.B) {
	ctx := context.Background()
	p := benchPayload()
	var called int
	h := Hook{ID: "never", Event: "PreToolUse", When: `tool_name == "Write" && tool_input.file_path endsWith ".env"`,
		Handler: HandlerFunc(func(context.Context, *Call) (Result, error) { called++; return nil, nil })}
	e := newBenchEngine(b, h)
	id, _ := e.Resolve("PreToolUse")
	ev := Event{ID: id, Payload: p}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Fire(ctx, ev); err != nil {
			b.Fatal(err)
		}
	}
	if called != 0 {
		b.Fatalf("handler ran %d times", called)
	}
}

// skippedHooks returns one hook that runs on Bash and n declarative hooks
// whose matcher (Write) skips them on a Bash payload.
func skippedHooks(n int) []Hook {
	hooks := []Hook{{ID: "runs", Event: "PreToolUse", Matcher: "Bash", Handler: Static(Context("ran"))}}
	for i := range n {
		hooks = append(hooks, Hook{ID: fmt.Sprintf("skip%d", i), Event: "PreToolUse", Matcher: "Write", Handler: Static(Deny("no"))})
	}
	return hooks
}

// BenchmarkFireSkipped: a fire whose hooks but one are skipped by their
// matcher. Bytes per op must not grow with the skipped hooks.
func BenchmarkFireSkipped(b *testing.B) {
	ctx := context.Background()
	p := benchPayload()
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("skipped=%d", n), func(b *testing.B) {
			e := newBenchEngine(b, skippedHooks(n)...)
			id, _ := e.Resolve("PreToolUse")
			ev := Event{ID: id, Payload: p}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Fire(ctx, ev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
