package schema

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hookctl/hookctl/engine"
)

// TestRealPayloadsResolve: every field of every payload the real Claude
// Code CLI sent (recorded) is listed by the schema, tool_input's under the
// tool that was called; nested members resolve too.
func TestRealPayloadsResolve(t *testing.T) {
	files, err := filepath.Glob("../internal/dtsgen/testdata/claude-code/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no payloads: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var payload map[string]any
		if err := json.Unmarshal(b, &payload); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		event, _ := payload["hook_event_name"].(string)
		root, ok := Payload(event)
		if !ok {
			t.Errorf("%s: no payload for %s", filepath.Base(f), event)
			continue
		}
		var tools []string
		if tn, ok := payload["tool_name"].(string); ok {
			tools = []string{tn}
			if _, ok := ToolInput(tn); !ok {
				t.Errorf("%s: no tool_input for %s", filepath.Base(f), tn)
			}
		}
		for k, v := range payload {
			if _, ok := root.Field(k); !ok {
				t.Errorf("%s: %s's payload does not list %s", filepath.Base(f), event, k)
			}
			walk(t, filepath.Base(f), event, tools, []string{k}, v)
		}
	}
}

func walk(t *testing.T, file, event string, tools []string, path []string, v any) {
	t.Helper()
	f, err := Resolve(event, tools, path)
	if err != nil {
		t.Errorf("%s: %v", file, err)
		return
	}
	if f.Type == Object && !f.Open {
		// A closed object must list every member it was sent.
		m, _ := v.(map[string]any)
		for k := range m {
			if _, ok := f.Field(k); !ok {
				t.Errorf("%s: %v has no %s", file, path, k)
			}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			walk(t, file, event, tools, append(slices.Clone(path), k), e)
		}
	case []any:
		for _, e := range x {
			walk(t, file, event, tools, append(slices.Clone(path), "0"), e)
		}
	}
}

func TestResolve(t *testing.T) {
	for _, c := range []struct {
		event string
		tools []string
		path  []string
		want  Type   // when no error
		err   string // the error
		sugg  string
	}{
		{event: "PreToolUse", tools: []string{"Bash"}, path: []string{"tool_input", "command"}, want: String},
		{event: "PreToolUse", tools: []string{"Bash"}, path: []string{"tool_input", "comand"},
			err: `tool_input.comand: Bash has no field "comand"; did you mean "command"?`, sugg: "command"},
		{event: "PreToolUse", tools: []string{"Bash"}, path: []string{"tool_input", "zzz"},
			err: `tool_input.zzz: Bash has no field "zzz"`},
		{event: "PreToolUse", tools: []string{"Bash", "Write"}, path: []string{"tool_input", "file_path"}, want: String},
		{event: "PreToolUse", tools: []string{"Bash", "Write"}, path: []string{"tool_input", "command"}, want: String},
		{event: "PreToolUse", tools: []string{"Bash", "Write"}, path: []string{"tool_input", "file_pat"},
			err: `tool_input.file_pat: Bash or Write has no field "file_pat"; did you mean "file_path"?`, sugg: "file_path"},
		// Another host's name for Bash.
		{event: "PreToolUse", tools: []string{"run_shell_command"}, path: []string{"tool_input", "directory"}, want: String},
		{event: "PreToolUse", tools: []string{"run_shell_command"}, path: []string{"tool_input", "comand"}, err: `tool_input.comand: run_shell_command has no field "comand"; did you mean "command"?`, sugg: "command"},
		// MCP and unknown tools are open: only a near name is reported.
		{event: "PreToolUse", tools: []string{"mcp__github__create_issue"}, path: []string{"tool_input", "title"}, want: Any},
		{event: "PreToolUse", tools: []string{"Bash", "mcp__x__y"}, path: []string{"tool_input", "zzz"}, want: Any},
		{event: "PreToolUse", tools: []string{"Bash", "mcp__x__y"}, path: []string{"tool_input", "comand"},
			err: `tool_input.comand: Bash or mcp__x__y has no field "comand"; did you mean "command"?`, sugg: "command"},
		// Any tool: open.
		{event: "PreToolUse", path: []string{"tool_input", "anything"}, want: Any},
		{event: "PreToolUse", path: []string{"tool_input", "file_pth"}, err: `tool_input.file_pth: tool_input has no field "file_pth"; did you mean "file_path"?`, sugg: "file_path"},
		// The root is open: hosts add fields.
		{event: "PreToolUse", path: []string{"mcp_context"}, want: Any},
		{event: "PreToolUse", path: []string{"tool_inptu"}, err: `tool_inptu: PreToolUse's payload has no field "tool_inptu"; did you mean "tool_input"?`, sugg: "tool_input"},
		{event: "PreToolUse", path: []string{"tool"}, want: String},
		{event: "Stop", path: []string{"loop_count"}, want: Number},
		{event: "PostToolUse", tools: []string{"Write"}, path: []string{"tool_response", "filePath"}, want: Any},
		{event: "PostToolBatch", path: []string{"tool_calls", "0", "tool_name"}, want: String},
		{event: "PostToolBatch", path: []string{"tool_calls", "0", "tool_nme"}, err: `tool_calls.0.tool_nme: tool_calls.0 has no field "tool_nme"; did you mean "tool_name"?`, sugg: "tool_name"},
		{event: "PreToolUse", tools: []string{"MultiEdit"}, path: []string{"tool_input", "edits", "0", "old_sting"},
			err: `tool_input.edits.0.old_sting: tool_input.edits.0 has no field "old_sting"; did you mean "old_string"?`, sugg: "old_string"},
		// Unknown events and scalars are not checked.
		{event: "before_model_resolve", path: []string{"anything", "at", "all"}, want: Any},
		{event: "PreToolUse", tools: []string{"Bash"}, path: []string{"tool_input", "command", "length"}, want: Any},
	} {
		f, err := Resolve(c.event, c.tools, c.path)
		if c.err == "" {
			if err != nil || f.Type != c.want {
				t.Errorf("%s %v %v: %v %v, want %v", c.event, c.tools, c.path, f.Type, err, c.want)
			}
			continue
		}
		var u *UnknownFieldError
		if !errors.As(err, &u) || err.Error() != c.err || u.Suggestion != c.sugg {
			t.Errorf("%s %v %v: %v, want %s", c.event, c.tools, c.path, err, c.err)
		}
	}
}

