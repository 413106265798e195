package replay_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/replay"
)

// readAll reads every event of a transcript.
func readAll(t *testing.T, src string, opts ...replay.Option) ([]replay.Event, replay.Stats, error) {
	t.Helper()
	r := replay.NewReader(strings.NewReader(src), opts...)
	var evs []replay.Event
	for {
		ev, err := r.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return evs, r.Stats(), nil
		}
		if err != nil {
			return evs, r.Stats(), err
		}
		evs = append(evs, ev)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// brief is an event as "LINE:TURN NAME TOOL INPUT [RECORDED]".
func brief(ev replay.Event) string {
	s := fmt.Sprintf("%d:%d %s", ev.Line, ev.Turn, ev.Name)
	if ev.Name == "" {
		s += "(no event)"
	}
	if ev.Tool != "" {
		s += " " + ev.Tool
	}
	if ev.Input != "" {
		s += " " + ev.Input
	}
	if ev.Recorded != "" {
		s += " [" + string(ev.Recorded) + "]"
	}
	return s
}

func briefs(evs []replay.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = brief(ev)
	}
	return out
}

func sameList(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// The transcript the real Claude Code CLI wrote for a session that ran
// `echo hi`: its events, in order, with payloads of the shape the same CLI
// sent to hooks (testdata/payloads holds real ones).
func TestReaderRealTranscript(t *testing.T) {
	evs, st, err := readAll(t, readFile(t, "testdata/session-echo.jsonl"), replay.WithPath("/home/dev/.claude/projects/-home-dev-shop/a4950e27.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sameList(t, briefs(evs), []string{
		"3:0 SessionStart startup",
		"3:1 UserPromptSubmit Please clean up the temporary directory.",
		"26:1 PreToolUse Bash echo hi",
		"27:1 PostToolUse Bash echo hi [ran]",
		`32:1 Stop FAKE-FINAL: done. tool_result=["hi"]`,
	})
	if st.Lines != 35 || st.Prompts != 1 || st.ToolCalls != 1 || st.Results != 1 || st.Malformed != 0 || st.Unanswered != 0 {
		t.Errorf("stats %+v", st)
	}
	if want := []string{"a4950e27-00e0-475f-b58a-0866620f938a"}; !slices.Equal(st.Sessions, want) {
		t.Errorf("sessions %v", st.Sessions)
	}
	for typ, n := range map[string]int{"attachment": 12, "system": 1, "queue-operation": 2, "last-prompt": 4, "cost-state": 1} {
		if st.Skipped[typ] != n {
			t.Errorf("skipped %s = %d, want %d (all: %v)", typ, st.Skipped[typ], n, st.Skipped)
		}
	}
	fixtures := map[string]string{
		"SessionStart": "SessionStart.startup.json", "UserPromptSubmit": "UserPromptSubmit.json",
		"PreToolUse": "PreToolUse.Bash.json", "PostToolUse": "PostToolUse.Bash.json", "Stop": "Stop.json",
	}
	for _, ev := range evs {
		var real map[string]any
		if err := json.Unmarshal([]byte(readFile(t, "testdata/payloads/"+fixtures[ev.Name])), &real); err != nil {
			t.Fatal(err)
		}
		delete(real, "duration_ms") // not in transcripts
		if got, want := keys(ev.Payload), keys(real); !slices.Equal(got, want) {
			t.Errorf("%s payload fields\n got %v\nwant %v", ev.Name, got, want)
		}
		if ev.Payload["hook_event_name"] != ev.Name || ev.Payload["session_id"] != "a4950e27-00e0-475f-b58a-0866620f938a" ||
			ev.Payload["cwd"] != "/home/dev/shop" || ev.Payload["transcript_path"] != "/home/dev/.claude/projects/-home-dev-shop/a4950e27.jsonl" {
			t.Errorf("%s payload %v", ev.Name, ev.Payload)
		}
	}
	pre, post, stop := evs[2].Payload, evs[3].Payload, evs[4].Payload
	if !reflect.DeepEqual(pre["tool_input"], map[string]any{"command": "echo hi", "description": "say hi"}) ||
		pre["tool_use_id"] != "toolu_76184875d71a414b87c1b243" || pre["permission_mode"] != "bypassPermissions" ||
		!reflect.DeepEqual(pre["effort"], map[string]any{"level": "medium"}) || pre["prompt_id"] != "332912d7-bb95-45b8-9c7d-369429ee94f0" {
		t.Errorf("PreToolUse payload %v", pre)
	}
	// tool_response is the structured toolUseResult, as the CLI sends it.
	want := map[string]any{"stdout": "hi", "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false}
	if !reflect.DeepEqual(post["tool_response"], want) {
		t.Errorf("tool_response %#v", post["tool_response"])
	}
	if stop["last_assistant_message"] != `FAKE-FINAL: done. tool_result=["hi"]` || stop["stop_hook_active"] != false {
		t.Errorf("Stop payload %v", stop)
	}
}

func keys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}

// The hand-made transcript: every kind of line a replay reads or skips.
func TestReaderPolicyTranscript(t *testing.T) {
	evs, st, err := readAll(t, readFile(t, "testdata/policy.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sameList(t, briefs(evs), []string{
		"2:0 SessionStart startup",
		"2:1 UserPromptSubmit please refactor the config loader, and install requests for the scripts",
		"5:1 PreToolUse Read /home/dev/shop/config/load.go",
		"6:1 PostToolUse Read /home/dev/shop/config/load.go [ran]",
		"7:1 PreToolUse Bash pip install requests",
		"8:1 PostToolUse Bash pip install requests [ran]",
		"9:1 PreToolUse Read /home/dev/shop/.env",
		"10:1 PostToolUse Read /home/dev/shop/.env [ran]",
		"11:1 PreToolUse Write /home/dev/shop/config/load.go",
		"12:1 PostToolUse Write /home/dev/shop/config/load.go [ran]",
		"13:1 PreToolUse Bash go test ./...",
		"14:1 PostToolUseFailure Bash go test ./... [failed]",
		"16:1 PreToolUse Bash git push origin main",
		"17:1 (no event) Bash git push origin main [rejected]",
		"21:2 UserPromptSubmit now clean up: remove the old build output in my home directory",
		"23:2 PreToolUse Bash rm -rf ~/",
		"24:2 (no event) Bash rm -rf ~/ [blocked]",
		"27:2 Stop I did not remove anything: the command was blocked. Removed nothing else.",
	})
	fail := evs[11].Payload
	if fail["error"] != "Exit code 1\n--- FAIL: TestLoad (0.00s)\nFAIL" || fail["is_interrupt"] != false || fail["tool_response"] != nil {
		t.Errorf("PostToolUseFailure payload %v", fail)
	}
	if evs[16].Payload != nil {
		t.Errorf("a result that fires no event has a payload: %v", evs[16].Payload)
	}
	want := map[string]int{
		"queue-operation": 1, "attachment": 1, "interruption": 1, "meta message": 1, "command message": 1,
		"sidechain (subagent) message": 1, "future-line-type": 1, "system": 1,
	}
	if !maps.Equal(st.Skipped, want) {
		t.Errorf("skipped %v, want %v", st.Skipped, want)
	}
	if st.Malformed != 1 || len(st.Problems) != 1 || st.Problems[0].Line != 15 || !strings.Contains(st.Problems[0].Err, "invalid JSON") {
		t.Errorf("problems %d %v", st.Malformed, st.Problems)
	}
}

// Lines of transcripts, for the tests below.
func prompt(text string) string {
	return fmt.Sprintf(`{"type":"user","sessionId":"s1","cwd":"/p","message":{"role":"user","content":%q}}`, text)
}

func text(msgID, text, stop string) string {
	sr := "null"
	if stop != "" {
		sr = fmt.Sprintf("%q", stop)
	}
	return fmt.Sprintf(`{"type":"assistant","sessionId":"s1","cwd":"/p","message":{"id":%q,"role":"assistant","content":[{"type":"text","text":%q}],"stop_reason":%s}}`, msgID, text, sr)
}

func toolUse(msgID, id, command string) string {
	return fmt.Sprintf(`{"type":"assistant","sessionId":"s1","cwd":"/p","message":{"id":%q,"role":"assistant","content":[{"type":"tool_use","id":%q,"name":"Bash","input":{"command":%q,"timeout":5000}}],"stop_reason":"tool_use"}}`, msgID, id, command)
}

func toolResult(id, content string, isError bool) string {
	return fmt.Sprintf(`{"type":"user","sessionId":"s1","cwd":"/p","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":%q,"is_error":%v}]}}`, id, content, isError)
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// Stop fires when the assistant ends its turn, by the rule doc.go states.
func TestReaderStop(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"end_turn over several lines of one message", lines(
			prompt("hi"),
			`{"type":"assistant","message":{"id":"m1","content":[{"type":"thinking","thinking":"hm"}],"stop_reason":"end_turn"}}`,
			text("m1", "first part", "end_turn"),
			text("m1", "second part", "end_turn"),
			`{"type":"system","subtype":"stop_hook_summary"}`,
		), []string{"1:0 SessionStart startup", "1:1 UserPromptSubmit hi", "4:1 Stop first part second part"}},
		{"a Stop hook kept the agent working: two Stops in one turn", lines(
			prompt("hi"), text("m1", "done", "end_turn"), text("m2", "really done", "end_turn"),
		), []string{"1:0 SessionStart startup", "1:1 UserPromptSubmit hi", "2:1 Stop done", "3:1 Stop really done"}},
		{"no stop_reason: the last answer of the turn", lines(
			prompt("one"), text("m1", "let me look", ""), toolUse("m2", "t1", "ls"), toolResult("t1", "a", false),
			text("m3", "found a", ""), prompt("two"), text("m4", "ok", ""),
		), []string{"1:0 SessionStart startup", "1:1 UserPromptSubmit one", "3:1 PreToolUse Bash ls", "4:1 PostToolUse Bash ls [ran]",
			"5:1 Stop found a", "6:2 UserPromptSubmit two", "7:2 Stop ok"}},
		{"an interrupted turn has no Stop", lines(
			prompt("one"), text("m1", "working on", ""), `{"type":"user","message":{"content":[{"type":"text","text":"[Request interrupted by user]"}]}}`,
		), []string{"1:0 SessionStart startup", "1:1 UserPromptSubmit one"}},
		{"an API error ends the turn without Stop", lines(
			prompt("one"), `{"type":"assistant","isApiErrorMessage":true,"message":{"id":"e","content":[{"type":"text","text":"API Error: 529"}],"stop_reason":"stop_sequence"}}`,
		), []string{"1:0 SessionStart startup", "1:1 UserPromptSubmit one"}},
		{"tool_use stop_reason and max_tokens are no Stop", lines(
			prompt("one"), text("m1", "I will run", "tool_use"), text("m2", "cut sho", "max_tokens"),
		), []string{"1:0 SessionStart startup", "1:1 UserPromptSubmit one"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, _, err := readAll(t, c.src)
			if err != nil {
				t.Fatal(err)
			}
			sameList(t, briefs(evs), c.want)
		})
	}
}

