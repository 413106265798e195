package engine

import (
	"context"
	"log/slog"
	"maps"
	"sync"
	"time"

	"github.com/hookctl/hookctl/conditions"
)

// Result is what one hook returns: result fields in hookctl's snake_case
// vocabulary (decision, reason, updated_input, updated_output,
// additional_context, system_message, continue, stop_reason, plus the
// event's own fields from the catalog). A nil or empty Result means "no
// opinion". The engine never modifies a Result, and a handler must not
// modify one after returning it, so a handler may return the same Result
// every time.
type Result map[string]any

// Allow returns a result allowing the action.
func Allow(reason string) Result { return decision("allow", reason) }

// Deny returns a result denying the action.
func Deny(reason string) Result { return decision("deny", reason) }

// Ask returns a result asking the user.
func Ask(reason string) Result { return decision("ask", reason) }

// Defer returns a result deferring the decision (Claude Code -p mode).
func Defer(reason string) Result { return decision("defer", reason) }

// Block returns a result blocking the action (on Stop: keep working).
func Block(reason string) Result { return decision("block", reason) }

// Context returns a result adding context for the model.
func Context(text string) Result { return Result{"additional_context": text} }

func decision(d, reason string) Result {
	r := Result{fieldDecision: d}
	if reason != "" {
		r[fieldReason] = reason
	}
	return r
}

// Call is what a handler receives besides its context. It is valid only
// during the Handle call; handlers must not keep it.
type Call struct {
	// Event is the canonical name of the event being fired.
	Event string
	// Fire identifies the fire, unique within the engine: hooks of one
	// fire see the same number.
	Fire uint64
	// Hook is the id of the hook being run.
	Hook string
	// Payload is the event payload as changed by the hooks before this one.
	// It is shared: handlers must treat it as read-only.
	Payload map[string]any
	// State is the state object shared along the chain of this fire.
	State *State
	// Outcome is the final outcome, for observe hooks only (nil otherwise).
	Outcome *Outcome
	// Timeout is the hook's time budget. The context passed to Handle
	// carries it as a deadline, except for handlers that enforce it
	// themselves (see SelfTimed).
	Timeout time.Duration
	// Deadline is when the budget ends (the start of the call plus
	// Timeout).
	Deadline time.Time
	// Logger is the engine's logger.
	Logger *slog.Logger

	// base is when the fire began running hooks: the engine times a hook
	// as base plus the monotonic time since, one clock read instead of the
	// two of time.Now.
	base time.Time
	// untimed says the hook's trace is kept only if it says something (a
	// quiet fire with no observer): a hook that ends cleanly is not timed
	// (a clock read), and started is kept for the rare trace kept later
	// for its merge note.
	untimed bool
	// constant is what the handler said of its result (Constant).
	constant *PreparedResult
	started  time.Time
}

// now is the current time, read from base when the fire set one.
func (c *Call) now() time.Time {
	if c.base.IsZero() {
		return time.Now()
	}
	return c.base.Add(time.Since(c.base))
}

// Handler runs one hook. Implementations must be safe for concurrent use:
// void hooks of one event, and fires from many goroutines, call Handle at
// the same time. Handle must return when ctx is done.
//
// A handler may implement optional interfaces the engine discovers by type
// assertion: Kinded (a name for traces), Inliner (cheap enough to run on the
// caller's goroutine instead of the worker pool) and SelfTimed (enforces
// Call.Timeout itself, so the engine need not derive a context per call).
type Handler interface {
	Handle(ctx context.Context, call *Call) (Result, error)
}

// HandlerFunc adapts a Go function to Handler. It runs on the worker pool
// when used as a void hook; wrap it with Inline when it is cheap.
type HandlerFunc func(ctx context.Context, call *Call) (Result, error)

// Handle calls f.
func (f HandlerFunc) Handle(ctx context.Context, call *Call) (Result, error) { return f(ctx, call) }

// Kind implements Kinded.
func (HandlerFunc) Kind() string { return "go" }

// Kinded is implemented by handlers that name their kind ("go",
// "declarative", "js", "command", ...) in traces.
type Kinded interface{ Kind() string }

// Inliner is implemented by handlers whose calls are cheap and CPU-bound:
// void hooks with such handlers run on the firing goroutine rather than
// paying for a hand-off to the worker pool.
type Inliner interface{ Inline() bool }

