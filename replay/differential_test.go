package replay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/hookctl/hookctl/lib/transcript"
	"github.com/hookctl/hookctl/replay"
)

// TestReadersAgree: replay's Reader (the hook events a session fired) and
// the JS module's transcript.Read (a summary for hooks) read the same
// transcripts through one line decoder, and see the same entries: the
// same tool calls in the same order with the same input, the same
// results, the same last prompt and the same last assistant text. Two
// transcripts are real Claude Code sessions (session-echo.jsonl is
// /work/shared/fixtures/claude-code/transcripts/session-echo.jsonl); in
// lenient.jsonl, fields of unexpected types (isSidechain a string, a
// fractional token count) and an empty text block, on which the two
// parsers once disagreed.
func TestReadersAgree(t *testing.T) {
	for _, file := range []string{"testdata/session-echo.jsonl", "../lib/transcript/testdata/session.jsonl", "testdata/lenient.jsonl"} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sum, err := transcript.Read(context.Background(), bytes.NewReader(data), transcript.Options{MaxBytes: -1, MaxToolCalls: -1})
			if err != nil {
				t.Fatal(err)
			}
			type call struct {
				id, name, input string
				rec             replay.Recorded
				errText         string
			}
			var calls []*call
			byID := map[string]*call{}
			var lastPrompt, lastStop string
			rd := replay.NewReader(bytes.NewReader(data))
			for {
				ev, err := rd.Next(context.Background())
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				switch ev.Name {
				case replay.EventPreToolUse:
					c := &call{id: ev.ToolUseID, name: ev.Tool, input: canon(t, ev.Payload["tool_input"]), rec: replay.RecordedNone}
					calls = append(calls, c)
					byID[c.id] = c
					continue
				case replay.EventUserPromptSubmit:
					lastPrompt, _ = ev.Payload["prompt"].(string)
				case replay.EventStop:
					lastStop, _ = ev.Payload["last_assistant_message"].(string)
				}
				if c := byID[ev.ToolUseID]; c != nil && ev.Recorded != "" {
					c.rec = ev.Recorded
					if ev.Name == replay.EventPostToolUseFailure {
						c.errText, _ = ev.Payload["error"].(string)
					}
				}
			}
			if len(calls) == 0 {
				t.Fatal("no tool call: the fixture is not a session")
			}
			if len(calls) != len(sum.ToolCalls) {
				t.Fatalf("replay sees %d tool calls, transcript.Read %d", len(calls), len(sum.ToolCalls))
			}
			for i, c := range calls {
				s := sum.ToolCalls[i]
				if c.id != s.ID || c.name != s.Name || c.input != canon(t, s.Input) {
					t.Errorf("call %d: replay %s %s %s, transcript.Read %s %s %s", i, c.id, c.name, c.input, s.ID, s.Name, canon(t, s.Input))
				}
				switch {
				case !s.HasResult:
					if c.rec != replay.RecordedNone {
						t.Errorf("%s: replay %q, transcript.Read no result", c.id, c.rec)
					}
				case !s.IsError:
					if c.rec != replay.RecordedRan {
						t.Errorf("%s: replay %q, transcript.Read a success", c.id, c.rec)
					}
				case c.rec == replay.RecordedRan || c.rec == replay.RecordedNone:
					t.Errorf("%s: replay %q, transcript.Read an error", c.id, c.rec)
				case c.rec == replay.RecordedFailed && c.errText != trimError(s.Result):
					t.Errorf("%s: replay's error %q, transcript.Read's %q", c.id, c.errText, s.Result)
				}
			}
			if lastPrompt != sum.LastUserText {
				t.Errorf("last prompt: replay %q, transcript.Read %q", lastPrompt, sum.LastUserText)
			}
			if lastStop != sum.LastAssistantText {
				t.Errorf("last assistant text: replay %q, transcript.Read %q", lastStop, sum.LastAssistantText)
			}
		})
	}
}

// canon is a value as JSON, so that json.Number and float64 compare.
func canon(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func trimError(s string) string {
	if len(s) >= 7 && s[:7] == "Error: " {
		return s[7:]
	}
	return s
}