// Hostile and broken inputs: never a crash or a hang; bad lines are
// problems with their line numbers; only an input with no transcript line
// at all is an error.
func TestReaderBadInput(t *testing.T) {
	huge := `{"type":"user","message":{"content":"` + strings.Repeat("x", 5000) + `"}}`
	cases := []struct {
		name     string
		src      string
		opts     []replay.Option
		want     []string // events
		problems []string // "LINE: substring"
		fatal    string   // substring of a FormatError
	}{
		{name: "empty", src: "", fatal: "empty transcript"},
		{name: "blank lines only", src: "\n\n  \n", fatal: "none of its 3 line(s)"},
		{name: "not JSON", src: "hello\nworld\n", fatal: "line 1: not a JSON object"},
		{name: "pretty-printed JSON", src: "{\n  \"type\": \"user\"\n}\n", fatal: "line 1: invalid JSON"},
		{name: "binary", src: "\x00\xff\xfe{\x00}\n\x1b[31m", fatal: "not a Claude Code transcript"},
		{name: "JSON without type", src: `{"message":{"content":"hi"}}` + "\n", fatal: `line 1: no "type"`},
		{
			name: "bad lines among good ones",
			src: lines(`[1,2]`, `{"type":"user"} {"type":"user"}`, prompt("hi"), `{"type":"user","message":{"content":{"a":1}}}`,
				`{"type":"assistant"}`, `{"type":"assistant","message":{"content":[{"type":"tool_use","input":{}}]}}`, `{"type":"user","message":`),
			want: []string{"3:0 SessionStart startup", "3:1 UserPromptSubmit hi"},
			problems: []string{"1: not a JSON object", "2: more than one JSON value", "4: neither a string nor a list", "5: without a message",
				"6: tool_use block without an id", "7: unexpected end of line"},
		},
		{
			name: "a line longer than the limit is skipped, the next one read",
			src:  lines(huge, prompt("after")), opts: []replay.Option{replay.WithMaxLine(1000)},
			want:     []string{"2:0 SessionStart startup", "2:1 UserPromptSubmit after"},
			problems: []string{"1: line longer than 1000 bytes"},
		},
		{
			name: "a long last line without a newline",
			src:  prompt("before") + "\n" + huge, opts: []replay.Option{replay.WithMaxLine(1000)},
			want:     []string{"1:0 SessionStart startup", "1:1 UserPromptSubmit before"},
			problems: []string{"2: line longer than 1000 bytes"},
		},
		{
			name: "CRLF line ends and odd field types",
			src: `{"type":"user","isSidechain":"no","isMeta":1,"sessionId":7,"cwd":["x"],"message":{"content":"hi"}}` + "\r\n" +
				`{"type":"assistant","effort":{"level":"high"},"message":{"id":3,"content":[{"type":"text","text":"ok"}],"stop_reason":5}}` + "\r\n",
			want: []string{"1:0 SessionStart startup", "1:1 UserPromptSubmit hi", "2:1 Stop ok"},
		},
		{
			name: "results without calls, repeated calls and results",
			src: lines(prompt("go"), toolResult("nope", "x", false), toolUse("m1", "t1", "ls"), toolUse("m1", "t1", "ls"),
				toolResult("t1", "a", false), toolResult("t1", "a", false)),
			want: []string{"1:0 SessionStart startup", "1:1 UserPromptSubmit go", "3:1 PreToolUse Bash ls", "5:1 PostToolUse Bash ls [ran]"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, st, err := readAll(t, c.src, c.opts...)
			if c.fatal != "" {
				var fe *replay.FormatError
				if !errors.As(err, &fe) || !strings.Contains(err.Error(), c.fatal) {
					t.Fatalf("err = %v, want a FormatError with %q", err, c.fatal)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sameList(t, briefs(evs), c.want)
			var got []string
			for _, p := range st.Problems {
				got = append(got, p.String())
			}
			if len(got) != len(c.problems) || st.Malformed != len(c.problems) {
				t.Fatalf("problems %q, want %q", got, c.problems)
			}
			for i, p := range c.problems {
				line, sub, _ := strings.Cut(p, ": ")
				if !strings.HasPrefix(got[i], "line "+line+": ") || !strings.Contains(got[i], sub) {
					t.Errorf("problem %d = %q, want line %s with %q", i, got[i], line, sub)
				}
			}
		})
	}
}

func TestReaderSkipsAndCounts(t *testing.T) {
	_, st, err := readAll(t, lines(prompt("go"), toolResult("nope", "x", false), toolUse("m1", "t1", "ls"), toolUse("m1", "t1", "ls"),
		toolResult("t1", "a", false), toolResult("t1", "a", false), toolUse("m2", "t2", "sleep 100")))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"tool_result without its tool_use": 1, "repeated tool_use": 1, "repeated tool_result": 1}
	if !maps.Equal(st.Skipped, want) || st.Unanswered != 1 || st.ToolCalls != 2 || st.Results != 1 {
		t.Errorf("stats %+v", st)
	}
}

// Many bad lines: all counted, the first MaxProblems kept.
func TestReaderManyProblems(t *testing.T) {
	src := prompt("hi") + "\n" + strings.Repeat("garbage\n", replay.MaxProblems+50)
	_, st, err := readAll(t, src)
	if err != nil {
		t.Fatal(err)
	}
	if st.Malformed != replay.MaxProblems+50 || len(st.Problems) != replay.MaxProblems {
		t.Errorf("malformed %d, problems kept %d", st.Malformed, len(st.Problems))
	}
}

// What the session did with a call, from its tool_result.
func TestReaderRecorded(t *testing.T) {
	cases := map[string]replay.Recorded{
		"Exit code 2\nboom": replay.RecordedFailed,
		"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).": replay.RecordedRejected,
		"The user doesn't want to take this action right now. STOP what you are doing.":                                                                           replay.RecordedRejected,
		"[Request interrupted by user for tool use]":                                                                                                              replay.RecordedRejected,
		"Permission to use Bash with command rm -rf /tmp/x has been denied.":                                                                                      replay.RecordedDenied,
		"PreToolUse:Bash hook error: [python3 guard.py]: E2E-HOOK-BLOCK: 'rm -rf' is not allowed":                                                                 replay.RecordedBlocked,
		"<tool_use_error>InputValidationError: Bash failed due to the following issue: command is missing</tool_use_error>":                                       replay.RecordedInvalid,
	}
	for content, want := range cases {
		evs, _, err := readAll(t, lines(prompt("go"), toolUse("m1", "t1", "x"), toolResult("t1", content, true)))
		if err != nil {
			t.Fatal(err)
		}
		last := evs[len(evs)-1]
		if last.Recorded != want {
			t.Errorf("%q: recorded %q, want %q", content, last.Recorded, want)
		}
		if fires := last.Name != ""; fires != (want == replay.RecordedFailed) {
			t.Errorf("%q: event %q", content, last.Name)
		}
	}
}

// Tool input numbers are int64 or float64, as the hookctl adapters decode
// them; payloads are deep copies, so a fire cannot change another's.
func TestReaderPayloadValues(t *testing.T) {
	evs, _, err := readAll(t, lines(prompt("go"), toolUse("m1", "t1", "ls"), toolResult("t1", "a", false)))
	if err != nil {
		t.Fatal(err)
	}
	pre, post := evs[2].Payload, evs[3].Payload
	if v := pre["tool_input"].(map[string]any)["timeout"]; v != int64(5000) {
		t.Errorf("timeout = %#v", v)
	}
	pre["tool_input"].(map[string]any)["command"] = "changed"
	if post["tool_input"].(map[string]any)["command"] != "ls" {
		t.Error("PreToolUse and PostToolUse share tool_input")
	}
	c := replay.Clone(post)
	c["tool_input"].(map[string]any)["command"] = "changed"
	if post["tool_input"].(map[string]any)["command"] != "ls" {
		t.Error("Clone shares nested maps")
	}
}

func TestReaderContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := replay.NewReader(strings.NewReader(prompt("hi"))).Next(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

func TestSummarize(t *testing.T) {
	cases := []struct {
		tool  string
		input map[string]any
		want  string
	}{
		{"Bash", map[string]any{"command": "go  test\n./...", "description": "Run"}, "go test ./..."},
		{"Read", map[string]any{"file_path": "/p/a.go"}, "/p/a.go"},
		{"Grep", map[string]any{"pattern": "TODO", "path": "/p"}, "TODO in /p"},
		{"WebFetch", map[string]any{"url": "https://example.com", "prompt": "summarise"}, "https://example.com"},
		{"TodoWrite", map[string]any{"todos": []any{1, 2}}, "2 todos"},
		{"mcp__x__y", map[string]any{"b": 1, "a": true}, `{"a":true,"b":1}`},
		{"Bash", map[string]any{"command": "echo \x1b[31mred\x1b[0m \u202eevil\x00"}, "echo [31mred[0m evil"},
		{"Bash", map[string]any{"command": "echo \xff"}, "echo \ufffd"},
		{"Bash", map[string]any{"command": strings.Repeat("é", 300)}, strings.Repeat("é", 199) + "…"},
		{"X", nil, ""},
	}
	for _, c := range cases {
		if got := replay.Summarize(c.tool, c.input); got != c.want {
			t.Errorf("Summarize(%s, %v) = %q, want %q", c.tool, c.input, got, c.want)
		}
	}
}
