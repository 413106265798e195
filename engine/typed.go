package engine

import (
	"context"
	"encoding/json"
	"fmt"
)

// Typed adapts a function of a typed payload to a Handler, the way
// google/adk-go and cloudwego/eino type their callbacks: the payload is
// decoded into P by its JSON field names (a struct with json tags, such as
// ToolPayload) before fn runs. A payload that does not fit P is the hook's
// error. Typed handlers run on the worker pool for void events; they cost
// one JSON round trip of the payload per call.
func Typed[P any](fn func(ctx context.Context, payload P, call *Call) (Result, error)) Handler {
	return HandlerFunc(func(ctx context.Context, call *Call) (Result, error) {
		var p P
		b, err := json.Marshal(call.Payload)
		if err != nil {
			return nil, fmt.Errorf("payload of %s: %w", call.Event, err)
		}
		if err := json.Unmarshal(b, &p); err != nil {
			return nil, fmt.Errorf("payload of %s does not fit %T: %w", call.Event, p, err)
		}
		return fn(ctx, p, call)
	})
}

// On registers a Go hook on event whose handler takes a typed payload
// (see Typed).
func On[P any](e *Engine, id, event string, fn func(ctx context.Context, payload P, call *Call) (Result, error)) error {
	return e.Register(Hook{ID: id, Event: event, Handler: Typed(fn)})
}

// ToolPayload is the payload of the tool events (PreToolUse, PostToolUse,
// PermissionRequest and their aliases) in Claude Code's field names.
type ToolPayload struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path,omitempty"`
	Cwd            string `json:"cwd,omitempty"`
	HookEventName  string `json:"hook_event_name,omitempty"`
	ToolName       string `json:"tool_name"`
	// Tool is ToolName's canonical name (Bash for crush's bash), set by
	// the engine.
	Tool         string         `json:"tool,omitempty"`
	ToolInput    map[string]any `json:"tool_input"`
	ToolResponse any            `json:"tool_response,omitempty"`
	ToolUseID    string         `json:"tool_use_id,omitempty"`
}

// PromptPayload is the payload of UserPromptSubmit.
type PromptPayload struct {
	SessionID string `json:"session_id"`
	Cwd       string `json:"cwd,omitempty"`
	Prompt    string `json:"prompt"`
}

// StopPayload is the payload of Stop and SubagentStop.
type StopPayload struct {
	SessionID      string `json:"session_id"`
	StopHookActive bool   `json:"stop_hook_active"`
	// LastAssistantMessage is the agent's last message, when the host
	// sends it.
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
}

// Rewrite returns a result replacing the tool input with input (allowed
// unless another hook decides otherwise); the next hooks of the chain see
// the rewritten input.
func Rewrite(input map[string]any) Result { return Result{"updated_input": input} }
