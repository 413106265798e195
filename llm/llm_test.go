package llm_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/llm"
)

func spec(name string) engine.EventSpec {
	for _, s := range engine.BuiltinEvents() {
		if s.Name == name {
			return s
		}
	}
	panic(name)
}

// fakeModel serves the Anthropic and OpenAI APIs on 127.0.0.1, answering
// with the verdict given in the prompt.
func fakeModel(t *testing.T) (*httptest.Server, *[]map[string]any) {
	var seen []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		seen = append(seen, map[string]any{"path": r.URL.Path, "key": r.Header.Get("x-api-key") + r.Header.Get("Authorization"), "body": body})
		msgs := body["messages"].([]any)
		prompt := msgs[len(msgs)-1].(map[string]any)["content"].(string)
		verdict := `{"ok": true}`
		if strings.Contains(prompt, "rm -rf") {
			verdict = "Here is my answer:\n```json\n{\"ok\": false, \"reason\": \"destructive\"}\n```"
		}
		if r.URL.Path == "/v1/messages" {
			json.NewEncoder(w).Encode(map[string]any{"content": []any{map[string]any{"type": "text", "text": verdict}}})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": verdict}}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

func TestPromptHandlerWithBothProviders(t *testing.T) {
	srv, seen := fakeModel(t)
	for _, kind := range []string{"anthropic", "openai"} {
		t.Run(kind, func(t *testing.T) {
			p, err := llm.NewHTTPProvider(llm.ProviderConfig{Kind: kind, BaseURL: srv.URL, Model: "m", APIKey: "k"})
			if err != nil {
				t.Fatal(err)
			}
			h, err := llm.NewPrompt(llm.PromptSpec{Provider: p, Text: "Is this safe? $ARGUMENTS", Event: spec("PreToolUse")})
			if err != nil {
				t.Fatal(err)
			}
			res, err := h.Handle(context.Background(), &engine.Call{Event: "PreToolUse", Payload: map[string]any{"tool_input": map[string]any{"command": "rm -rf /"}}})
			if err != nil || res["decision"] != "deny" || res["reason"] != "destructive" {
				t.Fatalf("%v %v", res, err)
			}
			res, err = h.Handle(context.Background(), &engine.Call{Event: "PreToolUse", Payload: map[string]any{"tool_input": map[string]any{"command": "ls"}}})
			if err != nil || res != nil {
				t.Fatalf("%v %v", res, err)
			}
			last := (*seen)[len(*seen)-1]
			if !strings.Contains(last["key"].(string), "k") || last["body"].(map[string]any)["model"] != "m" {
				t.Fatalf("request %v", last)
			}
		})
	}
	if (*seen)[0]["path"] != "/v1/messages" || (*seen)[2]["path"] != "/v1/chat/completions" {
		t.Fatalf("paths %v %v", (*seen)[0]["path"], (*seen)[2]["path"])
	}
}

func TestVerdictOnStop(t *testing.T) {
	p := providerFunc(func(context.Context, llm.Request) (string, error) {
		return `{"ok": false, "reason": "tests fail", "impossible": false}`, nil
	})
	h, _ := llm.NewPrompt(llm.PromptSpec{Provider: p, Text: "done?", Event: spec("Stop")})
	res, err := h.Handle(context.Background(), &engine.Call{Event: "Stop"})
	if err != nil || res["decision"] != "block" {
		t.Fatalf("%v %v", res, err)
	}
	impossible := providerFunc(func(context.Context, llm.Request) (string, error) {
		return `{"ok": false, "reason": "cannot", "impossible": true}`, nil
	})
	h, _ = llm.NewPrompt(llm.PromptSpec{Provider: impossible, Text: "done?", Event: spec("Stop")})
	if res, _ := h.Handle(context.Background(), &engine.Call{Event: "Stop"}); res["decision"] != nil {
		t.Fatalf("an impossible stop check blocked: %v", res)
	}
}

type providerFunc func(context.Context, llm.Request) (string, error)

func (f providerFunc) Complete(ctx context.Context, r llm.Request) (string, error) { return f(ctx, r) }

func TestParseVerdict(t *testing.T) {
	for _, bad := range []string{"no json", `{"reason": "x"}`, `{"ok": "yes"}`, `{`} {
		if _, err := llm.ParseVerdict(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestAgentHandler(t *testing.T) {
	if _, err := llm.NewAgent(llm.AgentSpec{Prompt: "x"}); err == nil {
		t.Fatal("an agent handler without a runner was accepted")
	}
	var got llm.AgentRequest
	runner := llm.AgentRunnerFunc(func(_ context.Context, r llm.AgentRequest) (llm.Verdict, error) {
		got = r
		return llm.Verdict{OK: false, Reason: "agent says no"}, nil
	})
	h, err := llm.NewAgent(llm.AgentSpec{Runner: runner, Prompt: "check", Event: spec("PreToolUse")})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Handle(context.Background(), &engine.Call{Event: "PreToolUse", Payload: map[string]any{"tool_name": "Bash"}})
	if err != nil || res["decision"] != "deny" || got.Prompt != "check" || got.Payload["tool_name"] != "Bash" || got.MaxTurns != 50 {
		t.Fatalf("%v %v %+v", res, err, got)
	}
}

func TestProviderErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(529)
		io.WriteString(w, `{"error":"overloaded"}`)
	}))
	defer srv.Close()
	p, _ := llm.NewHTTPProvider(llm.ProviderConfig{Kind: "anthropic", BaseURL: srv.URL, Model: "m"})
	if _, err := p.Complete(context.Background(), llm.Request{Prompt: "x"}); err == nil || !strings.Contains(err.Error(), "529") {
		t.Fatalf("%v", err)
	}
	for _, c := range []llm.ProviderConfig{{Kind: "x", Model: "m"}, {Kind: "anthropic"}, {Model: "m"}} {
		if _, err := llm.NewHTTPProvider(c); err == nil {
			t.Errorf("accepted %+v", c)
		}
	}
}
