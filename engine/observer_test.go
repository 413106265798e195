package engine_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// recorder is an Observer that records what it is told and puts a value
// in the fire's context.
type recorder struct {
	mu     sync.Mutex
	starts []engine.FireInfo
	hooks  []observed
	ends   []engine.Outcome
	errs   []error
}

type observed struct {
	fire engine.FireInfo
	tr   engine.HookTrace
	// mark is the value FireStarted put in the context, as HookDone saw
	// it.
	mark any
}

type markKey struct{}

func (r *recorder) FireStarted(ctx context.Context, f engine.FireInfo) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.starts = append(r.starts, f)
	return context.WithValue(ctx, markKey{}, f.ID)
}

func (r *recorder) HookDone(ctx context.Context, f engine.FireInfo, tr *engine.HookTrace) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hooks = append(r.hooks, observed{fire: f, tr: *tr, mark: ctx.Value(markKey{})})
}

func (r *recorder) FireEnded(ctx context.Context, f engine.FireInfo, out *engine.Outcome, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ctx.Value(markKey{}) != f.ID {
		panic("FireEnded without the context FireStarted returned")
	}
	r.ends = append(r.ends, *out)
	r.errs = append(r.errs, err)
}

func (r *recorder) hook(t *testing.T, id string) observed {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, h := range r.hooks {
		if h.tr.ID == id {
			return h
		}
	}
	t.Fatalf("hook %s not reported; got %v", id, r.hookIDs())
	return observed{}
}

func (r *recorder) hookIDs() []string {
	var ids []string
	for _, h := range r.hooks {
		ids = append(ids, h.tr.ID)
	}
	slices.Sort(ids)
	return ids
}

// TestObserverSeesEveryHookThatRan: FireStarted's context reaches the
// hooks (chain, declarative, pooled void, background) and HookDone, each
// hook that ran or failed is reported once with its final trace, skipped
// hooks are not, and a background hook is reported after Fire returned,
// with the fire's context values.
func TestObserverSeesEveryHookThatRan(t *testing.T) {
	rec := &recorder{}
	e := newEngine(t, engine.WithObserver(rec))
	bgRelease := make(chan struct{})
	var sawMark sync.Map
	mark := func(id string) engine.Handler {
		return fn(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
			sawMark.Store(id, ctx.Value(markKey{}))
			if id == "fails" {
				return nil, errors.New("boom")
			}
			return nil, nil
		})
	}
	register(t, e,
		engine.Hook{ID: "deny", Event: "PreToolUse", Matcher: "Bash", Priority: 10, Handler: engine.Static(engine.Deny("no"))},
		engine.Hook{ID: "fails", Event: "PreToolUse", Priority: 20, Handler: mark("fails")},
		engine.Hook{ID: "skipped", Event: "PreToolUse", Matcher: "Write", Handler: mark("skipped")},
		engine.Hook{ID: "audit", Event: "PreToolUse", Observe: true, Handler: mark("audit")},
		engine.Hook{ID: "later", Event: "PreToolUse", Background: true, Handler: fn(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
			<-bgRelease
			sawMark.Store("later", ctx.Value(markKey{}))
			return engine.Context("done"), nil
		})},
	)
	out, err := e.Fire(context.Background(), engine.Event{Name: "before_tool_call", Payload: bash("ls")})
	if err != nil || out.Decision != engine.DecisionDeny {
		t.Fatalf("fire: %v %+v", err, out)
	}
	rec.mu.Lock()
	if len(rec.starts) != 1 || rec.starts[0].Event != "PreToolUse" || rec.starts[0].Payload["tool_name"] != "Bash" {
		t.Fatalf("starts: %+v", rec.starts)
	}
	id := rec.starts[0].ID
	if len(rec.ends) != 1 || rec.ends[0].Decision != engine.DecisionDeny || rec.errs[0] != nil {
		t.Fatalf("ends: %+v %v", rec.ends, rec.errs)
	}
	if got := rec.hookIDs(); !slices.Equal(got, []string{"audit", "deny", "fails"}) {
		t.Fatalf("hooks reported before the background one ran: %v", got)
	}
	rec.mu.Unlock()

	close(bgRelease)
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := rec.hookIDs(); !slices.Equal(got, []string{"audit", "deny", "fails", "later"}) {
		t.Fatalf("hooks reported: %v", got)
	}
	for _, h := range []string{"audit", "deny", "fails", "later"} {
		o := rec.hook(t, h)
		if o.fire.ID != id || o.fire.Event != "PreToolUse" || o.mark != id {
			t.Errorf("%s: fire %+v, mark %v; want fire %d", h, o.fire, o.mark, id)
		}
	}
	for _, h := range []string{"audit", "fails", "later"} {
		if v, _ := sawMark.Load(h); v != id {
			t.Errorf("hook %s ran with context mark %v, want %d", h, v, id)
		}
	}
	if o := rec.hook(t, "deny"); o.tr.Status != engine.StatusDecided || o.tr.Decision != engine.DecisionDeny || o.tr.Handler != "declarative" {
		t.Errorf("deny: %+v", o.tr)
	}
	if o := rec.hook(t, "fails"); o.tr.Status != engine.StatusError || o.tr.Error == "" || o.tr.Phase != engine.PhaseChain {
		t.Errorf("fails: %+v", o.tr)
	}
	if o := rec.hook(t, "audit"); o.tr.Phase != engine.PhaseObserve || o.tr.Status != engine.StatusRan {
		t.Errorf("audit: %+v", o.tr)
	}
	if o := rec.hook(t, "later"); o.tr.Phase != engine.PhaseBackground || o.tr.Status != engine.StatusDecided || o.tr.Handler != "go" {
		t.Errorf("later: %+v", o.tr)
	}
	if _, ok := sawMark.Load("skipped"); ok {
		t.Error("the skipped hook ran")
	}
}

