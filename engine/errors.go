package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrClosed is returned by Fire and the registration methods after Close.
var ErrClosed = errors.New("engine: closed")

var errDeadline = context.DeadlineExceeded

// UnknownEventError is returned when an event name is not in the catalog.
// Firing an unknown event is always an error, never a silent no-op.
type UnknownEventError struct {
	Name string
	// Suggestion is a known event with a similar name, if any.
	Suggestion string
}

func (e *UnknownEventError) Error() string {
	if e.Suggestion != "" {
		return fmt.Sprintf("unknown event %q (did you mean %q?)", e.Name, e.Suggestion)
	}
	return fmt.Sprintf("unknown event %q", e.Name)
}

// DuplicateHookError is returned when a hook id is registered twice.
type DuplicateHookError struct{ ID string }

func (e *DuplicateHookError) Error() string { return fmt.Sprintf("duplicate hook id %q", e.ID) }

// HookConfigError is a problem with one hook declaration found when it is
// registered or loaded.
type HookConfigError struct {
	ID     string
	Source string
	Field  string
	Err    error
}

func (e *HookConfigError) Error() string {
	var b strings.Builder
	if e.Source != "" {
		b.WriteString(e.Source)
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "hook %q", e.ID)
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *HookConfigError) Unwrap() error { return e.Err }

// TimeoutError is a hook that ran out of time. The hook's work was
// cancelled (context, script interrupt or process kill), not abandoned.
type TimeoutError struct {
	Hook    string
	Timeout time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("hook %q timed out after %s", e.Hook, e.Timeout)
}

// Is makes errors.Is(err, context.DeadlineExceeded) hold.
func (e *TimeoutError) Is(target error) bool { return target == errDeadline }

// PanicError is a handler panic recovered by the engine.
type PanicError struct {
	Value any
	Stack string
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// QueueFullError reports a background hook dropped because the queue stayed
// full past the back-pressure bound.
type QueueFullError struct {
	Hook string
	Wait time.Duration
}

func (e *QueueFullError) Error() string {
	return fmt.Sprintf("background queue full for %s: hook %q dropped", e.Wait, e.Hook)
}

// EventMismatchError is an Event whose Name and ID name different events.
type EventMismatchError struct {
	Name string
	ID   EventID
	// Event is the canonical name of the event ID names.
	Event string
}

func (e *EventMismatchError) Error() string {
	return fmt.Sprintf("event %q and event id %d (%s) disagree: set one, or both for the same event", e.Name, e.ID, e.Event)
}
