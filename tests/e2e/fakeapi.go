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
)

// fakeAPI is a scripted Anthropic Messages API for the Claude Code CLI.
// The main agent's request (the one offering tools) is answered by the
// script in the prompt: "E2E-RUN: <command>" makes the first answer a Bash
// tool call; a request whose last message carries a tool result is
// answered with text quoting the result; anything else gets text. Every
// request is logged, one JSON object per line.
type fakeAPI struct {
	mu  sync.Mutex
	log *os.File
	n   int
}

var runRE = regexp.MustCompile(`E2E-RUN: ([^\n"\\]+)`)

type apiRequest struct {
	Model    string           `json:"model"`
	Stream   bool             `json:"stream"`
	Tools    []map[string]any `json:"tools"`
	Messages []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.n++
	n := f.n
	rec, _ := json.Marshal(map[string]any{"n": n, "path": r.URL.Path, "body": json.RawMessage(orNull(body))})
	f.log.Write(append(rec, '\n'))
	f.mu.Unlock()

	if !strings.HasPrefix(r.URL.Path, "/v1/messages") || strings.Contains(r.URL.Path, "count_tokens") {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens": 10}`)
		return
	}
	var req apiRequest
	_ = json.Unmarshal(body, &req)
	blocks := f.answer(req, n)
	if req.Stream {
		writeSSE(w, blocks)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	stop := "end_turn"
	for _, b := range blocks {
		if b["type"] == "tool_use" {
			stop = "tool_use"
		}
	}
	json.NewEncoder(w).Encode(map[string]any{"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant",
		"model": req.Model, "content": blocks, "stop_reason": stop, "usage": map[string]any{"input_tokens": 10, "output_tokens": 5}})
}

func orNull(b []byte) []byte {
	if json.Valid(b) {
		return b
	}
	q, _ := json.Marshal(string(b))
	return q
}

// answer decides the content blocks of a reply.
func (f *fakeAPI) answer(req apiRequest, n int) []map[string]any {
	if len(req.Tools) == 0 || len(req.Messages) == 0 {
		return []map[string]any{{"type": "text", "text": "ok"}}
	}
	last := req.Messages[len(req.Messages)-1]
	if result, ok := toolResult(last.Content); ok {
		return []map[string]any{{"type": "text", "text": "FAKE-FINAL: tool_result=" + result}}
	}
	usedTool := false
	for _, m := range req.Messages {
		if m.Role == "assistant" && strings.Contains(fmt.Sprint(m.Content), "tool_use") {
			usedTool = true
		}
	}
	first, _ := json.Marshal(req.Messages[0].Content)
	if m := runRE.FindStringSubmatch(string(first)); m != nil && !usedTool {
		return []map[string]any{{"type": "tool_use", "id": fmt.Sprintf("toolu_e2e%d", n), "name": "Bash",
			"input": map[string]any{"command": strings.TrimSpace(m[1]), "description": "e2e step"}}}
	}
	return []map[string]any{{"type": "text", "text": fmt.Sprintf("FAKE-TEXT %d", n)}}
}

// toolResult returns the text of a tool_result block in a message.
func toolResult(content any) (string, bool) {
	blocks, ok := content.([]any)
	if !ok {
		return "", false
	}
	for _, b := range blocks {
		m, _ := b.(map[string]any)
		if m["type"] != "tool_result" {
			continue
		}
		c, _ := json.Marshal(m["content"])
		return string(c), true
	}
	return "", false
}

func writeSSE(w http.ResponseWriter, blocks []map[string]any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	send := func(event string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	stop := "end_turn"
	send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_e2e", "type": "message", "role": "assistant", "model": "claude-e2e", "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
	for i, b := range blocks {
		switch b["type"] {
		case "text":
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": b["text"]}})
		case "tool_use":
			stop = "tool_use"
			input, _ := json.Marshal(b["input"])
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	send("message_stop", map[string]any{"type": "message_stop"})
}