func TestToolInputByHostName(t *testing.T) {
	for _, n := range []string{"Bash", "bash", "shell", "run_shell_command", "Write", "write_file", "Edit", "apply_patch", "Task", "Agent", "MultiEdit"} {
		if _, ok := ToolInput(n); !ok {
			t.Errorf("ToolInput(%q): not known", n)
		}
	}
	if _, ok := ToolInput("mcp__github__create_issue"); ok {
		t.Error("an MCP tool's input is known")
	}
	if !slices.Contains(Tools(), "Bash") || slices.Contains(Tools(), "bash") {
		t.Errorf("Tools() = %v", Tools())
	}
}

// TestOtherHostsToolInputsResolve: crush's tool calls (recorded), by its
// own tool names, resolve under the canonical tools' inputs.
func TestOtherHostsToolInputsResolve(t *testing.T) {
	files, err := filepath.Glob("testdata/crush/PreToolUse.*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no payloads: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var payload struct {
			ToolName  string         `json:"tool_name"`
			ToolInput map[string]any `json:"tool_input"`
		}
		if err := json.Unmarshal(b, &payload); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		in, ok := ToolInput(payload.ToolName)
		if !ok {
			t.Errorf("%s: no tool_input for %s", filepath.Base(f), payload.ToolName)
		}
		for k := range payload.ToolInput {
			if _, ok := in.Field(k); !ok {
				t.Errorf("%s: %s's input does not list %s", filepath.Base(f), payload.ToolName, k)
			}
		}
	}
}

// TestDeclaredHostToolsResolve: every parameter Gemini CLI and Codex
// declare for their tools (testdata/hosts/declared.json, read from the
// released packages) resolves as tool_input.<name> under each Claude Code
// matcher that matches the tool (its canonical name; Write for Codex's
// apply_patch too), so validate --strict does not fail a correct guard
// for those hosts.
func TestDeclaredHostToolsResolve(t *testing.T) {
	b, err := os.ReadFile("testdata/hosts/declared.json")
	if err != nil {
		t.Fatal(err)
	}
	var decl struct {
		Hosts map[string]map[string][]string `json:"hosts"`
		Also  map[string][]string            `json:"also"`
	}
	if err := json.Unmarshal(b, &decl); err != nil {
		t.Fatal(err)
	}
	for host, tools := range decl.Hosts {
		for tool, fields := range tools {
			matchers := append([]string{engine.CanonicalTool(tool)}, decl.Also[tool]...)
			for _, m := range matchers {
				if _, ok := ToolInput(m); !ok {
					t.Errorf("%s %s: no tool_input for %s", host, tool, m)
					continue
				}
				for _, f := range fields {
					if _, err := Resolve("PreToolUse", []string{m}, []string{"tool_input", f}); err != nil {
						t.Errorf("%s %s (matcher %s): %v", host, tool, m, err)
					}
				}
			}
		}
	}
}
