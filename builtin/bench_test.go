package builtin_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/engine"
)

// typicalLine is the kind of compound line an agent runs many times a
// session.
const typicalLine = `cd /home/dev/project && go test ./... 2>&1 | tail -n 20 && git status --short`

func benchHook(b *testing.B, name string) engine.Hook {
	cfg := builtin.Config{Home: home}
	if name == "read-only-approver" {
		cfg.Options = map[string]any{"events": []any{"PreToolUse"}}
	}
	hooks, err := builtin.New(name, cfg)
	if err != nil {
		b.Fatal(err)
	}
	return hooks[0]
}

// BenchmarkDangerousCommands measures the handler alone on a harmless
// compound line (the common case: every rule runs, none fires).
func BenchmarkDangerousCommands(b *testing.B) {
	h := benchHook(b, "dangerous-commands")
	c := &engine.Call{Event: "PreToolUse", Payload: bash(typicalLine)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r, _ := h.Handler.Handle(ctx, c); r != nil {
			b.Fatal(r)
		}
	}
}

// BenchmarkDangerousCommandsDeny measures a line that is denied.
func BenchmarkDangerousCommandsDeny(b *testing.B) {
	h := benchHook(b, "dangerous-commands")
	c := &engine.Call{Event: "PreToolUse", Payload: bash(`git status && sudo rm -rf ~/`)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r, _ := h.Handler.Handle(ctx, c); r == nil {
			b.Fatal("not denied")
		}
	}
}

// BenchmarkGuardsFire fires PreToolUse through an engine with the three
// PreToolUse guards registered.
func BenchmarkGuardsFire(b *testing.B) {
	eng, err := engine.New()
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close(context.Background())
	for _, name := range []string{"dangerous-commands", "secret-files", "read-only-approver"} {
		if err := eng.Register(benchHook(b, name)); err != nil {
			b.Fatal(err)
		}
	}
	ev := engine.Event{Name: "PreToolUse", Payload: bash(typicalLine)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := eng.Fire(ctx, ev); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSecretFilesBash(b *testing.B) {
	h := benchHook(b, "secret-files")
	c := &engine.Call{Event: "PreToolUse", Payload: bash(typicalLine)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r, _ := h.Handler.Handle(ctx, c); r != nil {
			b.Fatal(r)
		}
	}
}

// TestSecretFilesBashAllocatesNothing holds BenchmarkSecretFilesBash's
// target: a typical Bash line is judged without an allocation (the
// directories a call runs in are no slice when there is one).
func TestSecretFilesBashAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	h := newHook(t, "secret-files", builtin.Config{})
	c := &engine.Call{Event: "PreToolUse", Payload: bash(typicalLine)}
	ctx := context.Background()
	h.Handler.Handle(ctx, c) // caches warmed
	if n := testing.AllocsPerRun(200, func() { h.Handler.Handle(ctx, c) }); n > 0 {
		t.Fatalf("%.1f allocations a call", n)
	}
}

// manyUnknownLine is a 4 KB line of 80 variables given more values than
// the guards try, 65 cd and a thousand commands: the checks for such
// variables once cost 20 s a guard on it (a regular expression compiled
// per variable, command and cd).
func manyUnknownLine() string {
	var b strings.Builder
	b.WriteString("echo $v0;")
	for i := range 80 {
		fmt.Fprintf(&b, "v%d=(1 2 3 4 5 6 7 8 9);", i)
	}
	for i := range 65 {
		fmt.Fprintf(&b, "cd d%d;", i)
	}
	b.WriteString(strings.Repeat(":;", 1000))
	return b.String()
}

// BenchmarkManyUnknownVariables runs each guard on manyUnknownLine.
func BenchmarkManyUnknownVariables(b *testing.B) {
	line := manyUnknownLine()
	for _, name := range []string{"dangerous-commands", "secret-files", "read-only-approver"} {
		b.Run(name, func(b *testing.B) {
			h := benchHook(b, name)
			c := &engine.Call{Event: "PreToolUse", Payload: bash(line)}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				_, _ = h.Handler.Handle(ctx, c)
			}
		})
	}
}
