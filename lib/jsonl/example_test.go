package jsonl_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/hookctl/hookctl/lib/jsonl"
)

func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "jsonl-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "audit.jsonl")

	secret := regexp.MustCompile(`sk-[A-Za-z0-9]+`)
	log, err := jsonl.Open(path, jsonl.Options{
		Redact: func(s string) string { return secret.ReplaceAllString(s, "[REDACTED]") },
		Now:    func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	log.Append(context.Background(), map[string]any{
		"event":      "PreToolUse",
		"tool_input": map[string]any{"command": "curl -H 'X-Key: sk-abc123' example.test"},
		"decision":   "deny",
	})
	log.Close()

	b, _ := os.ReadFile(path)
	fmt.Print(string(b))
	// Output:
	// {"decision":"deny","event":"PreToolUse","tool_input":{"command":"curl -H 'X-Key: [REDACTED]' example.test"},"ts":"2025-01-02T03:04:05Z"}
}

func ExampleAppend() {
	dir, _ := os.MkdirTemp("", "jsonl-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "audit.jsonl")

	// A one-shot hook process records one event and exits.
	err := jsonl.Append(context.Background(), path, map[string]any{"event": "Stop", "ts": "2025-01-02T03:04:05Z"}, jsonl.Options{})
	fmt.Println(err)
	b, _ := os.ReadFile(path)
	fmt.Print(string(b))
	// Output:
	// <nil>
	// {"event":"Stop","ts":"2025-01-02T03:04:05Z"}
}
