package replay_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/hookctl/hookctl/replay"
)

// Any input: no panic, an end, every event named and numbered within the
// input, and only a FormatError as a failure.
func FuzzReader(f *testing.F) {
	// The lines of the hand-made transcript, and a few together: large
	// seeds make the fuzzer spend its time minimising.
	b, err := os.ReadFile("testdata/policy.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	var small [][]byte
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		if len(l) < 1024 {
			f.Add(l)
			small = append(small, l)
		}
	}
	f.Add(bytes.Join(small[:6], nil))
	f.Add([]byte(lines(prompt("a"), toolUse("m", "t", "ls"), toolResult("t", "x", true), text("m2", "ok", ""))))
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"X","input":[1]}],"stop_reason":"end_turn"}}`))
	f.Add([]byte("{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"content\":{}}]}}\n\xff\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := replay.NewReader(bytes.NewReader(data), replay.WithMaxLine(4096))
		lines := bytes.Count(data, []byte("\n")) + 1
		for n := 0; ; n++ {
			ev, err := r.Next(context.Background())
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				var fe *replay.FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("error %v", err)
				}
				break
			}
			if ev.Line < 1 || ev.Line > lines || (ev.Name == "" && ev.Recorded == "") {
				t.Fatalf("event %+v", ev)
			}
			if n > 4*len(data)+10 {
				t.Fatal("more events than the input can hold")
			}
		}
		st := r.Stats()
		if st.Lines > lines || len(st.Problems) > replay.MaxProblems {
			t.Fatalf("stats %+v", st)
		}
	})
}
