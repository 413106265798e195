package engine

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/hookctl/hookctl/internal/keypart"
)

// LoopStore keeps the Stop loop guard's count of consecutive blocks per
// session. Implementations must be safe for concurrent use. The default is
// in memory; `hookctl claude` uses a file-backed store so the count
// survives across processes.
type LoopStore interface {
	LoopCount(ctx context.Context, key string) (int, error)
	SetLoopCount(ctx context.Context, key string, n int) error
}

// LoopSwapper is implemented by loop stores that can change a count only
// if it still holds what the guard read, as a store shared by several
// engines (replicas behind a load balancer) must: two Stop fires of one
// session counted at once on two replicas then count two blocks, not one.
// SwapLoopCount sets key's count to new if it is old (0 = no count) and
// reports whether it did. Without it the guard reads, then writes.
type LoopSwapper interface {
	SwapLoopCount(ctx context.Context, key string, old, new int) (bool, error)
}

// maxLoopSwaps bounds the guard's attempts to count against other
// engines counting the same streak at the same moment; between attempts
// it waits a random pause that grows with them (loopSwapPause each).
const (
	maxLoopSwaps  = 32
	loopSwapPause = 100 * time.Microsecond
)

// NewMemoryLoopStore returns an in-memory LoopStore. It keeps only sessions
// whose count is not zero, and at most MaxLoopSessions of them: past that,
// the tenth least recently blocked are forgotten (their streak starts
// over), so a long-running server that sees many sessions stays bounded.
func NewMemoryLoopStore() LoopStore { return &memLoopStore{m: map[string]loopEntry{}} }

// MaxLoopSessions bounds the sessions an in-memory LoopStore remembers.
const MaxLoopSessions = 10000

type memLoopStore struct {
	mu  sync.Mutex
	m   map[string]loopEntry
	seq uint64
}

type loopEntry struct {
	n   int
	seq uint64 // when it was last set
}

func (s *memLoopStore) LoopCount(_ context.Context, key string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[key].n, nil
}

func (s *memLoopStore) SwapLoopCount(_ context.Context, key string, old, new int) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m[key].n != old {
		return false, nil
	}
	s.set(key, new)
	return true, nil
}

func (s *memLoopStore) SetLoopCount(_ context.Context, key string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.set(key, n)
	return nil
}

// set sets key's count; s.mu is held.
func (s *memLoopStore) set(key string, n int) {
	if n == 0 {
		delete(s.m, key)
		return
	}
	s.seq++
	s.m[key] = loopEntry{n: n, seq: s.seq}
	if len(s.m) > MaxLoopSessions {
		// Forget the oldest tenth in one pass, so eviction costs O(1)
		// per insertion on average.
		seqs := make([]uint64, 0, len(s.m))
		for _, e := range s.m {
			seqs = append(seqs, e.seq)
		}
		slices.Sort(seqs)
		cut := seqs[len(seqs)/10]
		for k, e := range s.m {
			if e.seq < cut {
				delete(s.m, k)
			}
		}
	}
}

type guardState struct {
	key   string
	count int
	err   error // reading the count failed
}

// loopKey identifies a block streak: per event and session, and per
// subagent for SubagentStop: "Event/session[/agent]", each part escaped
// (keypart.Escape) so that no two streaks share a key.
func loopKey(spec *EventSpec, payload map[string]any) string {
	sid, _ := payload["session_id"].(string)
	// Each part escaped: session "a/b" is not session "a" of agent "b".
	// No session_id and "" are the same: no session (keypart.None,
	// which session "none" does not share).
	key := keypart.Escape(spec.Name) + "/" + keypart.ID(sid)
	if aid, ok := payload["agent_id"].(string); ok && aid != "" {
		key += "/" + keypart.Escape(aid)
	}
	return key
}

// guardBudget bounds the loop guard's store operations before, and
// again after, the hooks of one fire: the budget a hook of the event
// gets (the default timeout, else the event's, else a minute), so that a
// store that stalls cannot hold a fire longer than its hooks could.
func guardBudget(s *snapshot, spec *EventSpec) time.Duration {
	if d := s.settings.defaultTimeout; d > 0 {
		return d
	}
	if d := spec.DefaultTimeout; d > 0 {
		return d
	}
	return fallbackTimeout
}

