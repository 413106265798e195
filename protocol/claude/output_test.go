package claude_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/claude"
)

// fuzzMaxInput bounds what the fuzz targets feed in: parsing is linear,
// so bigger inputs only make each run slower.
const fuzzMaxInput = 64 << 10

// outputEvents are events with different rules for a hook's output: plain
// text is context on UserPromptSubmit and SessionStart only; exit 2 blocks
// PreToolUse and Stop, and is a message on SessionStart.
var outputEvents = []string{"PreToolUse", "UserPromptSubmit", "SessionStart", "Stop", "Notification", "PermissionRequest"}

// FuzzParseOutput parses hostile command-hook stdout. It never panics and
// gives the same answer every time; a JSON object yields a result, with
// legacy "approve" read as "allow"; through Interpret, output that is not
// JSON (first non-space character not '{') is plain text: context on the
// events that take it, ignored elsewhere, never an error; and exit 2
// blocks whatever the JSON says.
func FuzzParseOutput(f *testing.F) {
	for _, s := range []string{
		"", "\n", "ok", "plain text\nline two", "  {", "{", "{}", " \n{}\n", "[]", `["x"]`, `"x"`, "null", "42",
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"uv pip install x"}}}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","additionalContext":"careful"}}`,
		`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"branch: main"}}`,
		`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no","interrupt":true,"updatedPermissions":[{"type":"setMode","mode":"plan"}]}}}`,
		`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"x":1},"updatedMCPToolOutput":"y"}}`,
		`{"hookSpecificOutput":{"permissionDecision":"deny","decision":{"behavior":"allow"}}}`,
		`{"hookSpecificOutput":"not an object","decision":"block"}`,
		`{"decision":"block","reason":"Run the tests first."}`,
		`{"decision":"approve","reason":"fine"}`,
		`{"decision":"block"}`,
		`{"decision":"approve","hookSpecificOutput":{"permissionDecision":"approve"}}`,
		`{"continue":false,"stopReason":"budget exhausted","systemMessage":"stopping","suppressOutput":true}`,
		`{"continue":true,"stop_reason":"x","stopReason":"y"}`,
		`{"systemMessage":"a","system_message":"b"}`,
		`{"decision":"deny","reason":1,"n":12345678901234567890,"f":1.5,"big":1e999,"neg":-0}`,
		`{"ok":false,"reason":"not done"}`,
		`{"a":1} trailing`, `{"a":1}{"b":2}`, `{"a":[1,{"b":[{}]}]}`,
		"{\"decision\":\"bl\xffock\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, stdout []byte) {
		if len(stdout) > fuzzMaxInput {
			t.Skip()
		}
		res, err := claude.ParseOutput(stdout)
		res2, err2 := claude.ParseOutput(stdout)
		if (err == nil) != (err2 == nil) || !reflect.DeepEqual(res, res2) {
			t.Fatalf("two parses differ: (%v, %v) then (%v, %v)", res, err, res2, err2)
		}
		if err != nil {
			var oe *protocol.OutputError
			if !errors.As(err, &oe) || err.Error() == "" || len(oe.Snippet) > 123 {
				t.Fatalf("error %T %v", err, err)
			}
		}

		var obj map[string]any
		trimmed := bytes.TrimLeft(stdout, " \t\r\n")
		isObject := json.Valid(stdout) && len(trimmed) > 0 && trimmed[0] == '{' && json.Unmarshal(stdout, &obj) == nil
		if isObject {
			if err != nil || res == nil {
				t.Fatalf("a JSON object gave (%v, %v)", res, err)
			}
			checkDialect(t, obj, res)
		}

		for _, ev := range outputEvents {
			r0, err0 := claude.Interpret(ev, 0, stdout, nil, "hook")
			switch {
			case !protocol.IsJSONOutput(stdout):
				if err0 != nil {
					t.Fatalf("%s: plain text output is an error: %v", ev, err0)
				}
				var want engine.Result
				if text := strings.TrimSpace(string(stdout)); text != "" && claude.PlainTextIsContext(ev) {
					want = engine.Result{"additional_context": text}
				}
				if !reflect.DeepEqual(r0, want) {
					t.Fatalf("%s: plain text gave %v, want %v", ev, r0, want)
				}
			case err != nil:
				if err0 == nil || r0 != nil {
					t.Fatalf("%s: output that is not valid JSON gave (%v, %v), want an error", ev, r0, err0)
				}
			default:
				want, _ := claude.ParseOutputFor(ev, stdout)
				if len(want) == 0 {
					want = nil
				}
				if err0 != nil || !reflect.DeepEqual(r0, want) {
					t.Fatalf("%s: exit 0 gave (%v, %v), want %v", ev, r0, err0, want)
				}
			}

			r2, err2 := claude.Interpret(ev, 2, stdout, []byte("denied by policy\n"), "hook")
			if err2 != nil {
				t.Fatalf("%s: exit 2 is an error: %v", ev, err2)
			}
			if ev == "PreToolUse" || ev == "Stop" {
				if r2["decision"] != "block" || r2["reason"] == "" || r2["reason"] == nil {
					t.Fatalf("%s: exit 2 does not block: %v", ev, r2)
				}
			}
		}
	})
}

