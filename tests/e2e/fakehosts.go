package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"
)

// scriptedAPI is the part the fake model APIs of Gemini CLI and Codex
// share: every request is logged (one JSON object per line) and the
// answer follows the prompt's script. "E2E-RUN: <command>" makes the first
// answer a shell tool call and "E2E-PATCH-ADD: <path>" an apply_patch that
// adds the file; once a tool result is in the conversation the model
// answers with text.
type scriptedAPI struct {
	mu  sync.Mutex
	log io.Writer
	n   int
}

var patchRE = regexp.MustCompile(`E2E-PATCH-ADD: ([^\s"\\]+)`)

// record logs one request and returns its number.
func (s *scriptedAPI) record(r *http.Request, body []byte) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	rec, _ := json.Marshal(map[string]any{"n": s.n, "time": time.Now().Format(time.RFC3339Nano), "method": r.Method, "path": r.URL.Path, "body": json.RawMessage(orNull(body))})
	s.log.Write(append(rec, '\n'))
	return s.n
}

// step is what the model does next.
type step struct {
	command string // a shell command to run
	patch   string // or an apply_patch to make
	text    string // or an answer
}

// next decides the model's next step from a request body: hasResult says
// whether the conversation already carries a tool result.
func next(body []byte, hasResult bool, n int) step {
	if hasResult {
		return step{text: fmt.Sprintf("FAKE-FINAL %d", n)}
	}
	if m := runRE.FindSubmatch(body); m != nil {
		return step{command: strings.TrimSpace(string(m[1]))}
	}
	if m := patchRE.FindSubmatch(body); m != nil {
		return step{patch: "*** Begin Patch\n*** Add File: " + string(m[1]) + "\n+E2E_PATCHED=1\n*** End Patch\n"}
	}
	return step{text: fmt.Sprintf("FAKE-TEXT %d", n)}
}

// fakeGemini is the Gemini API (generativelanguage v1beta) as Gemini CLI
// uses it: streamGenerateContent with alt=sse for the agent's turns,
// generateContent and countTokens for its side calls.
type fakeGemini struct{ scriptedAPI }

func (f *fakeGemini) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	n := f.record(r, body)
	var req struct {
		Contents []map[string]any `json:"contents"`
		Tools    []any            `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	var parts []any
	if len(req.Tools) == 0 || len(req.Contents) == 0 {
		parts = []any{map[string]any{"text": "ok"}}
	} else {
		s := next(body, strings.Contains(string(body), `"functionResponse"`), n)
		switch {
		case s.command != "":
			parts = []any{map[string]any{"functionCall": map[string]any{"name": "run_shell_command",
				"args": map[string]any{"command": s.command, "description": "e2e step"}}}}
		default:
			parts = []any{map[string]any{"text": s.text}}
		}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
			"content": map[string]any{"role": "model", "parts": parts}}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-e2e",
	}
	switch {
	case strings.HasSuffix(r.URL.Path, ":countTokens"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"totalTokens": 10}`)
	case strings.HasSuffix(r.URL.Path, ":streamGenerateContent"):
		w.Header().Set("Content-Type", "text/event-stream")
		b, _ := json.Marshal(resp)
		fmt.Fprintf(w, "data: %s\r\n\r\n", b)
	default:
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(resp)
	}
}

// fakeResponses is the OpenAI Responses API (POST /v1/responses, streamed
// as server-sent events) as Codex uses it.
type fakeResponses struct{ scriptedAPI }

