package codex_test

import (
	"reflect"
	"testing"

	"github.com/hookctl/hookctl/protocol/codex"
)

func applyPatchPayload(text any) map[string]any {
	return map[string]any{
		"hook_event_name": "PreToolUse", "session_id": "s", "turn_id": "t", "cwd": "/p",
		"tool_name": "apply_patch", "tool_input": map[string]any{"command": text},
	}
}

// TestDecodeApplyPatch: the files of an apply_patch call are read out of
// its patch text into file_path, paths and content.
func TestDecodeApplyPatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		text any
		want map[string]any // fields of tool_input besides command
	}{
		{
			name: "one added file",
			text: "*** Begin Patch\n*** Add File: .env\n+TOKEN=x\n*** End Patch\n",
			want: map[string]any{"file_path": ".env", "paths": []any{".env"}, "content": "TOKEN=x\n"},
		},
		{
			name: "several files and a move",
			text: "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** Delete File: b.txt\n*** Update File: c.go\n*** Move to: ../.env\n@@\n-x\n+y\n*** End Patch",
			want: map[string]any{"paths": []any{"a.txt", "b.txt", "c.go", "../.env"}},
		},
		{
			name: "one added file beside an update",
			text: "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** Add File: /home/u/.ssh/id_rsa\n+KEY\n*** End Patch",
			want: map[string]any{"paths": []any{"a.txt", "/home/u/.ssh/id_rsa"}, "content": "KEY\n"},
		},
		{
			name: "malformed",
			text: "*** Begin Patch\n*** Add File: .env\n+x\n",
			want: map[string]any{"paths_unknown": true, "paths_error": "invalid patch: the last line must be '*** End Patch'"},
		},
		{
			name: "not text",
			text: 42,
			want: map[string]any{"paths_unknown": true, "paths_error": "no patch text in tool_input.command"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := applyPatchPayload(tc.text)
			ev, err := codex.New().Decode(raw, "")
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			in, _ := ev.Payload["tool_input"].(map[string]any)
			got := map[string]any{}
			for k, v := range in {
				if k != "command" {
					got[k] = v
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("tool_input = %#v, want %#v", got, tc.want)
			}
			if in["command"] != tc.text {
				t.Errorf("command = %#v, want it kept", in["command"])
			}
			if orig := raw["tool_input"].(map[string]any); len(orig) != 1 {
				t.Errorf("the caller's payload was changed: %#v", orig)
			}
		})
	}
}

// TestDecodeApplyPatchReplacesFields: the patch, which is what Codex
// applies, wins over path fields the input came with.
func TestDecodeApplyPatchReplacesFields(t *testing.T) {
	raw := applyPatchPayload("*** Begin Patch\n*** Add File: .env\n+x\n*** Add File: b\n+y\n*** End Patch")
	raw["tool_input"].(map[string]any)["file_path"] = "harmless.txt"
	raw["tool_input"].(map[string]any)["paths_unknown"] = false
	ev, err := codex.New().Decode(raw, "")
	if err != nil {
		t.Fatal(err)
	}
	in := ev.Payload["tool_input"].(map[string]any)
	if _, ok := in["file_path"]; ok {
		t.Errorf("file_path = %v, want none (two files)", in["file_path"])
	}
	if _, ok := in["paths_unknown"]; ok {
		t.Errorf("paths_unknown kept: %v", in["paths_unknown"])
	}
	if !reflect.DeepEqual(in["paths"], []any{".env", "b"}) {
		t.Errorf("paths = %v", in["paths"])
	}
}

// TestDecodeShellApplyPatch: apply_patch run through the shell (a
// heredoc, an argv, after cd DIR) gets the same fields; other shell
// commands are left alone.
func TestDecodeShellApplyPatch(t *testing.T) {
	const p = "*** Begin Patch\n*** Add File: .env\n+x\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch"
	for _, tc := range []struct {
		command any
		want    map[string]any
	}{
		{"apply_patch <<'EOF'\n" + p + "\nEOF\n", map[string]any{"paths": []any{".env", "a.txt"}, "content": "x\n"}},
		{"cd /home/u && apply_patch <<'EOF'\n" + p + "\nEOF\n", map[string]any{"paths": []any{"/home/u/.env", "/home/u/a.txt"}, "content": "x\n"}},
		{[]any{"apply_patch", p}, map[string]any{"paths": []any{".env", "a.txt"}, "content": "x\n"}},
		{[]any{"bash", "-lc", "apply_patch <<'EOF'\n" + p + "\nEOF"}, map[string]any{"paths": []any{".env", "a.txt"}, "content": "x\n"}},
		{"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: .env\nEOF", map[string]any{"paths_unknown": true, "paths_error": "invalid patch: the last line must be '*** End Patch'"}},
		{"echo '" + p + "'", map[string]any{}},
		{"ls", map[string]any{}},
	} {
		raw := map[string]any{"hook_event_name": "PreToolUse", "turn_id": "t", "tool_name": "Bash",
			"tool_input": map[string]any{"command": tc.command}}
		ev, err := codex.New().Decode(raw, "")
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]any{}
		for k, v := range ev.Payload["tool_input"].(map[string]any) {
			if k != "command" {
				got[k] = v
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: tool_input = %#v, want %#v", tc.command, got, tc.want)
		}
	}
}

