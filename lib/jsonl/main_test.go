package jsonl_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lib/jsonl"
)

// Environment of a child process started by the cross-process tests: the
// test binary re-executed with JSONL_CHILD set runs child instead of the
// tests.
const (
	envChild      = "JSONL_CHILD"       // the child's index
	envPath       = "JSONL_PATH"        // the log file
	envOps        = "JSONL_OPS"         // how many records the child appends
	envMaxBytes   = "JSONL_MAX_BYTES"   // Options.MaxBytes
	envMaxBackups = "JSONL_MAX_BACKUPS" // Options.MaxBackups
)

func TestMain(m *testing.M) {
	if os.Getenv(envChild) != "" {
		if err := child(); err != nil {
			fmt.Fprintln(os.Stderr, "jsonl child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// child waits until its stdin is closed, so that all children start
// together, then appends its records. Even children keep one Log open,
// as the server does; odd children use the one-shot Append for every
// record, as hook processes do. Records carry a redacted secret, a
// newline and an invalid UTF-8 byte, and vary in length.
func child() error {
	id, err := strconv.Atoi(os.Getenv(envChild))
	if err != nil {
		return err
	}
	ops, err := strconv.Atoi(os.Getenv(envOps))
	if err != nil {
		return err
	}
	maxBytes, err := strconv.ParseInt(os.Getenv(envMaxBytes), 10, 64)
	if err != nil {
		return err
	}
	maxBackups, err := strconv.Atoi(os.Getenv(envMaxBackups))
	if err != nil {
		return err
	}
	path := os.Getenv(envPath)
	opt := jsonl.Options{
		MaxBytes:   maxBytes,
		MaxBackups: maxBackups,
		Redact:     func(s string) string { return strings.ReplaceAll(s, "sk-secret", "[REDACTED]") },
	}
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		return err
	}
	appendRec := func(r map[string]any) error { return jsonl.Append(context.Background(), path, r, opt) }
	if id%2 == 0 {
		l, err := jsonl.Open(path, opt)
		if err != nil {
			return err
		}
		defer l.Close()
		appendRec = func(r map[string]any) error { return l.Append(context.Background(), r) }
	}
	for i := range ops {
		rec := map[string]any{
			"proc":  id,
			"seq":   i,
			"event": "PreToolUse",
			"tool_input": map[string]any{
				"command": "curl -H 'Authorization: sk-secret' \xff\nexample.test",
				"pad":     strings.Repeat("x", (id*37+i*11)%200),
			},
		}
		if err := appendRec(rec); err != nil {
			return err
		}
	}
	return nil
}
