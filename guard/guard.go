package guard

import (
	"context"
	"errors"
	"fmt"

	"github.com/hookctl/hookctl/engine"
)

// Guard fires PreToolUse and PostToolUse (PostToolUseFailure) for a tool
// loop. It is safe for concurrent use.
type Guard struct {
	eng     *engine.Engine
	session func(context.Context) string
	cwd     string
	ask     func(ctx context.Context, tool string, args map[string]any, reason string) (bool, error)
}

// Option configures a Guard.
type Option func(*Guard)

// WithSession names the session of a call (the payload's session_id), for
// the Stop loop guard, kv's session scope and logs.
func WithSession(fn func(ctx context.Context) string) Option {
	return func(g *Guard) { g.session = fn }
}

// WithCwd sets the payload's cwd (the project the tools work in).
func WithCwd(dir string) Option { return func(g *Guard) { g.cwd = dir } }

// WithAsk answers a hook's ask (true runs the tool). Without it an ask is
// a deny: a guard that cannot ask must not allow.
func WithAsk(fn func(ctx context.Context, tool string, args map[string]any, reason string) (bool, error)) Option {
	return func(g *Guard) { g.ask = fn }
}

// New returns a Guard over eng.
func New(eng *engine.Engine, opts ...Option) *Guard {
	g := &Guard{eng: eng}
	for _, o := range opts {
		o(g)
	}
	return g
}

// Denied is a tool call the hooks did not let run. Reason is what to tell
// the model.
type Denied struct {
	Tool     string
	Decision engine.Decision
	Reason   string
	Outcome  engine.Outcome
}

func (d *Denied) Error() string {
	return fmt.Sprintf("tool %s was %s by a hook: %s", d.Tool, d.Decision, d.Reason)
}

// ErrNoDecision is returned by Before when the hooks could not finish (the
// context ended, the engine closed): the tool must not run.
var ErrNoDecision = errors.New("guard: the hooks did not decide")

func (g *Guard) payload(ctx context.Context, tool string, args map[string]any) map[string]any {
	p := map[string]any{"tool_name": tool, "tool_input": args}
	if g.session != nil {
		p["session_id"] = g.session(ctx)
	}
	if g.cwd != "" {
		p["cwd"] = g.cwd
	}
	return p
}

// Before fires PreToolUse for a call of tool with args. It returns the
// arguments to run the tool with (rewritten by a hook, or args), or a
// *Denied when a hook denied it (or asked or deferred, and the ask was
// not granted),
// or an error wrapping ErrNoDecision when the hooks could not finish: in
// both cases the tool must not run.
func (g *Guard) Before(ctx context.Context, tool string, args map[string]any) (map[string]any, error) {
	p := g.payload(ctx, tool, args)
	p["hook_event_name"] = "PreToolUse"
	out, err := g.eng.Fire(ctx, engine.Event{Name: "PreToolUse", Payload: p})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoDecision, err)
	}
	deny := func(d engine.Decision, reason string) (map[string]any, error) {
		if reason == "" {
			reason = "blocked by a hook"
		}
		return nil, &Denied{Tool: tool, Decision: d, Reason: reason, Outcome: out}
	}
	switch {
	case !out.Continue:
		return deny(engine.DecisionDeny, firstOf(out.StopReason, out.Reason))
	case out.Decision == engine.DecisionAsk || out.Decision == engine.DecisionDefer:
		// A guard cannot put a call off for later: a deferred call is
		// asked about now, as an ask is, and never run unasked.
		if g.ask == nil {
			return deny(out.Decision, out.Reason+" (asked for approval, and nobody can be asked here)")
		}
		ok, err := g.ask(ctx, tool, args, out.Reason)
		if err != nil {
			return nil, fmt.Errorf("%w: asking: %v", ErrNoDecision, err)
		}
		if !ok {
			return deny(out.Decision, firstOf(out.Reason, "not approved"))
		}
	case out.Blocked || out.Decision == engine.DecisionDeny:
		return deny(engine.DecisionDeny, out.Reason)
	}
	if out.UpdatedInput != nil {
		return out.UpdatedInput, nil
	}
	return args, nil
}

// After fires PostToolUse (PostToolUseFailure when toolErr is set) with
// the tool's result, and returns what the hooks want the model to read
// beside it: their additional context, and a block's reason.
func (g *Guard) After(ctx context.Context, tool string, args map[string]any, result any, toolErr error) (string, error) {
	p := g.payload(ctx, tool, args)
	event := "PostToolUse"
	if toolErr != nil {
		event = "PostToolUseFailure"
		p["error"] = toolErr.Error()
	} else {
		p["tool_response"] = result
	}
	p["hook_event_name"] = event
	out, err := g.eng.Fire(ctx, engine.Event{Name: event, Payload: p})
	if err != nil {
		return "", err
	}
	feedback := out.AdditionalContext
	if out.Blocked && out.Reason != "" {
		feedback = joinLines(out.Reason, feedback)
	}
	return feedback, nil
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func joinLines(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}
