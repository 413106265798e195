package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hookctl/hookctl/engine"
)

// entrant is a handler that counts the entries made for it and the calls
// that ran inside one.
type entrant struct {
	key     any
	inline  bool
	callRun bool
	enters  *int
	inside  *int
}

type entryMark struct{}

func (h entrant) Handle(ctx context.Context, c *engine.Call) (engine.Result, error) {
	if ctx.Value(entryMark{}) == c.Fire {
		*h.inside++
	}
	return nil, nil
}
func (h entrant) Inline() bool    { return h.inline }
func (h entrant) SelfTimed() bool { return true }
func (h entrant) EntryKey() any   { return h.key }
func (h entrant) Kind() string    { return "entrant" }
func (h entrant) Enter(ctx context.Context, fire uint64, run func(context.Context)) {
	*h.enters++
	if h.callRun {
		run(context.WithValue(ctx, entryMark{}, fire))
	}
}

func TestEntrant(t *testing.T) {
	k1, k2 := new(int), new(int)
	for _, tc := range []struct {
		name          string
		hooks         []entrant
		other         engine.Handler // one more chain hook, when set
		when          string         // the hooks' condition
		enters, calls int
	}{
		{name: "no hook of it runs", hooks: []entrant{{key: k1, inline: true, callRun: true}, {key: k1, inline: true, callRun: true}}, when: `tool_name == "Write"`},
		{name: "two hooks of one key", hooks: []entrant{{key: k1, inline: true, callRun: true}, {key: k1, inline: true, callRun: true}}, enters: 1, calls: 2},
		{name: "one hook", hooks: []entrant{{key: k1, inline: true, callRun: true}}},
		{name: "two keys", hooks: []entrant{{key: k1, inline: true, callRun: true}, {key: k2, inline: true, callRun: true}}},
		{name: "a hook that cannot share", hooks: []entrant{{key: k1, inline: true, callRun: true}, {key: k1, inline: true, callRun: true}, {key: nil, inline: true}}},
		{name: "a hook that waits", hooks: []entrant{{key: k1, inline: true, callRun: true}, {key: k1, inline: true, callRun: true}}, other: fn(func(context.Context, *engine.Call) (engine.Result, error) { return nil, nil })},
		{name: "declarative hooks do not wait", hooks: []entrant{{key: k1, inline: true, callRun: true}, {key: k1, inline: true, callRun: true}}, other: engine.Static(engine.Result{"additional_context": "x"}), enters: 1, calls: 2},
		{name: "an entrant that does not run", hooks: []entrant{{key: k1, inline: true}, {key: k1, inline: true}}, enters: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngine(t)
			var enters, inside int
			for i, h := range tc.hooks {
				h.enters, h.inside = &enters, &inside
				register(t, e, engine.Hook{ID: fmt.Sprintf("h%d", i), Event: "PreToolUse", Priority: -i, When: tc.when, Handler: h})
			}
			if tc.other != nil {
				register(t, e, engine.Hook{ID: "other", Event: "PreToolUse", Priority: -10, Handler: tc.other})
			}
			out := fire(t, e, "PreToolUse", bash("ls"))
			if enters != tc.enters || inside != tc.calls {
				t.Fatalf("%d entries, %d calls inside; want %d, %d", enters, inside, tc.enters, tc.calls)
			}
			// Whether or not the entrant ran the fire, every hook ran once.
			for _, h := range out.Hooks {
				if tc.when != "" && h.Status == engine.StatusSkipped {
					continue
				}
				if h.Status != engine.StatusRan && h.Status != engine.StatusDecided {
					t.Fatalf("hook %s: %s", h.ID, h.Status)
				}
			}
		})
	}
}

// TestRewritesLeaveEarlierPayloads: each hook's rewrite goes to a new
// payload; the map a hook was given is never written afterwards.
func TestRewritesLeaveEarlierPayloads(t *testing.T) {
	e := newEngine(t)
	var seen []map[string]any
	rewrite := func(suffix string) engine.Handler {
		return fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			seen = append(seen, c.Payload)
			cmd := c.Payload["tool_input"].(map[string]any)["command"].(string)
			return engine.Result{"updated_input": map[string]any{"command": cmd + suffix}}, nil
		})
	}
	register(t, e,
		engine.Hook{ID: "a", Event: "PreToolUse", Priority: 3, Handler: rewrite("a")},
		engine.Hook{ID: "b", Event: "PreToolUse", Priority: 2, Handler: rewrite("b")},
		engine.Hook{ID: "c", Event: "PreToolUse", Priority: 1, Handler: rewrite("c")},
	)
	out := fire(t, e, "PreToolUse", bash("x"))
	if got := out.UpdatedInput["command"]; got != "xabc" {
		t.Fatalf("updated command %v, want xabc", got)
	}
	for i, want := range []string{"x", "xa", "xab"} {
		if got := seen[i]["tool_input"].(map[string]any)["command"]; got != want {
			t.Fatalf("hook %d's payload now says %v, it was given %q", i, got, want)
		}
	}
}
