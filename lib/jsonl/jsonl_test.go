package jsonl_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/lib/jsonl"
)

func fixedNow() time.Time {
	return time.Date(2025, 6, 1, 12, 30, 45, 123456789, time.FixedZone("CEST", 2*3600))
}

const fixedTS = "2025-06-01T10:30:45.123456789Z"

func mask(s string) string { return strings.ReplaceAll(s, "sk-live-123", "[REDACTED]") }

type creds struct {
	User  string            `json:"user"`
	Token string            `json:"token"`
	Tags  []string          `json:"tags"`
	Extra map[string]string `json:"extra"`
}

type token string

func (t token) MarshalJSON() ([]byte, error) { return json.Marshal("tok:" + string(t)) }

// readLines returns the raw lines of a file, each checked to be valid
// JSON and UTF-8.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if !json.Valid(sc.Bytes()) {
			t.Fatalf("invalid JSON line %q", sc.Bytes())
		}
		lines = append(lines, sc.Text())
	}
	return lines
}

func TestAppendRecord(t *testing.T) {
	tests := []struct {
		name   string
		redact func(string) string
		record map[string]any
		want   string // the line, without its newline
	}{
		{"adds ts", nil, map[string]any{"event": "Stop"},
			`{"event":"Stop","ts":"` + fixedTS + `"}`},
		{"keeps ts", nil, map[string]any{"ts": "earlier", "n": 1},
			`{"n":1,"ts":"earlier"}`},
		{"nil record", nil, nil, `{"ts":"` + fixedTS + `"}`},
		{"no HTML escaping", nil, map[string]any{"cmd": "a && b <c>"},
			`{"cmd":"a && b <c>","ts":"` + fixedTS + `"}`},
		{"newline stays in one line", nil, map[string]any{"out": "a\nb\r\n\u2028"},
			`{"out":"a\nb\r\n\u2028","ts":"` + fixedTS + `"}`},
		{"invalid UTF-8", nil, map[string]any{"bad": "a\xffb\xc3", "k\xfe": 1},
			`{"bad":"a\ufffdb\ufffd","k\ufffd":1,"ts":"` + fixedTS + `"}`},
		{"invalid UTF-8 in raw JSON", nil, map[string]any{"raw": json.RawMessage("\"a\xffb\"")},
			`{"raw":"a\ufffdb","ts":"` + fixedTS + `"}`},
		{"redact top level", mask, map[string]any{"cmd": "export KEY=sk-live-123"},
			`{"cmd":"export KEY=[REDACTED]","ts":"` + fixedTS + `"}`},
		{"redact nested maps and slices", mask, map[string]any{
			"tool_input": map[string]any{"args": []any{"x", "sk-live-123", []any{map[string]any{"deep": "sk-live-123!"}}}, "n": 2.5}},
			`{"tool_input":{"args":["x","[REDACTED]",[{"deep":"[REDACTED]!"}]],"n":2.5},"ts":"` + fixedTS + `"}`},
		{"redact typed containers", mask, map[string]any{
			"list": []string{"sk-live-123"}, "env": map[string]string{"KEY": "sk-live-123"}},
			`{"env":{"KEY":"[REDACTED]"},"list":["[REDACTED]"],"ts":"` + fixedTS + `"}`},
		{"redact struct fields", mask, map[string]any{
			"c": creds{User: "u", Token: "sk-live-123", Tags: []string{"sk-live-123"}, Extra: map[string]string{"e": "sk-live-123"}}},
			`{"c":{"extra":{"e":"[REDACTED]"},"tags":["[REDACTED]"],"token":"[REDACTED]","user":"u"},"ts":"` + fixedTS + `"}`},
		{"redact pointer and Marshaler", mask, map[string]any{
			"p": &creds{Token: "sk-live-123"}, "t": token("sk-live-123")},
			`{"p":{"extra":null,"tags":null,"token":"[REDACTED]","user":""},"t":"tok:[REDACTED]","ts":"` + fixedTS + `"}`},
		{"redact leaves keys", mask, map[string]any{"sk-live-123": "v"},
			`{"sk-live-123":"v","ts":"` + fixedTS + `"}`},
		{"redact caller ts", mask, map[string]any{"ts": "sk-live-123"},
			`{"ts":"[REDACTED]"}`},
		{"redact keeps numbers exact", mask, map[string]any{"big": uint64(math.MaxUint64), "obj": struct{ N int64 }{math.MaxInt64}},
			`{"big":18446744073709551615,"obj":{"N":9223372036854775807},"ts":"` + fixedTS + `"}`},
		{"redact gets valid UTF-8", func(s string) string {
			if !strings.HasPrefix(s, "a\uFFFD") {
				return "NOT SANITIZED"
			}
			return s
		}, map[string]any{"bad": "a\xff"},
			`{"bad":"a\ufffd","ts":"` + fixedTS + `"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			l, err := jsonl.Open(path, jsonl.Options{Redact: tt.redact, Now: fixedNow})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			if err := l.Append(context.Background(), tt.record); err != nil {
				t.Fatal(err)
			}
			lines := readLines(t, path)
			if len(lines) != 1 {
				t.Fatalf("%d lines", len(lines))
			}
			var got, want any
			if err := json.Unmarshal([]byte(lines[0]), &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatalf("bad want: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("line\n%s\nwant\n%s", lines[0], tt.want)
			}
			if strings.Contains(lines[0], "\xff") {
				t.Errorf("raw invalid byte in %q", lines[0])
			}
		})
	}
}

func TestAppendDoesNotModifyRecord(t *testing.T) {
	l, err := jsonl.Open(filepath.Join(t.TempDir(), "a.jsonl"), jsonl.Options{Redact: mask})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rec := map[string]any{"cmd": "sk-live-123", "nested": map[string]any{"list": []any{"sk-live-123"}}}
	if err := l.Append(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"cmd": "sk-live-123", "nested": map[string]any{"list": []any{"sk-live-123"}}}
	if !reflect.DeepEqual(rec, want) {
		t.Errorf("record changed to %v", rec)
	}
}

func TestAppendEncodingErrors(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	tests := []struct {
		name   string
		record map[string]any
	}{
		{"NaN", map[string]any{"n": math.NaN()}},
		{"Inf", map[string]any{"n": []any{math.Inf(-1)}}},
		{"chan", map[string]any{"c": make(chan int)}},
		{"func in struct", map[string]any{"s": struct{ F func() }{}}},
		{"cycle", cyclic},
		{"bad raw JSON", map[string]any{"raw": json.RawMessage("{")}},
	}
	for _, redact := range []func(string) string{nil, mask} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/redact=%v", tt.name, redact != nil), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "a.jsonl")
				l, err := jsonl.Open(path, jsonl.Options{Redact: redact})
				if err != nil {
					t.Fatal(err)
				}
				defer l.Close()
				if err := l.Append(context.Background(), tt.record); err == nil {
					t.Error("no error")
				}
				if fi, _ := os.Stat(path); fi.Size() != 0 {
					t.Errorf("a failed append wrote %d bytes", fi.Size())
				}
			})
		}
	}
}

func TestRotation(t *testing.T) {
	// Each record is one line of exactly 64 bytes.
	record := func(i int) map[string]any {
		return map[string]any{"i": fmt.Sprintf("%03d", i), "pad": strings.Repeat("x", 5)}
	}
	const lineLen = 64
	tests := []struct {
		name       string
		maxBytes   int64
		maxBackups int
		appends    int
		want       map[string][]string // file suffix -> the "i" of its lines
	}{
		{"fits", 4 * lineLen, 3, 4, map[string][]string{"": {"000", "001", "002", "003"}}},
		{"one rotation", 4 * lineLen, 3, 5, map[string][]string{
			"": {"004"}, ".1": {"000", "001", "002", "003"}}},
		{"just under a line", 4*lineLen - 1, 3, 4, map[string][]string{
			"": {"003"}, ".1": {"000", "001", "002"}}},
		{"drops the oldest", 2 * lineLen, 2, 9, map[string][]string{
			"": {"008"}, ".1": {"006", "007"}, ".2": {"004", "005"}}},
		{"no backups", 2 * lineLen, -1, 5, map[string][]string{"": {"004"}}},
		{"line bigger than MaxBytes", 10, 5, 3, map[string][]string{
			"": {"002"}, ".1": {"001"}, ".2": {"000"}}},
		{"rotation disabled", -1, 1, 50, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "a.jsonl")
			l, err := jsonl.Open(path, jsonl.Options{MaxBytes: tt.maxBytes, MaxBackups: tt.maxBackups, Now: fixedNow})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			for i := range tt.appends {
				if err := l.Append(context.Background(), record(i)); err != nil {
					t.Fatal(err)
				}
			}
			entries, _ := os.ReadDir(dir)
			got := map[string][]string{}
			for _, e := range entries {
				suffix, ok := strings.CutPrefix(e.Name(), "a.jsonl")
				if !ok || suffix == ".lock" {
					continue
				}
				for _, line := range readLines(t, filepath.Join(dir, e.Name())) {
					if len(line)+1 != lineLen {
						t.Fatalf("line %q is %d bytes, test assumes %d", line, len(line)+1, lineLen)
					}
					var rec map[string]any
					json.Unmarshal([]byte(line), &rec)
					got[suffix] = append(got[suffix], rec["i"].(string))
				}
			}
			if tt.want == nil {
				if len(got) != 1 || len(got[""]) != tt.appends {
					t.Errorf("files %v, want every line in one file", got)
				}
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("files\n%v\nwant\n%v", got, tt.want)
			}
		})
	}
}

// TestRotationByAnotherLog has two Logs on one path, as two processes
// would have: each must notice that the other rotated the file it holds
// open and follow it instead of writing into the backup.
func TestRotationByAnotherLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	opt := jsonl.Options{MaxBytes: 300, MaxBackups: 100}
	a, err := jsonl.Open(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := jsonl.Open(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const n = 60
	for i := range n {
		l := a
		if i%3 == 0 {
			l = b
		}
		if err := l.Append(context.Background(), map[string]any{"i": i}); err != nil {
			t.Fatal(err)
		}
	}
	var seq []int
	for i := 100; i >= 0; i-- {
		f := path
		if i > 0 {
			f = fmt.Sprintf("%s.%d", path, i)
		}
		if _, err := os.Stat(f); err != nil {
			continue
		}
		if fi, _ := os.Stat(f); fi.Size() > opt.MaxBytes {
			t.Errorf("%s is %d bytes", f, fi.Size())
		}
		for _, line := range readLines(t, f) {
			var rec struct{ I int }
			json.Unmarshal([]byte(line), &rec)
			seq = append(seq, rec.I)
		}
	}
	for i, v := range seq {
		if v != i {
			t.Fatalf("records out of order or lost: %v", seq)
		}
	}
	if len(seq) != n {
		t.Errorf("%d records, want %d", len(seq), n)
	}
}

func TestAppendAfterRemoval(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	path := filepath.Join(dir, "a.jsonl")
	l, err := jsonl.Open(path, jsonl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.Append(context.Background(), map[string]any{"n": 1})
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(context.Background(), map[string]any{"n": 2}); err != nil {
		t.Fatal(err)
	}
	if lines := readLines(t, path); len(lines) != 1 || !strings.Contains(lines[0], `"n":2`) {
		t.Errorf("after removal: %q", lines)
	}
}

func TestConcurrentAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	l, err := jsonl.Open(path, jsonl.Options{MaxBytes: 4096, MaxBackups: 1000, Redact: mask})
	if err != nil {
		t.Fatal(err)
	}
	const workers, rounds = 8, 100
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range rounds {
				if err := l.Append(context.Background(), map[string]any{"w": w, "i": i, "s": "sk-live-123"}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	total := 0
	for i := 0; ; i++ {
		f := path
		if i > 0 {
			f = fmt.Sprintf("%s.%d", path, i)
		}
		if _, err := os.Stat(f); err != nil {
			break
		}
		total += len(readLines(t, f))
	}
	if total != workers*rounds {
		t.Errorf("%d lines, want %d", total, workers*rounds)
	}
}

func TestOpenAndClose(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "x", "y", "a.jsonl")
	l, err := jsonl.Open(path, jsonl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Path() != path {
		t.Errorf("Path() = %s", l.Path())
	}
	if err := l.Append(context.Background(), map[string]any{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		for p, want := range map[string]os.FileMode{
			filepath.Join(root, "x"):      0o700 | os.ModeDir,
			filepath.Join(root, "x", "y"): 0o700 | os.ModeDir,
			path:                          0o600,
		} {
			if fi, err := os.Stat(p); err != nil || fi.Mode() != want {
				t.Errorf("%s: %v, %v; want mode %v", p, fi.Mode(), err, want)
			}
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := l.Append(context.Background(), map[string]any{"a": 2}); !errors.Is(err, jsonl.ErrClosed) {
		t.Errorf("Append after Close: %v, want ErrClosed", err)
	}
	if _, err := jsonl.Open("", jsonl.Options{}); err == nil {
		t.Error("Open(\"\") succeeded")
	}
}

func TestAppendFunc(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	for i := range 3 {
		if err := jsonl.Append(context.Background(), path, map[string]any{"i": i, "k": "sk-live-123"}, jsonl.Options{Redact: mask, Now: fixedNow}); err != nil {
			t.Fatal(err)
		}
	}
	lines := readLines(t, path)
	want := []string{
		`{"i":0,"k":"[REDACTED]","ts":"` + fixedTS + `"}`,
		`{"i":1,"k":"[REDACTED]","ts":"` + fixedTS + `"}`,
		`{"i":2,"k":"[REDACTED]","ts":"` + fixedTS + `"}`,
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("lines\n%q\nwant\n%q", lines, want)
	}
	if err := jsonl.Append(context.Background(), path, map[string]any{"bad": math.NaN()}, jsonl.Options{}); err == nil {
		t.Error("Append of NaN succeeded")
	}
}
