// Package llm runs hook handlers that ask a model: prompt handlers make one
// LLM call through a Provider and read back {ok, reason}; agent handlers
// hand the question to an embedder-supplied AgentRunner. The HTTP provider
// speaks the Anthropic Messages API and OpenAI-compatible chat completions.
//
// A reply of ok=false becomes the event's blocking decision (deny on
// PreToolUse, block on Stop, ...), as Claude Code's prompt hooks do;
// ok=true is no opinion. Providers and handlers are safe for concurrent
// use.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/hookctl/hookctl/engine"
)

// Request is one model call.
type Request struct {
	System    string
	Prompt    string
	Model     string
	MaxTokens int
}

// Provider makes model calls.
type Provider interface {
	Complete(ctx context.Context, r Request) (string, error)
}

// ProviderConfig configures the HTTP provider.
type ProviderConfig struct {
	// Kind is "anthropic" (Messages API) or "openai" (chat completions,
	// for any OpenAI-compatible endpoint).
	Kind      string
	BaseURL   string
	Model     string
	APIKey    string
	MaxTokens int
	Client    *http.Client
}

// NewHTTPProvider returns a provider for the Anthropic Messages API or an
// OpenAI-compatible endpoint.
func NewHTTPProvider(c ProviderConfig) (Provider, error) {
	switch c.Kind {
	case "anthropic":
		if c.BaseURL == "" {
			c.BaseURL = "https://api.anthropic.com"
		}
	case "openai":
		if c.BaseURL == "" {
			c.BaseURL = "https://api.openai.com"
		}
	case "":
		return nil, errors.New("provider must be \"anthropic\" or \"openai\"")
	default:
		return nil, fmt.Errorf("unknown provider %q (want \"anthropic\" or \"openai\")", c.Kind)
	}
	if c.Model == "" {
		return nil, errors.New("a provider needs a model")
	}
	if c.MaxTokens <= 0 {
		c.MaxTokens = 512
	}
	if c.Client == nil {
		c.Client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	return &httpProvider{c: c}, nil
}

type httpProvider struct{ c ProviderConfig }

// MaxReply bounds a provider's reply body.
const MaxReply = 4 << 20

func (p *httpProvider) Complete(ctx context.Context, r Request) (string, error) {
	model := r.Model
	if model == "" {
		model = p.c.Model
	}
	maxTokens := r.MaxTokens
	if maxTokens <= 0 {
		maxTokens = p.c.MaxTokens
	}
	var url string
	var body any
	hdr := http.Header{"Content-Type": {"application/json"}}
	if p.c.Kind == "anthropic" {
		url = p.c.BaseURL + "/v1/messages"
		b := map[string]any{"model": model, "max_tokens": maxTokens,
			"messages": []any{map[string]any{"role": "user", "content": r.Prompt}}}
		if r.System != "" {
			b["system"] = r.System
		}
		body = b
		hdr.Set("anthropic-version", "2023-06-01")
		if p.c.APIKey != "" {
			hdr.Set("x-api-key", p.c.APIKey)
		}
	} else {
		url = p.c.BaseURL + "/v1/chat/completions"
		msgs := []any{}
		if r.System != "" {
			msgs = append(msgs, map[string]any{"role": "system", "content": r.System})
		}
		msgs = append(msgs, map[string]any{"role": "user", "content": r.Prompt})
		body = map[string]any{"model": model, "max_tokens": maxTokens, "messages": msgs}
		if p.c.APIKey != "" {
			hdr.Set("Authorization", "Bearer "+p.c.APIKey)
		}
	}
	buf, err := json.Marshal(body)
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(buf))
	if err != nil {
		return "", err
	}
	req.Header = hdr
	resp, err := p.c.Client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("%s provider: %w", p.c.Kind, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxReply))
	if err != nil {
		return "", err
	}
	if resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("%s provider: HTTP %d: %s", p.c.Kind, resp.StatusCode, truncate(string(raw), 300))
	}
	var text strings.Builder
	if p.c.Kind == "anthropic" {
		var m struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return "", fmt.Errorf("anthropic provider: reply: %w", err)
		}
		for _, c := range m.Content {
			if c.Type == "text" {
				text.WriteString(c.Text)
			}
		}
	} else {
		var m struct {
			Choices []struct {
				Message struct {
					Content string `json:"content"`
				} `json:"message"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return "", fmt.Errorf("openai provider: reply: %w", err)
		}
		for _, c := range m.Choices {
			text.WriteString(c.Message.Content)
		}
	}
	return text.String(), nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// Verdict is what a prompt or agent handler decided.
type Verdict struct {
	OK     bool   `json:"ok"`
	Reason string `json:"reason"`
	// Impossible says the condition cannot be met (on Stop: let the agent
	// stop rather than loop).
	Impossible bool `json:"impossible"`
}

// PromptSpec describes a prompt handler.
type PromptSpec struct {
	Provider Provider
	// Text is the prompt; $ARGUMENTS is replaced by the payload JSON,
	// which is appended when the placeholder is absent.
	Text   string
	System string
	Model  string
	// Event is the event the handler is for (its blocking decision).
	Event engine.EventSpec
	// ContinueOnBlock turns a PreToolUse "no" into a deny that lets the
	// turn go on (the default) — kept for Claude Code compatibility.
	ContinueOnBlock bool
}

const verdictSystem = `You are a hook that checks an AI coding agent's action. Answer with one JSON object and nothing else: {"ok": true} when the action may proceed, {"ok": false, "reason": "why, in one sentence"} when it must not. Add "impossible": true when the request can never be satisfied.`

// NewPrompt returns a prompt handler.
func NewPrompt(s PromptSpec) (engine.Handler, error) {
	if s.Provider == nil {
		return nil, errors.New("a prompt handler needs a provider")
	}
	if strings.TrimSpace(s.Text) == "" {
		return nil, errors.New("a prompt handler needs text")
	}
	if s.System == "" {
		s.System = verdictSystem
	}
	return &prompt{s: s}, nil
}

type prompt struct{ s PromptSpec }

func (p *prompt) Kind() string { return "prompt" }

func (p *prompt) Handle(ctx context.Context, call *engine.Call) (engine.Result, error) {
	payload, err := json.Marshal(call.Payload)
	if err != nil {
		return nil, err
	}
	text := p.s.Text
	if strings.Contains(text, "$ARGUMENTS") {
		text = strings.ReplaceAll(text, "$ARGUMENTS", string(payload))
	} else {
		text += "\n\nHook input:\n" + string(payload)
	}
	reply, err := p.s.Provider.Complete(ctx, Request{System: p.s.System, Prompt: text, Model: p.s.Model})
	if err != nil {
		return nil, err
	}
	v, err := ParseVerdict(reply)
	if err != nil {
		return nil, err
	}
	return verdictResult(p.s.Event, v), nil
}

var jsonObjectRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)\{.*\}`) })

// ParseVerdict reads {ok, reason, impossible} from a model's reply,
// tolerating prose or a code fence around the JSON.
func ParseVerdict(reply string) (Verdict, error) {
	var v Verdict
	m := jsonObjectRE().FindString(reply)
	if m == "" {
		return v, fmt.Errorf("the model's reply has no JSON verdict: %q", truncate(reply, 200))
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(m), &raw); err != nil {
		return v, fmt.Errorf("the model's verdict is not valid JSON: %w", err)
	}
	ok, isBool := raw["ok"].(bool)
	if !isBool {
		return v, fmt.Errorf("the model's verdict has no boolean \"ok\": %q", truncate(m, 200))
	}
	v.OK = ok
	v.Reason, _ = raw["reason"].(string)
	v.Impossible, _ = raw["impossible"].(bool)
	return v, nil
}

// verdictResult maps a verdict onto the event: no = its blocking
// decision; yes = no opinion. On Stop an impossible "no" lets the agent
// stop.
func verdictResult(event engine.EventSpec, v Verdict) engine.Result {
	if v.OK {
		return nil
	}
	reason := v.Reason
	if reason == "" {
		reason = "the model said no"
	}
	if v.Impossible && event.StopGuard {
		return engine.Result{"system_message": "stop check cannot be met: " + reason}
	}
	switch event.Name {
	case "PermissionRequest", "PermissionDenied":
		return nil // Claude Code: no effect
	}
	for _, d := range event.Decisions {
		switch d {
		case "deny", "block", "cancel":
			return engine.Result{"decision": d, "reason": reason}
		}
	}
	return engine.Result{"system_message": reason}
}

// AgentRequest is what an agent handler asks the embedder's runner.
type AgentRequest struct {
	Prompt   string
	Model    string
	MaxTurns int
	Tools    []string
	Event    string
	Payload  map[string]any
}

// AgentRunner runs an agent to answer a hook; embedders implement it (an
// ADK or eino agent, a sub-session of their own).
type AgentRunner interface {
	RunAgent(ctx context.Context, r AgentRequest) (Verdict, error)
}

// AgentRunnerFunc adapts a function to AgentRunner.
type AgentRunnerFunc func(ctx context.Context, r AgentRequest) (Verdict, error)

// RunAgent calls f.
func (f AgentRunnerFunc) RunAgent(ctx context.Context, r AgentRequest) (Verdict, error) {
	return f(ctx, r)
}

// AgentSpec describes an agent handler.
type AgentSpec struct {
	Runner   AgentRunner
	Prompt   string
	Model    string
	MaxTurns int
	Tools    []string
	Event    engine.EventSpec
}

// NewAgent returns an agent handler.
func NewAgent(s AgentSpec) (engine.Handler, error) {
	if s.Runner == nil {
		return nil, errors.New("an agent handler needs an AgentRunner from the embedding program")
	}
	if strings.TrimSpace(s.Prompt) == "" {
		return nil, errors.New("an agent handler needs a prompt")
	}
	if s.MaxTurns <= 0 {
		s.MaxTurns = 50
	}
	return &agent{s: s}, nil
}

type agent struct{ s AgentSpec }

func (a *agent) Kind() string { return "agent" }

func (a *agent) Handle(ctx context.Context, call *engine.Call) (engine.Result, error) {
	v, err := a.s.Runner.RunAgent(ctx, AgentRequest{Prompt: a.s.Prompt, Model: a.s.Model, MaxTurns: a.s.MaxTurns,
		Tools: a.s.Tools, Event: call.Event, Payload: call.Payload})
	if err != nil {
		return nil, err
	}
	return verdictResult(a.s.Event, v), nil
}