// checkDialect checks the mapping of the Claude Code output fields whose
// reading is unambiguous in obj.
func checkDialect(t *testing.T, obj map[string]any, res engine.Result) {
	t.Helper()
	if res["decision"] == "approve" {
		t.Fatalf("legacy approve was not read as allow: %v", res)
	}
	if c, ok := obj["continue"].(bool); ok && res["continue"] != c {
		t.Fatalf("continue %v read as %v", c, res["continue"])
	}
	legacy := func(d any) any {
		if d == "approve" {
			return "allow"
		}
		return d
	}
	hso, _ := obj["hookSpecificOutput"].(map[string]any)
	pd, hasPD := hso["permissionDecision"]
	_, hasHD := hso["decision"]
	switch {
	case hasPD && !hasHD:
		if res["decision"] != legacy(pd) && !(pd == nil && res["decision"] == nil) {
			t.Fatalf("permissionDecision %v read as %v", pd, res["decision"])
		}
	case !hasPD && !hasHD:
		if d, ok := obj["decision"]; ok && !reflect.DeepEqual(res["decision"], legacy(d)) {
			t.Fatalf("decision %v read as %v", d, res["decision"])
		}
	}
}

// TestParseOutputIsDeterministic: an output naming a field twice used to
// give a result that depended on map iteration order (found by
// FuzzParseOutput: permissionDecision "deny" with decision.behavior
// "allow" was read as either).
func TestParseOutputIsDeterministic(t *testing.T) {
	for in, want := range map[string]engine.Result{
		`{"hookSpecificOutput":{"permissionDecision":"deny","decision":{"behavior":"allow"}}}`: {"decision": "deny"},
		`{"stopReason":"a","stop_reason":"b"}`:                                                 {"stop_reason": "b"},
		`{"systemMessage":"a","system_message":"b"}`:                                           {"system_message": "b"},
		`{"hookSpecificOutput":{"updatedInput":{"a":1},"decision":{"updatedInput":{"b":2}}}}`:  {"updated_input": map[string]any{"a": int64(1)}},
	} {
		for range 50 {
			got, err := claude.ParseOutput([]byte(in))
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: got %v (%v), want %v", in, got, err, want)
			}
		}
	}
}

func TestParseOutputDialects(t *testing.T) {
	cases := []struct {
		in   string
		want map[string]any
	}{
		{`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"r","updatedInput":{"a":1},"additionalContext":"c"}}`,
			map[string]any{"decision": "ask", "reason": "r", "updated_input": map[string]any{"a": int64(1)}, "additional_context": "c"}},
		{`{"decision":"block","reason":"why"}`, map[string]any{"decision": "block", "reason": "why"}},
		{`{"decision":"approve"}`, map[string]any{"decision": "allow"}},
		{`{"continue":false,"stopReason":"s","systemMessage":"m","suppressOutput":true}`,
			map[string]any{"continue": false, "stop_reason": "s", "system_message": "m", "suppress_output": true}},
		{`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"x":"y"}}}`, map[string]any{"updated_output": map[string]any{"x": "y"}}},
		{`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"c":"d"},"interrupt":true}}}`,
			map[string]any{"decision": "allow", "updated_input": map[string]any{"c": "d"}, "interrupt": true}},
		{`{"hookSpecificOutput":{"hookEventName":"SessionStart","sessionTitle":"t","watchPaths":["a"]}}`, map[string]any{"session_title": "t", "watch_paths": []any{"a"}}},
	}
	for _, tc := range cases {
		got, err := claude.ParseOutput([]byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(tc.want)
		if string(gb) != string(wb) {
			t.Errorf("%s\n got %s\nwant %s", tc.in, gb, wb)
		}
	}
	if _, err := claude.ParseOutput([]byte(`{"a":`)); err == nil {
		t.Error("invalid JSON accepted")
	}
	if protocol.IsJSONOutput([]byte("  plain")) || !protocol.IsJSONOutput([]byte("\n {}")) {
		t.Error("IsJSONOutput")
	}
}