// BenchmarkDecode is Codex's decoding of a shell call and of an
// apply_patch call.
func BenchmarkDecode(b *testing.B) {
	p := codex.New()
	for _, bc := range []struct {
		name string
		raw  map[string]any
	}{
		{"Bash", map[string]any{"hook_event_name": "PreToolUse", "turn_id": "t", "session_id": "s", "cwd": "/p",
			"tool_name": "Bash", "tool_input": map[string]any{"command": "go test ./... && git status"}}},
		{"apply_patch", applyPatchPayload("*** Begin Patch\n*** Update File: a.go\n@@\n-a\n+b\n*** Add File: b.txt\n+x\n*** End Patch\n")},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Decode(bc.raw, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDecodeShellToolNames: Codex's shell tools by every name it gives
// them (exec_command with its cmd field, shell_command, shell) are Bash
// calls whose command line is in command, so that the built-ins read it.
func TestDecodeShellToolNames(t *testing.T) {
	const doc = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: .env\n+A=1\n*** End Patch\nEOF"
	for _, tc := range []struct {
		tool  string
		input map[string]any
		want  map[string]any
	}{
		{"exec_command", map[string]any{"cmd": "cat .env", "workdir": "/p"}, map[string]any{"cmd": "cat .env", "workdir": "/p", "command": "cat .env"}},
		{"exec_command", map[string]any{"cmd": doc}, map[string]any{"cmd": doc, "command": doc, "paths": []any{".env"}, "file_path": ".env", "content": "A=1\n"}},
		{"shell_command", map[string]any{"command": doc}, map[string]any{"command": doc, "paths": []any{".env"}, "file_path": ".env", "content": "A=1\n"}},
		{"shell", map[string]any{"command": []any{"bash", "-lc", "X=1 " + doc}}, map[string]any{"command": []any{"bash", "-lc", "X=1 " + doc}, "paths": []any{".env"}, "file_path": ".env", "content": "A=1\n"}},
		{"exec_command", map[string]any{"cmd": "ls"}, map[string]any{"cmd": "ls", "command": "ls"}},
	} {
		raw := map[string]any{"hook_event_name": "PreToolUse", "turn_id": "t", "tool_name": tc.tool, "tool_input": tc.input}
		n := len(tc.input)
		ev, err := codex.New().Decode(raw, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := ev.Payload["tool_input"]; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %v: tool_input = %#v, want %#v", tc.tool, tc.input, got, tc.want)
		}
		if len(tc.input) != n {
			t.Errorf("the caller's input was changed: %v", tc.input)
		}
	}
}

// TestTwoPatchesAreUnknown: an apply_patch call that holds a patch in
// command and another in input is Codex's to apply, one or the other:
// its files are unknown (secret-files refuses it), where the first alone
// was read and a .env write in the other was allowed.
func TestTwoPatchesAreUnknown(t *testing.T) {
	readme := "*** Begin Patch\n*** Add File: README.md\n+hi\n*** End Patch\n"
	env := "*** Begin Patch\n*** Add File: .env\n+S=1\n*** End Patch\n"
	for _, c := range []struct {
		input   map[string]any
		unknown bool
	}{
		{map[string]any{"command": readme, "input": env}, true},
		{map[string]any{"command": env, "input": readme}, true},
		{map[string]any{"command": readme, "input": readme}, false},
		{map[string]any{"input": env}, false},
	} {
		got := codex.ReadInput("apply_patch", c.input)
		if unknown, _ := got["paths_unknown"].(bool); unknown != c.unknown {
			t.Errorf("%v: %v", c.input, got)
		}
	}
}

// TestCmdIsExecCommandsOnly: cmd is the command line of exec_command
// alone; shell, local_shell and shell_command run their command, so a cmd
// beside it (a decoy the model or a hook adds) is not what the guards
// judge: `cmd: "ls"` beside `command: "rm -rf ~"` hid the command.
func TestCmdIsExecCommandsOnly(t *testing.T) {
	for _, c := range []struct {
		tool string
		in   map[string]any
		want any
	}{
		{"exec_command", map[string]any{"cmd": "rm -rf ~", "command": "ls"}, "rm -rf ~"},
		{"shell_command", map[string]any{"command": "rm -rf ~", "cmd": "ls"}, "rm -rf ~"},
		{"shell", map[string]any{"command": []any{"bash", "-lc", "rm -rf ~"}, "cmd": "ls"}, []any{"bash", "-lc", "rm -rf ~"}},
		{"local_shell", map[string]any{"command": []any{"rm", "-rf", "/"}, "cmd": "ls"}, []any{"rm", "-rf", "/"}},
		{"shell_command", map[string]any{"cmd": "rm -rf ~"}, "rm -rf ~"}, // no command: cmd is all there is
	} {
		if got := codex.ReadInput(c.tool, c.in)["command"]; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %v: command %v, want %v", c.tool, c.in, got, c.want)
		}
	}
}
