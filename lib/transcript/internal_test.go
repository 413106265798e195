package transcript

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// lastAssistantText, reading backwards in chunks, agrees with Read over the
// same window.
func checkLastText(t *testing.T, data []byte, max int64) {
	t.Helper()
	s, err := Read(context.Background(), bytes.NewReader(data), Options{MaxBytes: max})
	if err != nil {
		t.Fatal(err)
	}
	got, err := lastAssistantText(context.Background(), bytes.NewReader(data), int64(len(data)), max)
	if err != nil {
		t.Fatal(err)
	}
	if got != s.LastAssistantText {
		t.Fatalf("max %d: backwards %q, Read %q", max, got, s.LastAssistantText)
	}
}

func TestLastAssistantTextMatchesRead(t *testing.T) {
	fixture, err := os.ReadFile("testdata/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// A transcript whose last text-bearing message spans several lines far
	// apart, so the backward reader has to grow its chunk: 100 KiB of tool
	// results between two text lines of the same message.
	var b strings.Builder
	b.Write(fixture)
	for i := range 3 {
		b.WriteString(fmt.Sprintf(`{"type":"assistant","message":{"id":"msg_x","role":"assistant","content":[{"type":"text","text":"part %d"}]}}`+"\n", i))
		b.WriteString(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"` +
			strings.Repeat("output ", 5000) + `"}]}}` + "\n")
	}
	spread := []byte(b.String())
	for _, data := range [][]byte{fixture, spread, nil, []byte("\n\n"), []byte(`{"type":"assistant","message":{"content":"no id"}}`)} {
		for _, max := range []int64{-1, 1, 100, 2000, 40 << 10, 64 << 10, 64<<10 + 1, 100 << 10, 200 << 10, DefaultMaxBytes} {
			if max < 0 {
				max = int64(len(data))
			}
			checkLastText(t, data, max)
		}
	}
}

func FuzzLastAssistantText(f *testing.F) {
	fixture, err := os.ReadFile("testdata/session.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	// Without the 100 KiB line: large seeds make the fuzzer spend its time
	// minimising.
	var small [][]byte
	for _, l := range bytes.SplitAfter(fixture, []byte("\n")) {
		if len(l) < 4096 {
			small = append(small, l)
		}
	}
	f.Add(bytes.Join(small, nil), int64(0))
	f.Add(bytes.Join(small, nil), int64(1500))
	f.Add([]byte(`{"type":"assistant","message":{"id":"a","content":[{"type":"text","text":"x"}]}}`+"\n"+
		`{"type":"assistant","message":{"id":"a","content":[{"type":"text","text":"y"}]}}`), int64(90))
	f.Fuzz(func(t *testing.T, data []byte, max int64) {
		if max <= 0 || max > int64(len(data)) {
			max = int64(len(data))
		}
		checkLastText(t, data, max)
	})
}