// SelfTimed is implemented by handlers that enforce Call.Timeout themselves
// (a script interrupt, or nothing to wait for); the engine then passes the
// caller's context unchanged instead of deriving one per call.
type SelfTimed interface{ SelfTimed() bool }

// Entrant is implemented by handlers whose calls cost less when the calls
// of one fire share a setup, as script hooks share one entry into a
// runtime. When a fire runs two or more hooks of one EntryKey and every
// hook it runs synchronously is inline (nothing that waits on a process or
// the network holds the setup), the engine runs the chain, from the first
// of those hooks whose matcher and condition hold, and the inline void or
// observe hooks inside Enter, passing run a context that carries
// the setup; fire is the fire's Call.Fire, so that a handler uses the
// setup only for calls of that fire (a nested fire, or a background hook
// that kept the context, gets its own). Enter must call run at most once,
// on its own goroutine and before it returns, never later; a handler that finds no setup in its context, or
// cannot use it, works as it would without one.
//
// EntryKey names the setup (hooks with equal keys share one); a nil key
// says this hook's calls cannot use a setup, and its event's fires then
// enter none, since the hook would wait for what the fire holds.
type Entrant interface {
	EntryKey() any
	Enter(ctx context.Context, fire uint64, run func(context.Context))
}

// Inline marks a Go handler as cheap so that void hooks run it inline.
func Inline(h Handler) Handler { return inlineHandler{h} }

type inlineHandler struct{ Handler }

func (inlineHandler) Inline() bool { return true }

func (h inlineHandler) Kind() string { return handlerKind(h.Handler) }

// Static returns a declarative handler: it returns r every time. It is the
// fastest kind of hook: no code runs.
func Static(r Result) Handler { return staticHandler{r: maps.Clone(r)} }

type staticHandler struct{ r Result }

func (s staticHandler) Handle(context.Context, *Call) (Result, error) { return s.r, nil }
func (staticHandler) Kind() string                                    { return "declarative" }
func (staticHandler) Inline() bool                                    { return true }
func (staticHandler) SelfTimed() bool                                 { return true }

// StaticResult returns the result of a Static handler, and false for any
// other handler.
func StaticResult(h Handler) (Result, bool) {
	s, ok := h.(staticHandler)
	return s.r, ok
}

func handlerKind(h Handler) string {
	if k, ok := h.(Kinded); ok {
		return k.Kind()
	}
	return "go"
}

// ErrorPolicy says what a hook's failure (error, panic, timeout) does.
type ErrorPolicy uint8

const (
	// ErrorDefault follows the event's FailClosed flag.
	ErrorDefault ErrorPolicy = iota
	// ErrorIgnore fails open: the failure is recorded and the chain goes on.
	ErrorIgnore
	// ErrorBlock fails closed: the failure counts as the event's blocking
	// decision (deny or block) with a reason naming the hook.
	ErrorBlock
	// ErrorRetry retries the hook (OnError.Attempts, OnError.Backoff
	// doubling each time), then follows the event's FailClosed flag.
	ErrorRetry
)

var errorPolicyNames = [...]string{ErrorDefault: "", ErrorIgnore: "ignore", ErrorBlock: "block", ErrorRetry: "retry"}

// String returns the policy's HCL name ("" for the default).
func (p ErrorPolicy) String() string {
	if int(p) < len(errorPolicyNames) {
		return errorPolicyNames[p]
	}
	return "unknown"
}

// ParseErrorPolicy turns "ignore", "block", "retry" or "" into a policy.
func ParseErrorPolicy(s string) (ErrorPolicy, bool) {
	for i, n := range errorPolicyNames {
		if n == s {
			return ErrorPolicy(i), true
		}
	}
	return 0, false
}

// OnError is a hook's failure policy.
type OnError struct {
	Policy ErrorPolicy
	// Attempts is the total number of tries for ErrorRetry (at least 1).
	Attempts int
	// Backoff is the pause before the second try; it doubles after that.
	Backoff time.Duration
}

