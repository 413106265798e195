package builtin

import (
	"context"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/state/kv"
)

func promptLengthSpec() Spec {
	return Spec{
		Name:        "prompt-length",
		Description: "Blocks prompts longer than max_chars characters (counted as Unicode code points).",
		Events:      []string{"UserPromptSubmit"},
		Priority:    500,
		Options: []OptionSpec{
			{Name: "max_chars", Type: TypeNumber, Doc: "the longest prompt allowed, in characters", Default: 100000},
		},
	}
}

func buildPromptLength(b *build) ([]engine.Hook, error) {
	limit, err := b.positiveInt("max_chars")
	if err != nil {
		return nil, err
	}
	h := b.hook(engine.Hook{
		Event: "UserPromptSubmit",
		Handler: cheap(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			p := str(c.Payload, "prompt")
			if len(p) <= limit {
				return nil, nil // fewer bytes than the limit: fewer runes too
			}
			if n := utf8.RuneCountInString(p); n > limit {
				return engine.Block(fmt.Sprintf("the prompt is %d characters long; the limit is %d (prompt-length)", n, limit)), nil
			}
			return nil, nil
		}),
	})
	return []engine.Hook{h}, nil
}

func compactionSpec() Spec {
	return Spec{
		Name: "compaction-guard",
		Description: "Blocks a compaction of a listed trigger when the same session compacted less than min_interval ago; " +
			"every compaction that goes ahead records its time (per session, in the kv store, expiring after min_interval).",
		Events:   []string{"PreCompact"},
		Priority: 500,
		Options: []OptionSpec{
			{Name: "min_interval", Type: TypeDuration, Doc: "the shortest time allowed between two compactions of a session", Default: "5m"},
			{Name: "triggers", Type: TypeList, Doc: `compaction triggers that may be blocked: "auto", "manual"`, Default: []string{"auto"}},
		},
	}
}

// compactionKey is the key of a session's last compaction time (Unix
// milliseconds) in its scope of the store.
const compactionKey = "builtin/compaction-guard/last"

func buildCompaction(b *build) ([]engine.Hook, error) {
	interval := b.opts.duration("min_interval")
	if interval <= 0 {
		return nil, b.optErr("min_interval", "must be positive, got %v", interval)
	}
	triggers := b.opts.list("triggers")
	store := b.cfg.Store
	if store == nil {
		store = kv.NewMemory(kv.WithClock(b.now))
	}
	now := b.now
	h := b.hook(engine.Hook{
		Event: "PreCompact",
		Handler: slow(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
			sid := str(c.Payload, "session_id")
			if sid == "" {
				return nil, nil
			}
			st := kv.Scoped(store, kv.SessionScope(sid))
			t := now()
			stamp := t.UnixMilli()
			if slices.Contains(triggers, str(c.Payload, "trigger")) {
				v, ok, err := st.Get(ctx, compactionKey)
				if err != nil {
					return nil, err
				}
				if last, isNum := v.(int64); ok && isNum {
					if ago := t.Sub(time.UnixMilli(last)); ago >= 0 && ago < interval {
						return engine.Block(fmt.Sprintf("this session compacted %s ago; compactions less than %s apart are blocked (compaction-guard)",
							ago.Round(time.Second), interval)), nil
					}
				}
			}
			return nil, st.Set(ctx, compactionKey, stamp, interval)
		}),
	})
	return []engine.Hook{h}, nil
}
