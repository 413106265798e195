package hooktest

import (
	"context"
	"sync"

	"github.com/hookctl/hookctl/engine"
)

// A test waits for the background hooks its fire queued and judges their
// final traces: the outcome only says "queued" (a background hook cannot
// decide), but a background hook that fails still fails the test unless
// the test expects that failure.

// bgKey is the context key of a test's background collector.
type bgKey struct{}

// bgCollector gathers the final traces of the background hooks run for
// one test's fire. Background hooks keep the values of the fire's
// context, so the collector the test put there reaches them.
type bgCollector struct {
	mu     sync.Mutex
	traces map[string]engine.HookTrace
	notify chan struct{} // one token: something was added
}

func newBGCollector() *bgCollector {
	return &bgCollector{traces: map[string]engine.HookTrace{}, notify: make(chan struct{}, 1)}
}

func (c *bgCollector) add(tr engine.HookTrace) {
	c.mu.Lock()
	if _, seen := c.traces[tr.ID]; !seen { // a nested fire of the same hook: the first
		c.traces[tr.ID] = tr
	}
	c.mu.Unlock()
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

// wait returns the final traces of the hooks out says were queued, in
// out's order, once all of them finished, or what it has when ctx ends.
func (c *bgCollector) wait(ctx context.Context, out *engine.Outcome) []engine.HookTrace {
	var ids []string
	for _, tr := range out.Hooks {
		if tr.Phase == engine.PhaseBackground && tr.Status == engine.StatusQueued {
			ids = append(ids, tr.ID)
		}
	}
	for {
		c.mu.Lock()
		done := make([]engine.HookTrace, 0, len(ids))
		for _, id := range ids {
			if tr, ok := c.traces[id]; ok {
				done = append(done, tr)
			}
		}
		c.mu.Unlock()
		if len(done) == len(ids) {
			return done
		}
		select {
		case <-c.notify:
		case <-ctx.Done():
			return done
		}
	}
}

// bgObserver hands the final trace of each background hook that ran to
// the collector in its context.
type bgObserver struct{}

func (bgObserver) FireStarted(ctx context.Context, _ engine.FireInfo) context.Context { return ctx }

func (bgObserver) HookDone(ctx context.Context, _ engine.FireInfo, tr *engine.HookTrace) {
	if tr.Phase != engine.PhaseBackground || tr.Status == engine.StatusQueued {
		return
	}
	if c, ok := ctx.Value(bgKey{}).(*bgCollector); ok {
		c.add(*tr)
	}
}

func (bgObserver) FireEnded(context.Context, engine.FireInfo, *engine.Outcome, error) {}
