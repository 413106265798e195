package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// LoopStore keeps the Stop loop guard's count of consecutive blocks per
// session. Implementations must be safe for concurrent use. The default is
// in memory; `hookctl claude` uses a file-backed store so the count
// survives across processes.
type LoopStore interface {
	LoopCount(ctx context.Context, key string) (int, error)
	SetLoopCount(ctx context.Context, key string, n int) error
}

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

func (s *memLoopStore) SetLoopCount(_ context.Context, key string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n == 0 {
		delete(s.m, key)
		return nil
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
	return nil
}

type guardState struct {
	key   string
	count int
	err   error // reading the count failed
}

// loopKey identifies a block streak: per event and session, and per
// subagent for SubagentStop.
func loopKey(spec *EventSpec, payload map[string]any) string {
	sid, _ := payload["session_id"].(string)
	key := spec.Name + "/" + sid
	if aid, ok := payload["agent_id"].(string); ok && aid != "" {
		key += "/" + aid
	}
	return key
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
	next := 0
	if out.Decision == "block" && out.Continue {
		next = g.count + 1
		if next > limit {
			next = 0
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
	if next == g.count {
		return
	}
	if err := e.loops.SetLoopCount(ctx, g.key, next); err != nil {
		e.log.Warn("stop guard: cannot write the loop count", "key", g.key, "count", next, "error", err)
		out.StopGuard.Error = fmt.Sprintf("writing the loop count %d: %v", next, err)
	}
}