// guardBefore tells the hooks about the streak: stop_hook_active is true
// while the agent is continuing because of a Stop hook, and loop_count is
// the number of consecutive blocks so far.
func (e *Engine) guardBefore(ctx context.Context, spec *EventSpec, payload map[string]any) (map[string]any, *guardState) {
	g := &guardState{key: loopKey(spec, payload)}
	n, err := e.loops.LoopCount(ctx, g.key)
	if err != nil {
		e.log.Warn("stop guard: cannot read the loop count; a block stands and is not counted", "key", g.key, "error", err)
		n, g.err = 0, err
	}
	g.count = n
	p := maps.Clone(payload)
	active, _ := payload["stop_hook_active"].(bool)
	p["stop_hook_active"] = active || n > 0
	p["loop_count"] = n
	return p, g
}

// guardAfter counts a block, or lets the agent stop once the streak
// reached the cap, and resets the count when the agent is let stop.
//
// A guard whose store fails cannot decide, and never lets the agent stop
// on its own account: when the count cannot be read, the hooks' decision
// stands as it is (a block keeps the agent working) and the count is left
// as it was, since writing 1 over a streak it could not read would reset
// it; when it cannot be written, the block stands uncounted. Either way
// the outcome's StopGuard.Error says so, and the engine's log warns.
func (e *Engine) guardAfter(ctx context.Context, g *guardState, limit int, out *Outcome) {
	out.StopGuard = &StopGuard{LoopCount: g.count, Cap: limit}
	if g.err != nil {
		out.StopGuard.Error = "reading the loop count: " + g.err.Error()
		return
	}
	blocked := out.Decision == "block" && out.Continue
	// next is the count after this fire, given the count before it.
	next := func(count int) (int, bool) {
		if !blocked {
			return 0, false
		}
		if count+1 > limit {
			return 0, true
		}
		return count + 1, false
	}
	release, failed := e.countLoop(ctx, g, out.StopGuard, next)
	if failed != "" {
		out.StopGuard.Error = failed
		return
	}
	if release {
		msg := fmt.Sprintf("stop hook block cap reached (%d consecutive blocks): letting the agent stop", limit)
		out.StopGuard.Released = true
		out.Decision = ""
		out.Reason = msg
		out.Blocked = false
		o := maps.Clone(out.Output)
		delete(o, fieldDecision)
		o[fieldReason] = msg
		out.Output = o
	}
}

// countLoop stores the count after this fire (next of the count before
// it) and reports whether the streak reached the cap, or why it could
// not count (then the caller lets the hooks' decision stand). On a
// LoopSwapper it counts only against the count read: another engine
// sharing the store may have counted this streak since, and then it reads
// it again (sg.LoopCount follows).
func (e *Engine) countLoop(ctx context.Context, g *guardState, sg *StopGuard, next func(int) (int, bool)) (release bool, failed string) {
	count := g.count
	n, release := next(count)
	if n == count {
		return release, ""
	}
	sw, ok := e.loops.(LoopSwapper)
	if !ok {
		if err := e.loops.SetLoopCount(ctx, g.key, n); err != nil {
			return false, e.loopWriteFailed(g, n, err)
		}
		return release, ""
	}
	for attempt := 1; ; attempt++ {
		swapped, err := sw.SwapLoopCount(ctx, g.key, count, n)
		switch {
		case err != nil:
			return false, e.loopWriteFailed(g, n, err)
		case swapped:
			return release, ""
		case attempt == maxLoopSwaps:
			e.log.Warn("stop guard: the loop count kept changing; a block stands and is not counted", "key", g.key)
			return false, fmt.Sprintf("writing the loop count: it changed under %d attempts", maxLoopSwaps)
		}
		if !sleepCtx(ctx, rand.N(time.Duration(attempt)*loopSwapPause)) {
			return false, "writing the loop count: " + ctx.Err().Error()
		}
		if count, err = e.loops.LoopCount(ctx, g.key); err != nil {
			e.log.Warn("stop guard: cannot read the loop count; a block stands and is not counted", "key", g.key, "error", err)
			return false, "reading the loop count: " + err.Error()
		}
		sg.LoopCount = count
		if n, release = next(count); n == count {
			return release, ""
		}
	}
}

// loopWriteFailed logs that the count n could not be written and returns
// what the outcome's StopGuard.Error says.
func (e *Engine) loopWriteFailed(g *guardState, n int, err error) string {
	e.log.Warn("stop guard: cannot write the loop count", "key", g.key, "count", n, "error", err)
	return fmt.Sprintf("writing the loop count %d: %v", n, err)
}