// Hook is one hook declaration. Exactly one handler; Event or Events names
// the events (canonical names or aliases).
type Hook struct {
	// ID identifies the hook; it must be unique in the engine.
	ID string
	// Event is the event the hook runs on. Events lists several; a hook may
	// set either or both.
	Event  string
	Events []string
	// Matcher filters on the event's matcher field in Claude Code syntax:
	// "" or "*" match all; a string of letters, digits, '_', ' ', '-', ','
	// and '|' is an exact name or a list of names; anything else is an
	// unanchored regular expression.
	Matcher string
	// When is an expr-lang condition over the payload and `state`. It is
	// compiled at registration. Condition, when set, is used instead.
	When      string
	Condition *conditions.Program
	// Priority orders hooks: higher first, default 0, negative allowed;
	// ties keep declaration order.
	Priority int
	// Timeout bounds one call (the engine's or event's default when 0).
	Timeout time.Duration
	// OnError is the failure policy.
	OnError OnError
	// Background hooks are queued to the worker pool; Fire does not wait
	// for them and their results do not reach the outcome.
	Background bool
	// Observe hooks on a modifying event run after the chain, see the
	// final outcome and cannot change it.
	Observe bool
	// Disabled hooks are registered but never run.
	Disabled bool
	// Source says where the hook was declared (file:line), for traces.
	Source string
	// Layer names the configuration layer the hook comes from ("managed",
	// "user", "project"; "" for a single configuration), for listings
	// and traces.
	Layer string
	// Rank orders hooks before Priority: a lower Rank runs earlier in a
	// chain, whatever the priorities. A layered configuration gives its
	// managed hooks the highest, so that they run last and see the input
	// every other hook left (a lower layer cannot reorder them).
	Rank int
	// Handler runs the hook.
	Handler Handler
}

// events returns the hook's event names in declaration order, without
// duplicates.
func (h *Hook) events() []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	add(h.Event)
	for _, e := range h.Events {
		add(e)
	}
	return out
}

// State is the state object shared by the hooks of one fire (ctx.state in
// JavaScript, `state` in conditions). It is safe for concurrent use.
type State struct {
	mu sync.RWMutex
	m  map[string]any
}

// NewState returns a State holding a copy of init.
func NewState(init map[string]any) *State {
	return &State{m: maps.Clone(init)}
}

// Get returns the value stored under key.
func (s *State) Get(key string) (any, bool) {
	s.mu.RLock()
	v, ok := s.m[key]
	s.mu.RUnlock()
	return v, ok
}

// Set stores value under key.
func (s *State) Set(key string, value any) {
	s.mu.Lock()
	if s.m == nil {
		s.m = make(map[string]any)
	}
	s.m[key] = value
	s.mu.Unlock()
}

// Delete removes key.
func (s *State) Delete(key string) {
	s.mu.Lock()
	delete(s.m, key)
	s.mu.Unlock()
}

// Keys returns the keys in no particular order.
func (s *State) Keys() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	keys := make([]string, 0, len(s.m))
	for k := range s.m {
		keys = append(keys, k)
	}
	return keys
}

// Len returns the number of keys.
func (s *State) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.m)
}

// Snapshot returns a shallow copy of the state (nil when empty).
func (s *State) Snapshot() map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.m) == 0 {
		return nil
	}
	return maps.Clone(s.m)
}

func (s *State) reset() {
	s.mu.Lock()
	clear(s.m)
	s.mu.Unlock()
}

// PreparedResult is a result a handler returns again and again, the same
// map every time (a script's constant return, `return {decision: "deny",
// reason: "..."}`), read once by PrepareResult: the engine merges it as
// read then, where it reads every other result on every call. The map
// must never change after it is prepared.
type PreparedResult struct {
	res  Result
	n    int
	p    prepared
	info resultFields
}

// PrepareResult reads r once for the calls that return it (Call.Constant).
func PrepareResult(r Result) *PreparedResult {
	pr := &PreparedResult{res: r, n: len(r)}
	pr.p.loadSeeing(r, &pr.info)
	return pr
}

// Result is the prepared map, which the handler returns.
func (pr *PreparedResult) Result() Result { return pr.res }

// Constant tells the engine that the result this call's handler returns
// is pr's map: the engine then merges it as PrepareResult read it. A
// result that is not that very map, or that no longer has as many fields,
// is read as any other; a hook run through middleware is always read.
func (c *Call) Constant(pr *PreparedResult) { c.constant = pr }

// constantOf returns the prepared reading of res when the call's handler
// said res is a constant it prepared.
func (c *Call) constantOf(res Result) *PreparedResult {
	pr := c.constant
	if pr == nil || len(res) != pr.n || len(res) == 0 || mapID(map[string]any(res)) != mapID(map[string]any(pr.res)) {
		return nil
	}
	return pr
}