func (f *fakeResponses) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	n := f.record(r, body)
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[],"models":[]}`)
		return
	}
	var req struct {
		Tools []map[string]any `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	tools := map[string]string{}
	for _, t := range req.Tools {
		name, _ := t["name"].(string)
		typ, _ := t["type"].(string)
		tools[name] = typ
	}
	s := next(body, strings.Contains(string(body), `_call_output"`), n)
	var item map[string]any
	callID := fmt.Sprintf("call_e2e_%d", n)
	args := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	switch {
	case s.command != "" && tools["shell_command"] != "":
		item = map[string]any{"type": "function_call", "name": "shell_command", "call_id": callID,
			"arguments": args(map[string]any{"command": s.command})}
	case s.command != "" && tools["exec_command"] != "":
		item = map[string]any{"type": "function_call", "name": "exec_command", "call_id": callID,
			"arguments": args(map[string]any{"cmd": s.command})}
	case s.command != "":
		item = map[string]any{"type": "function_call", "name": "shell", "call_id": callID,
			"arguments": args(map[string]any{"command": []string{"bash", "-lc", s.command}})}
	case s.patch != "" && tools["apply_patch"] == "custom":
		item = map[string]any{"type": "custom_tool_call", "name": "apply_patch", "call_id": callID, "input": s.patch}
	case s.patch != "":
		item = map[string]any{"type": "function_call", "name": "apply_patch", "call_id": callID,
			"arguments": args(map[string]any{"input": s.patch})}
	default:
		item = map[string]any{"type": "message", "role": "assistant", "id": fmt.Sprintf("msg_e2e_%d", n),
			"content": []any{map[string]any{"type": "output_text", "text": s.text}}}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	id := fmt.Sprintf("resp_e2e_%d", n)
	send := func(v map[string]any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", v["type"], b)
	}
	send(map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
	send(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	send(map[string]any{"type": "response.completed", "response": map[string]any{"id": id,
		"usage": map[string]any{"input_tokens": 10, "input_tokens_details": nil, "output_tokens": 5,
			"output_tokens_details": nil, "total_tokens": 15}}})
}

// fakeChat is the OpenAI chat completions API (POST /v1/chat/completions,
// streamed), as the Copilot CLI uses it with an OpenAI provider; its
// Responses API requests go to fakeResponses.
type fakeChat struct {
	scriptedAPI
	responses *fakeResponses
}

func (f *fakeChat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/responses") {
		f.responses.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	n := f.record(r, body)
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"gpt-4.1","object":"model","owned_by":"e2e"}]}`)
		return
	}
	var req struct {
		Stream bool `json:"stream"`
		Tools  []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	shell := ""
	for _, t := range req.Tools {
		if t.Function.Name == "bash" || shell == "" && strings.Contains(t.Function.Name, "shell") {
			shell = t.Function.Name
		}
	}
	s := next(body, shell != "" && strings.Contains(string(body), `"role":"tool"`), n)
	if shell == "" {
		s = step{text: "ok"}
	}
	msg := map[string]any{"role": "assistant"}
	finish := "stop"
	if s.command != "" {
		args, _ := json.Marshal(map[string]any{"command": s.command, "description": "e2e step"})
		msg["tool_calls"] = []any{map[string]any{"index": 0, "id": fmt.Sprintf("call_e2e_%d", n), "type": "function",
			"function": map[string]any{"name": shell, "arguments": string(args)}}}
		finish = "tool_calls"
	} else {
		msg["content"] = s.text
	}
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion", "created": 1,
			"model": "gpt-4.1", "choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any, usage any) {
		b, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion.chunk", "created": 1,
			"model": "gpt-4.1", "choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}, "usage": usage})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk(msg, nil, nil)
	chunk(map[string]any{}, finish, usage)
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// newFakeAPI returns the fake model API of a kind, logging to log.
func newFakeAPI(kind string, log *os.File) (http.Handler, error) {
	switch kind {
	case "gemini":
		return &fakeGemini{scriptedAPI{log: log}}, nil
	case "responses":
		return &fakeResponses{scriptedAPI{log: log}}, nil
	case "openai":
		return &fakeChat{scriptedAPI: scriptedAPI{log: log}, responses: &fakeResponses{scriptedAPI{log: log}}}, nil
	}
	return nil, fmt.Errorf("no fake API %q", kind)
}
