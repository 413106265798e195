package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/hookctl/hookctl/bundle"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
)

// EventError is a request that names no event to fire, or one the
// engine does not know.
type EventError struct{ Err error }

func (e *EventError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *EventError) Unwrap() error { return e.Err }

// Outcome fires one event through the configuration and returns the
// engine's outcome, with no protocol and no trust check (`hookctl fire`:
// the configuration the caller points at, on purpose). The payload is
// req.Decoded; the event is req.Event, else the payload's
// hook_event_name (a payload that names another event than req.Event is
// fired as req.Event, with a warning on req.Stderr). took is the time the
// fire took. Errors: *NestedError, ErrNoConfig, *LoadError, *EventError,
// or the engine's. The outcome traces every hook, skipped ones too
// (engine.WithSkippedTraces), since it is shown.
func (r *Runtime) Outcome(ctx context.Context, req Request) (out engine.Outcome, took time.Duration, err error) {
	getenv := Getenv(req.Env)
	stderr := req.stderr()
	if err := Nested(getenv); err != nil {
		return out, 0, err
	}
	payload := req.Decoded
	if payload == nil {
		payload = map[string]any{}
	}
	l := &loader{stderr: stderr, logLevel: req.LogLevel, projectDir: ProjectDir(req.Cwd, getenv), timer: req.Timer,
		engOpts: append([]engine.Option{engine.WithSkippedTraces()}, r.engOpts...)}
	if r.tracer != nil {
		var traced []engine.Option
		var done func()
		ctx, traced, done = r.tracer(ctx, stderr)
		l.engOpts = append(l.engOpts, traced...)
		defer done()
	}
	if l.layers, err = r.OpenLayers(req.Config, req.Cwd, getenv); err != nil {
		return out, 0, err
	}
	// fire needs no trust, but a bundle runs only as signed.
	for i, layer := range l.layers {
		if layer.Name != LayerProject {
			continue
		}
		if signed, err := r.openSigned(ctx, layer.Path, getenv); err != nil && bundle.IsBundle(layer.Path) {
			return out, 0, &LoadError{Err: fmt.Errorf("signed configuration %s not verified: %w; its hooks did not run", layer.Path, err)}
		} else if signed != nil {
			l.layers[i].Path = signed.Path
			l.projectCheck = signed.Check
		}
	}
	eng, cfg, err := l.load()
	if err != nil {
		return out, 0, err
	}
	defer cfg.Close()
	name, err := eventToFire(eng, req.Event, payload, stderr)
	if err != nil {
		eng.Close(context.Background())
		return out, 0, err
	}
	spec, err := eng.Event(name)
	if err != nil {
		eng.Close(context.Background())
		return out, 0, &EventError{Err: err}
	}
	if _, ok := payload["hook_event_name"]; !ok && spec.Source == engine.SourceClaudeCode {
		payload["hook_event_name"] = spec.Name
	}
	start := time.Now()
	out, ferr := eng.Fire(ctx, engine.Event{Name: name, Payload: payload})
	took = time.Since(start)
	closeCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := eng.Close(closeCtx); err != nil {
		fmt.Fprintf(stderr, "hookctl: %v\n", err)
	}
	return out, took, ferr
}

// eventToFire is event, else the payload's hook_event_name (an error when
// there is neither); it warns on w when the payload names another event
// than event (an alias of the same event is no other event).
func eventToFire(eng *engine.Engine, event string, payload map[string]any, w io.Writer) (string, error) {
	raw, has := payload["hook_event_name"]
	named, isString := raw.(string)
	if event == "" {
		switch {
		case !has:
			return "", &EventError{Err: fmt.Errorf("fire needs an EVENT, or a payload with hook_event_name (see hookctl events)")}
		case !isString || named == "":
			return "", &EventError{Err: fmt.Errorf("fire needs an EVENT: the payload's hook_event_name is %s, not an event name", jsonKindOrEmpty(raw))}
		}
		return named, nil
	}
	if has {
		want, err := eng.Event(event)
		if err != nil {
			return event, nil // reported as the unknown event it is
		}
		if got, err := eng.Event(named); !isString || err != nil || got.Name != want.Name {
			shown, _ := json.Marshal(raw)
			fmt.Fprintf(w, "hookctl: warning: firing %s, but the payload's hook_event_name is %s\n", want.Name, shown)
		}
	}
	return event, nil
}

func jsonKindOrEmpty(v any) string {
	if s, ok := v.(string); ok && s == "" {
		return "empty"
	}
	return KindName(jsonx.Kind(v))
}

// KindName is a JSON kind (jsonx.Kind) with its article: "an array".
func KindName(k string) string {
	switch k {
	case "null":
		return k
	case "array", "object":
		return "an " + k
	case "bool":
		return "a boolean"
	default:
		return "a " + k
	}
}
