package engine

import "context"

// Observer watches fires from outside the engine, for tracing or metrics
// (package telemetry builds OpenTelemetry spans with one). An engine with
// no Observer pays nothing for the seam: every call site is behind one nil
// check, and the fast path of an event without hooks never reaches it.
//
// Implementations must be safe for concurrent use: fires run on many
// goroutines, and HookDone is called from the goroutine that ran the hook
// (the firing goroutine, a worker of the pool, or, for background hooks,
// a worker after Fire returned). An Observer must not modify the Outcome
// or the HookTrace it is shown, nor keep them past the call.
type Observer interface {
	// FireStarted is called when a fire of an event with hooks begins,
	// before any hook runs (fires of events without hooks return at once
	// and are not observed). The context it returns is the fire's from
	// then on: every hook of the fire runs with it or a context derived
	// from it, background hooks keep its values, and it is the context
	// of HookDone and FireEnded. Return ctx to leave it as it is.
	FireStarted(ctx context.Context, fire FireInfo) context.Context
	// HookDone is called once for each hook of a fire that ran, or failed
	// or timed out, when its trace is final. Skipped hooks (matcher or
	// condition false, disabled, chain stopped) are not reported here;
	// they are in the Outcome FireEnded sees. A background hook is
	// reported when it finishes, usually after FireEnded; its trace is
	// not in the Outcome (that says queued). tr.Duration is how long the
	// hook took (zero for declarative hooks: they run no code), so the
	// hook started tr.Duration before the call.
	HookDone(ctx context.Context, fire FireInfo, tr *HookTrace)
	// FireEnded is called when the synchronous part of the fire is over,
	// just before Fire returns out and err.
	FireEnded(ctx context.Context, fire FireInfo, out *Outcome, err error)
}

// FireInfo identifies the fire an Observer is told about.
type FireInfo struct {
	// Event is the canonical event name.
	Event string
	// ID is the fire's number, the Call.Fire its hooks see.
	ID uint64
	// Payload is the payload as fired (for HookDone: as the hook saw it).
	// It is shared: observers must treat it as read-only.
	Payload map[string]any
}

// WithObserver has the engine report its fires to obs. Given several (or
// given more than once), they are called in order, and each FireStarted
// gets the context the one before returned.
func WithObserver(obs ...Observer) Option {
	return func(e *Engine) error {
		for _, o := range obs {
			if o == nil {
				continue
			}
			switch cur := e.obs.(type) {
			case nil:
				e.obs = o
			case observers:
				e.obs = append(cur, o)
			default:
				e.obs = observers{cur, o}
			}
		}
		return nil
	}
}

// observers is several Observers as one.
type observers []Observer

func (m observers) FireStarted(ctx context.Context, fire FireInfo) context.Context {
	for _, o := range m {
		ctx = o.FireStarted(ctx, fire)
	}
	return ctx
}

func (m observers) HookDone(ctx context.Context, fire FireInfo, tr *HookTrace) {
	for _, o := range m {
		o.HookDone(ctx, fire, tr)
	}
}

func (m observers) FireEnded(ctx context.Context, fire FireInfo, out *Outcome, err error) {
	for _, o := range m {
		o.FireEnded(ctx, fire, out, err)
	}
}

// hookDone reports a hook of this fire whose trace is final.
func (fi *firing) hookDone(ctx context.Context, tr *HookTrace, payload map[string]any) {
	if o := fi.e.obs; o != nil {
		o.HookDone(ctx, FireInfo{Event: fi.spec.Name, ID: fi.id, Payload: payload}, tr)
	}
}

// taskDone reports a hook run as a task of the pool.
func (e *Engine) taskDone(ctx context.Context, t *task, tr *HookTrace) {
	if o := e.obs; o != nil {
		o.HookDone(ctx, FireInfo{Event: t.spec.Name, ID: t.call.Fire, Payload: t.call.Payload}, tr)
	}
}

// backgroundDone reports a background hook. tr is a copy, so that the
// trace of a background hook stays on the stack when no Observer is set.
func (e *Engine) backgroundDone(t *task, tr HookTrace) {
	e.taskDone(t.ctx, t, &tr)
}
