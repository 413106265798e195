package engine

import (
	"errors"
	"fmt"
	"time"
)

// HookRun is what a HookObserver is told of one hook the engine ran, or
// tried to run and could not (its condition failed to evaluate), in any
// phase, background hooks included. Skipped hooks are not runs: they are
// in the fire's Outcome.
type HookRun struct {
	// Event is the canonical name of the event fired.
	Event string
	// Hook is the hook's id; Handler its handler kind (js, command, go,
	// ...); Phase the part of the fire it ran in.
	Hook    string
	Handler string
	Phase   Phase
	// Status is decided, ran, error or timeout.
	Status Status
	// Duration is how long the hook took, all attempts included.
	Duration time.Duration
	// Err is why the hook failed (Status error or timeout), else nil:
	// a *TimeoutError, a *PanicError, a condition's error, or what the
	// handler returned.
	Err error
}

// FailureKind classifies a failed run: "timeout", "panic" or "error"
// ("" when the hook did not fail). The set is closed, so it suits a
// metric label.
func (r HookRun) FailureKind() string {
	switch {
	case r.Status == StatusTimeout:
		return "timeout"
	case r.Err == nil && r.Status != StatusError:
		return ""
	}
	if _, ok := errors.AsType[*PanicError](r.Err); ok {
		return "panic"
	}
	return "error"
}

// HookObserver is told of every hook run, for metrics or tracing. HookDone
// is called on the goroutine that ran the hook, right after it ended and
// before the fire goes on, so it must be quick and safe for concurrent
// use; it must not keep r.Err's referents beyond what it records.
type HookObserver interface {
	HookDone(r HookRun)
}

// WithHookObserver has o told of every hook run (see HookObserver). Hooks
// that run no code (declarative) and fires of events without hooks are not
// runs and cost nothing; with no observer a run costs one length check.
// Several observers are called in the order given.
func WithHookObserver(o ...HookObserver) Option {
	return func(e *Engine) error {
		for _, x := range o {
			if x == nil {
				return errors.New("nil hook observer")
			}
		}
		e.observers = append(e.observers, o...)
		return nil
	}
}

// observe tells the observers of a run recorded in tr.
func (e *Engine) observe(spec *EventSpec, tr *HookTrace, err error) {
	r := HookRun{Event: spec.Name, Hook: tr.ID, Handler: tr.Handler, Phase: tr.Phase, Status: tr.Status, Duration: tr.Duration, Err: err}
	for _, o := range e.observers {
		o.HookDone(r)
	}
}

// conditionFailed records a hook whose condition could not be evaluated
// (see failed) and tells the observers.
func (e *Engine) conditionFailed(spec *EventSpec, h *compiledHook, tr *HookTrace, cerr error, canBlock bool) Result {
	err := fmt.Errorf("condition: %w", cerr)
	res := e.failed(spec, h, tr, err, canBlock)
	if len(e.observers) > 0 {
		e.observe(spec, tr, err)
	}
	return res
}
