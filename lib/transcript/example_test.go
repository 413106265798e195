package transcript_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/lib/transcript"
)

func ExampleRead() {
	jsonl := `{"type":"user","message":{"role":"user","content":"Run the tests"},"uuid":"1","timestamp":"2025-10-14T09:00:00Z"}
{"type":"assistant","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"go test ./..."}}],"usage":{"input_tokens":12,"output_tokens":30,"cache_read_input_tokens":4000}},"uuid":"2"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok  \texample.com/m\t0.2s","is_error":false}]},"uuid":"3"}
{"type":"assistant","message":{"id":"msg_2","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"All tests pass."}],"usage":{"input_tokens":8,"output_tokens":6,"cache_read_input_tokens":4100}},"uuid":"4"}
`
	s, err := transcript.Read(context.Background(), strings.NewReader(jsonl), transcript.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Messages, "messages, model", s.Model)
	fmt.Printf("last answer: %q\n", s.LastAssistantText)
	for _, c := range s.ToolCalls {
		fmt.Printf("%s %v -> %q (error: %v)\n", c.Name, c.Input["command"], c.Result, c.IsError)
	}
	fmt.Printf("%+v\n", s.Usage)
	// Output:
	// 4 messages, model claude-sonnet-4-5-20250929
	// last answer: "All tests pass."
	// Bash go test ./... -> "ok  \texample.com/m\t0.2s" (error: false)
	// {InputTokens:20 OutputTokens:36 CacheCreationInputTokens:0 CacheReadInputTokens:8100}
}

// A Stop hook's view of a session: which tools failed, and what the
// assistant said last.
func ExampleReadFile() {
	s, err := transcript.ReadFile(context.Background(), "testdata/session.jsonl", transcript.Options{MaxToolCalls: 50})
	if err != nil {
		panic(err)
	}
	for _, c := range s.ToolCalls {
		if c.IsError {
			fmt.Printf("%s failed: %s\n", c.Name, strings.SplitN(c.Result, "\n", 2)[0])
		}
	}
	fmt.Println(len(s.ToolCalls), "tool calls,", s.Skipped, "malformed line")
	// Output:
	// Bash failed: Exit code 1
	// 4 tool calls, 1 malformed line
}

func ExampleLastAssistantText() {
	text, err := transcript.LastAssistantText(context.Background(), "testdata/session.jsonl")
	if err != nil {
		panic(err)
	}
	fmt.Println(text)
	// Output:
	// TestParseConfig is fixed: `parseSections` now sorts the section names, so the result no longer depends on map iteration order. `go test -count=150 ./...` passes.
	// I have not committed the change.
}

// DecodeLine reads one line, leniently: a field of an unexpected type
// (isSidechain as a string here) reads as its zero value rather than
// losing the line.
func ExampleDecodeLine() {
	l, err := transcript.DecodeLine([]byte(`{"type":"assistant","isSidechain":"no","message":{"id":"m1","content":[{"type":"text","text":"Done."},{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]}}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(l.Type, l.IsSidechain, l.Message.ID, l.Message.Text(), len(l.Message.Blocks()))
	_, err = transcript.DecodeLine([]byte(`{"type":"user"} {"type":"user"}`))
	fmt.Println(err)
	// Output:
	// assistant false m1 Done. 2
	// more than one JSON value on the line
}