// TestObserverVoidHooksOnThePool: void hooks that run on the worker pool
// are reported from there, with the fire's context.
func TestObserverVoidHooksOnThePool(t *testing.T) {
	rec := &recorder{}
	e := newEngine(t, engine.WithObserver(rec), engine.WithMaxConcurrency(4))
	for _, id := range []string{"a", "b", "c"} {
		register(t, e, engine.Hook{ID: id, Event: "Notification", Handler: fn(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
			time.Sleep(time.Millisecond)
			return nil, nil
		})})
	}
	register(t, e, engine.Hook{ID: "timeout", Event: "Notification", Timeout: 5 * time.Millisecond, Handler: fn(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})})
	fire(t, e, "Notification", map[string]any{"message": "hi"})
	rec.mu.Lock()
	id := rec.starts[0].ID
	rec.mu.Unlock()
	if got := rec.hookIDs(); !slices.Equal(got, []string{"a", "b", "c", "timeout"}) {
		t.Fatalf("hooks reported: %v", got)
	}
	for _, h := range []string{"a", "b", "c", "timeout"} {
		o := rec.hook(t, h)
		if o.mark != id || o.tr.Phase != engine.PhaseVoid || o.tr.Duration <= 0 {
			t.Errorf("%s: %+v mark %v", h, o.tr, o.mark)
		}
	}
	if o := rec.hook(t, "timeout"); o.tr.Status != engine.StatusTimeout {
		t.Errorf("timeout: %+v", o.tr)
	}
}

// TestObserverNotCalledWithoutHooks: the fast path of an event without
// hooks stays unobserved, and an observer changes no outcome.
func TestObserverNotCalledWithoutHooks(t *testing.T) {
	rec := &recorder{}
	e := newEngine(t, engine.WithObserver(rec, nil))
	register(t, e, static("deny", "PreToolUse", engine.Deny("no")))
	fire(t, e, "Notification", nil)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.starts)+len(rec.ends)+len(rec.hooks) != 0 {
		t.Fatalf("observed a fire without hooks: %+v", rec)
	}
}

// TestObserverFireError: a fire whose context ends is reported with its
// error.
func TestObserverFireError(t *testing.T) {
	rec := &recorder{}
	e := newEngine(t, engine.WithObserver(rec))
	ctx, cancel := context.WithCancel(context.Background())
	register(t, e, engine.Hook{ID: "cancels", Event: "PreToolUse", Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
		cancel()
		return nil, nil
	})})
	_, err := e.Fire(ctx, engine.Event{Name: "PreToolUse", Payload: bash("ls")})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("fire: %v", err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.errs) != 1 || !errors.Is(rec.errs[0], context.Canceled) {
		t.Fatalf("FireEnded errors: %v", rec.errs)
	}
}

// TestObserversInOrder: several observers are called in order, each
// FireStarted with the context the one before returned.
func TestObserversInOrder(t *testing.T) {
	var order []string
	a, b := &chainObserver{name: "a", order: &order}, &chainObserver{name: "b", order: &order}
	e := newEngine(t, engine.WithObserver(a), engine.WithObserver(b))
	register(t, e, static("deny", "PreToolUse", engine.Deny("no")))
	fire(t, e, "PreToolUse", bash("ls"))
	want := []string{"a start", "b start <a>", "a hook <a><b>", "b hook <a><b>", "a end", "b end"}
	if !slices.Equal(order, want) {
		t.Fatalf("got %q, want %q", order, want)
	}
}

type chainObserver struct {
	name  string
	order *[]string
}

type chainKey struct{}

func (c *chainObserver) FireStarted(ctx context.Context, f engine.FireInfo) context.Context {
	prev, _ := ctx.Value(chainKey{}).(string)
	s := c.name + " start"
	if prev != "" {
		s += " " + prev
	}
	*c.order = append(*c.order, s)
	return context.WithValue(ctx, chainKey{}, prev+"<"+c.name+">")
}

func (c *chainObserver) HookDone(ctx context.Context, f engine.FireInfo, tr *engine.HookTrace) {
	*c.order = append(*c.order, c.name+" hook "+ctx.Value(chainKey{}).(string))
}

func (c *chainObserver) FireEnded(ctx context.Context, f engine.FireInfo, out *engine.Outcome, err error) {
	*c.order = append(*c.order, c.name+" end")
}
