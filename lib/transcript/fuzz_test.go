package transcript_test

import (
	"bytes"
	"context"
	"reflect"
	"testing"
	"testing/iotest"

	"github.com/hookctl/hookctl/lib/transcript"
)

func FuzzRead(f *testing.F) {
	// The fixture without its 100 KiB line, whole and line by line: large
	// seeds make the fuzzer spend its time minimising.
	var small [][]byte
	for _, l := range bytes.SplitAfter(readFixture(f), []byte("\n")) {
		if len(l) < 4096 {
			small = append(small, l)
			f.Add(l, int64(0), 0)
		}
	}
	f.Add(bytes.Join(small, nil), int64(0), 0)
	f.Add(bytes.Join(small, nil), int64(3000), 2)
	f.Add([]byte(userText("hi")+assistant("m1", "claude", textBlock("yo"), `"input_tokens":1`)), int64(-1), -1)
	f.Add([]byte(toolResult("toolu_1", `[{"type":"text","text":"x"}]`, true)), int64(10), 1)
	f.Add([]byte("{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"content\":{}}]}}\n\xff\n"), int64(0), 0)
	f.Add([]byte(`{"type":"assistant","message":{"id":"a","content":[{"type":"tool_use","id":"t","input":[1]}]}}`), int64(5), 0)
	f.Fuzz(func(t *testing.T, data []byte, maxBytes int64, maxCalls int) {
		// Keep limits small so that they cut; any value must be safe.
		maxBytes %= 1 << 16
		opt := transcript.Options{MaxBytes: maxBytes, MaxToolCalls: maxCalls % 50}
		got, err := transcript.Read(context.Background(), bytes.NewReader(data), opt)
		if err != nil {
			t.Fatalf("Read from memory failed: %v", err)
		}
		if got.Messages != got.UserMessages+got.AssistantMessages {
			t.Fatalf("Messages %d != %d + %d", got.Messages, got.UserMessages, got.AssistantMessages)
		}
		if got.Skipped < 0 || got.UserMessages < 0 || got.AssistantMessages < 0 {
			t.Fatalf("negative counts: %+v", got)
		}
		if limit := opt.MaxToolCalls; limit > 0 && len(got.ToolCalls) > limit {
			t.Fatalf("%d tool calls kept, limit %d", len(got.ToolCalls), limit)
		}
		for _, c := range got.ToolCalls {
			if !c.HasResult && (c.Result != "" || c.IsError) {
				t.Fatalf("result without HasResult: %+v", c)
			}
		}
		streamed, err := transcript.Read(context.Background(), noSeek{iotest.HalfReader(bytes.NewReader(data))}, opt)
		if err != nil {
			t.Fatalf("streaming Read failed: %v", err)
		}
		if !reflect.DeepEqual(got, streamed) {
			t.Fatalf("seeking and streaming disagree:\n%+v\n%+v", summarize(got), summarize(streamed))
		}
	})
}
