// Package eino plugs a hookctl engine into cloudwego/eino agents: a tool
// middleware for compose.ToolsNodeConfig.ToolCallMiddlewares that runs
// the PreToolUse hooks before each tool call (deny, ask, rewrite the
// arguments) and the PostToolUse hooks after it (context for the model),
// an alternative compose.ToolsNodeConfig.ToolArgumentsHandler, and
// callbacks that fire the observe events of a run.
package eino

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/compose"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/guard"
	"github.com/hookctl/hookctl/internal/jsonx"
)

// Middleware returns a tool middleware over g. A denied call does not run:
// its result is the hook's reason, which the model reads as the tool's
// answer (as Claude Code and crush tell their models). What the
// PostToolUse hooks add is appended to the result. When the hooks cannot
// decide, the call fails with the error instead of running.
func Middleware(g *guard.Guard) compose.ToolMiddleware {
	return compose.ToolMiddleware{Invokable: func(next compose.InvokableToolEndpoint) compose.InvokableToolEndpoint {
		return func(ctx context.Context, in *compose.ToolInput) (*compose.ToolOutput, error) {
			args, err := decodeArgs(in.Arguments)
			if err != nil {
				return nil, err
			}
			newArgs, err := g.Before(ctx, in.Name, args)
			var d *guard.Denied
			if errors.As(err, &d) {
				return &compose.ToolOutput{Result: "Tool call blocked by hook. Reason: " + d.Reason}, nil
			}
			if err != nil {
				return nil, err
			}
			call := *in
			if b, err := json.Marshal(newArgs); err == nil {
				call.Arguments = string(b)
			}
			out, toolErr := next(ctx, &call)
			var result any
			if out != nil {
				result = out.Result
			}
			fb, err := g.After(ctx, in.Name, newArgs, result, toolErr)
			if toolErr != nil {
				return out, toolErr
			}
			if err == nil && fb != "" && out != nil {
				out.Result += "\n\n" + fb
			}
			return out, nil
		}
	}}
}

// ArgumentsHandler returns a compose.ToolsNodeConfig.ToolArgumentsHandler
// over g: it rewrites the arguments as the hooks say, and fails a denied
// call with a *guard.Denied (eino then ends the run with that error).
func ArgumentsHandler(g *guard.Guard) func(ctx context.Context, name, arguments string) (string, error) {
	return func(ctx context.Context, name, arguments string) (string, error) {
		args, err := decodeArgs(arguments)
		if err != nil {
			return "", err
		}
		newArgs, err := g.Before(ctx, name, args)
		if err != nil {
			return "", err
		}
		b, err := json.Marshal(newArgs)
		if err != nil {
			return "", err
		}
		return string(b), nil
	}
}

func decodeArgs(s string) (map[string]any, error) {
	if s == "" {
		return map[string]any{}, nil
	}
	// The payload decoder of every transport: integers stay exact.
	args, err := jsonx.DecodeObject([]byte(s))
	if err != nil {
		// Arguments the hooks cannot read cannot be guarded.
		return nil, fmt.Errorf("tool arguments are not a JSON object: %w", err)
	}
	return args, nil
}

// Callbacks returns an eino callbacks handler that fires the observe
// events of a run on eng: SessionStart when the outermost graph or chain
// starts, SessionEnd when it ends, StopFailure when it fails. They are
// observe points (eino callbacks cannot block); session names the run.
func Callbacks(eng *engine.Engine, session func(context.Context) string) callbacks.Handler {
	fire := func(ctx context.Context, event string, p map[string]any) {
		if session != nil {
			p["session_id"] = session(ctx)
		}
		p["hook_event_name"] = event
		_, _ = eng.Fire(ctx, engine.Event{Name: event, Payload: p})
	}
	outer := func(info *callbacks.RunInfo) bool {
		return info != nil && (info.Component == compose.ComponentOfGraph || info.Component == compose.ComponentOfChain)
	}
	return callbacks.NewHandlerBuilder().
		OnStartFn(func(ctx context.Context, info *callbacks.RunInfo, _ callbacks.CallbackInput) context.Context {
			if outer(info) {
				fire(ctx, "SessionStart", map[string]any{"source": "startup", "agent_type": info.Name})
			}
			return ctx
		}).
		OnEndFn(func(ctx context.Context, info *callbacks.RunInfo, _ callbacks.CallbackOutput) context.Context {
			if outer(info) {
				fire(ctx, "SessionEnd", map[string]any{"reason": "other"})
			}
			return ctx
		}).
		OnErrorFn(func(ctx context.Context, info *callbacks.RunInfo, err error) context.Context {
			if outer(info) {
				fire(ctx, "StopFailure", map[string]any{"error": "unknown", "error_details": err.Error()})
			}
			return ctx
		}).
		Build()
}
