package eino_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/cloudwego/eino/compose"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/guard"
	hookeino "github.com/hookctl/hookctl/guard/eino"
)

func TestArgumentsHandler(t *testing.T) {
	eng, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	if err := eng.Register(engine.Hook{ID: "no-rm", Event: "PreToolUse", Matcher: "Bash", When: `tool_input.command contains "rm"`,
		Handler: engine.Static(engine.Deny("no rm"))}); err != nil {
		t.Fatal(err)
	}
	h := hookeino.ArgumentsHandler(guard.New(eng))
	var d *guard.Denied
	if _, err := h(context.Background(), "bash", `{"command":"rm x"}`); !errors.As(err, &d) || d.Reason != "no rm" {
		t.Fatalf("rm: %v", err)
	}
	if out, err := h(context.Background(), "bash", `{"command":"ls"}`); err != nil || out != `{"command":"ls"}` {
		t.Fatalf("ls: %q %v", out, err)
	}
	if _, err := h(context.Background(), "bash", `not json`); err == nil {
		t.Fatal("arguments that cannot be read were let through")
	}
}

func TestCallbacksFireObserveEvents(t *testing.T) {
	eng, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	var mu sync.Mutex
	var seen []string
	for _, ev := range []string{"SessionStart", "SessionEnd"} {
		if err := eng.Register(engine.Hook{ID: "see-" + ev, Event: ev, Handler: engine.HandlerFunc(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			mu.Lock()
			seen = append(seen, c.Event+"/"+c.Payload["session_id"].(string))
			mu.Unlock()
			return nil, nil
		})}); err != nil {
			t.Fatal(err)
		}
	}
	chain := compose.NewChain[string, string]().AppendLambda(compose.InvokableLambda(func(_ context.Context, s string) (string, error) { return s, nil }))
	r, err := chain.Compile(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cb := hookeino.Callbacks(eng, func(context.Context) string { return "run-1" })
	if _, err := r.Invoke(context.Background(), "hi", compose.WithCallbacks(cb)); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 || seen[0] != "SessionStart/run-1" || seen[1] != "SessionEnd/run-1" {
		t.Fatalf("%v", seen)
	}
}
