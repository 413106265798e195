package builtin_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/state/kv"
)

func TestPromptLength(t *testing.T) {
	h := newHook(t, "prompt-length", builtin.Config{Options: map[string]any{"max_chars": int64(10)}})
	for _, tc := range []struct {
		prompt string
		block  bool
	}{
		{"", false},
		{"short", false},
		{"exactly10!", false},
		{"eleven chars", true},
		{"ééééééééé", false},  // 9 runes, 18 bytes
		{"ééééééééééé", true}, // 11 runes
		{"日本語のテキストです。", true},
		{"日本語のテキスト", false},
	} {
		r := call(t, h, "UserPromptSubmit", map[string]any{"session_id": "s", "prompt": tc.prompt})
		d, reason := decisionOf(r)
		if (d == "block") != tc.block {
			t.Errorf("%q: decision %q, want block=%v", tc.prompt, d, tc.block)
		}
		if tc.block && !strings.Contains(reason, "limit is 10") {
			t.Errorf("%q: reason %q lacks the limit", tc.prompt, reason)
		}
	}
	_, reason := decisionOf(call(t, h, "UserPromptSubmit", map[string]any{"prompt": "ééééééééééé"}))
	if !strings.Contains(reason, "11 characters") {
		t.Errorf("reason %q must count runes (11)", reason)
	}
}

func TestPromptLengthDefault(t *testing.T) {
	h := newHook(t, "prompt-length", builtin.Config{})
	if r := call(t, h, "UserPromptSubmit", map[string]any{"prompt": strings.Repeat("a", 100000)}); r != nil {
		t.Errorf("100000 characters must pass, got %v", r)
	}
	if d, _ := decisionOf(call(t, h, "UserPromptSubmit", map[string]any{"prompt": strings.Repeat("a", 100001)})); d != "block" {
		t.Errorf("100001 characters: decision %q, want block", d)
	}
}

// fakeClock is a settable clock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestCompactionGuard(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)}
	for name, cfg := range map[string]builtin.Config{
		"default store": {Now: clock.Now},
		"given store":   {Now: clock.Now, Store: kv.NewMemory(kv.WithClock(clock.Now))},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHook(t, "compaction-guard", cfg)
			compact := func(session, trigger string) string {
				d, reason := decisionOf(call(t, h, "PreCompact", map[string]any{
					"session_id": session, "trigger": trigger, "hook_event_name": "PreCompact",
				}))
				if d == "block" && !strings.Contains(reason, "compaction-guard") {
					t.Errorf("reason %q does not name the guard", reason)
				}
				return d
			}
			steps := []struct {
				advance time.Duration
				session string
				trigger string
				want    string
			}{
				{0, "a", "auto", ""},                // first compaction of a: allowed, recorded
				{time.Minute, "a", "auto", "block"}, // 1m later: too soon
				{0, "b", "auto", ""},                // another session is independent
				{time.Minute, "a", "manual", ""},    // manual is not a listed trigger: allowed, recorded
				{4 * time.Minute, "a", "auto", "block"},
				{time.Minute, "a", "auto", ""}, // 5m after the manual one: allowed
				{0, "a", "auto", "block"},
				{5 * time.Minute, "a", "auto", ""},
				{0, "", "auto", ""}, // no session: no opinion
			}
			for i, s := range steps {
				clock.Advance(s.advance)
				if got := compact(s.session, s.trigger); got != s.want {
					t.Errorf("step %d (%s %s): decision %q, want %q", i, s.session, s.trigger, got, s.want)
				}
			}
		})
	}
}

func TestCompactionGuardOptions(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
	h := newHook(t, "compaction-guard", builtin.Config{Now: clock.Now, Options: map[string]any{
		"min_interval": "30s", "triggers": []any{"auto", "manual"},
	}})
	p := map[string]any{"session_id": "s", "trigger": "manual"}
	if d, _ := decisionOf(call(t, h, "PreCompact", p)); d != "" {
		t.Fatalf("first: %q", d)
	}
	clock.Advance(10 * time.Second)
	d, reason := decisionOf(call(t, h, "PreCompact", p))
	if d != "block" || !strings.Contains(reason, "10s ago") || !strings.Contains(reason, "30s") {
		t.Errorf("second: %q %q", d, reason)
	}
	clock.Advance(20 * time.Second)
	if d, _ := decisionOf(call(t, h, "PreCompact", p)); d != "" {
		t.Errorf("after the interval: %q", d)
	}
}
