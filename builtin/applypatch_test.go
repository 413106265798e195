package builtin_test

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/protocol/codex"
)

// codexPatch is a Codex apply_patch PreToolUse as hookctl decodes it.
func codexPatch(t *testing.T, text string) map[string]any {
	t.Helper()
	ev, err := codex.New().Decode(map[string]any{
		"hook_event_name": "PreToolUse", "session_id": "s-1", "turn_id": "t-1", "cwd": projectDir,
		"tool_name": "apply_patch", "tool_input": map[string]any{"command": text},
	}, "")
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	return ev.Payload
}

func patchOf(ops ...string) string {
	return "*** Begin Patch\n" + strings.Join(ops, "\n") + "\n*** End Patch\n"
}

// TestSecretFilesApplyPatch: secret-files checks every file of a Codex
// patch (added, updated, deleted, moved to), resolved as an Edit's path
// would be, and a patch whose files cannot be read is judged as touching
// unknown files (deny, or ask in ask mode), never as touching none.
func TestSecretFilesApplyPatch(t *testing.T) {
	add := func(p string) string { return "*** Add File: " + p + "\n+K=v" }
	upd := func(p string) string { return "*** Update File: " + p + "\n@@\n-a\n+b" }
	for _, tc := range []struct {
		name, text, want string // want: the file named in the deny, "" for no opinion
	}{
		{"one ordinary file", patchOf(add("a.txt")), ""},
		{"an update and a delete", patchOf(upd("src/main.go"), "*** Delete File: old.txt"), ""},
		{"an example env file", patchOf(add(".env.example")), ""},
		{"an added .env", patchOf(add(".env")), ".env"},
		{"a.txt then .env", patchOf(add("a.txt"), add(".env")), ".env"},
		{".env after an update", patchOf(upd("README.md"), upd("config/.env.production")), ".env.production"},
		{"a deleted key", patchOf(upd("a.go"), "*** Delete File: deploy/server.key"), "server.key"},
		{"moved onto .env", patchOf("*** Update File: notes.txt\n*** Move to: .env\n@@\n-a\n+b"), ".env"},
		{"out of the project", patchOf(add("../.env")), "../.env"},
		{"absolute", patchOf(upd("a.txt"), add("/home/dev/.ssh/authorized_keys")), "authorized_keys"},
		{"home", patchOf(add("/home/dev/.aws/credentials")), ".aws/credentials"},
		{"heredoc", "<<'EOF'\n" + patchOf(add(".npmrc")) + "EOF\n", ".npmrc"},
		{"padded markers", "  *** Begin Patch\n  *** Add File: .env  \n+x\n  *** End Patch  ", ".env"},
		{"malformed", "*** Begin Patch\n*** Add File: .env\n+x\n", "cannot be read"},
		{"unknown operation", patchOf("*** Create File: .env\n+x"), "cannot be read"},
		{"empty", "", "cannot be read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, mode := range []string{"deny", "ask"} {
				h := newHook(t, "secret-files", builtin.Config{Options: map[string]any{"mode": mode}})
				eng := newEngine(t, h)
				out := fire(t, eng, "PreToolUse", codexPatch(t, tc.text))
				closeEngine(t, eng)
				switch {
				case tc.want == "" && out.Decision != "":
					t.Errorf("mode %s: got %s %q, want no opinion", mode, out.Decision, out.Reason)
				case tc.want != "" && (string(out.Decision) != mode || !strings.Contains(out.Reason, tc.want)):
					t.Errorf("mode %s: got %q %q, want %s naming %s", mode, out.Decision, out.Reason, mode, tc.want)
				}
			}
		})
	}
}

// TestReadOnlyApproverApplyPatch: a patch is never approved as read-only.
func TestReadOnlyApproverApplyPatch(t *testing.T) {
	h := newHook(t, "read-only-approver", builtin.Config{Options: map[string]any{"events": []any{"PreToolUse"}}})
	pl := codexPatch(t, patchOf("*** Add File: a.txt\n+x"))
	if d, r := decisionOf(call(t, h, "PreToolUse", pl)); d != "" {
		t.Errorf("got %s %q, want no opinion", d, r)
	}
}

// TestSecretFilesShellApplyPatch: apply_patch run through the shell is
// checked as the tool is.
func TestSecretFilesShellApplyPatch(t *testing.T) {
	h := newHook(t, "secret-files", builtin.Config{})
	for _, tc := range []struct{ cmd, want string }{
		{"apply_patch <<'EOF'\n" + patchOf("*** Add File: a.txt\n+x", "*** Add File: .env\n+K=v") + "EOF", ".env"},
		{"cd ~ && apply_patch <<'EOF'\n" + patchOf("*** Add File: .ssh/authorized_keys\n+k") + "EOF", "authorized_keys"},
		{"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: .env\n+x\nEOF", "cannot be read"},
		{"apply_patch <<'EOF'\n" + patchOf("*** Add File: a.txt\n+x") + "EOF", ""},
	} {
		ev, err := codex.New().Decode(map[string]any{
			"hook_event_name": "PreToolUse", "session_id": "s-1", "turn_id": "t-1", "cwd": projectDir,
			"tool_name": "Bash", "tool_input": map[string]any{"command": tc.cmd},
		}, "")
		if err != nil {
			t.Fatal(err)
		}
		d, reason := decisionOf(call(t, h, "PreToolUse", ev.Payload))
		if tc.want == "" && d != "" || tc.want != "" && (d != "deny" || !strings.Contains(reason, tc.want)) {
			t.Errorf("%q: got %q %q, want deny naming %q", tc.cmd, d, reason, tc.want)
		}
	}
}

// TestSecretFilesShellApplyPatchAnywhere: apply_patch is found as a
// command anywhere in a Codex shell line (after an assignment, a launcher,
// another command, quoted or escaped, in a bash -c string), and a patch
// the shell does not hand over literally (read from a file, expanded) is
// judged as touching unknown files: each of these adds .env and is denied.
// Ordinary lines are left alone.
func TestSecretFilesShellApplyPatchAnywhere(t *testing.T) {
	h := newHook(t, "secret-files", builtin.Config{})
	env := patchOf("*** Add File: .env\n+A=1")
	doc := "<<'EOF'\n" + env + "EOF"
	for _, tc := range []struct{ cmd, want string }{
		{"X=1 apply_patch " + doc, ".env"},
		{"command apply_patch " + doc, ".env"},
		{`\apply_patch ` + doc, ".env"},
		{"true && apply_patch " + doc, ".env"},
		{"'apply_patch' " + doc, ".env"},
		{`"apply"_patch ` + doc, ".env"},
		{"env X=1 applypatch " + doc, ".env"},
		{"bash -lc 'apply_patch <<EOF\n" + env + "EOF'", ".env"},
		{"echo hi; cd sub && apply_patch " + doc, ".env"},
		{"cat > /tmp/p " + doc + "\napply_patch < /tmp/p", "cannot be read"},
		{"cat /tmp/p | apply_patch", "cannot be read"},
		{"X=v; apply_patch <<EOF\n*** Begin Patch\n*** Add File: .e${X}nv\n+A=1\n*** End Patch\nEOF", "cannot be read"},
		{"apply_patch <<EOF\n*** Begin Patch\n*** Add File: $(printf .env)\n+A=1\n*** End Patch\nEOF", "cannot be read"},
		{"apply_patch \"*** Begin Patch\n*** Add File: .e\"\"nv\n+A=1\n*** End Patch\"", ".env"},
		{"apply_patch \"*** Begin Patch\n*** Add File: .e${X}nv\n+A=1\n*** End Patch\"", "cannot be read"},
		{"$CMD " + doc, "cannot be read"},
		{"{apply_patch,} " + doc, "cannot be read"},
		{"/usr/local/bin/apply_pa?ch " + doc, "cannot be read"},
		{"echo x | xargs apply_patch", "cannot be read"},
		{"[ -f x ] && ls", ""},
		{"bash -c \"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: .e$X\n+A=1\n*** End Patch\nEOF\"", "cannot be read"},
		{"apply_patch <<'EOF'\n" + patchOf("*** Add File: a.sh\n+echo \"$HOME\" `date` \\n") + "EOF", ""},
		{"apply_patch <<EOF\n" + patchOf("*** Add File: a.txt\n+plain") + "EOF", ""},
		{"echo apply_patch", ""},
		{"git commit -m 'apply_patch .env'", ""},
		{"ls -la", ""},
	} {
		ev, err := codex.New().Decode(map[string]any{
			"hook_event_name": "PreToolUse", "session_id": "s-1", "turn_id": "t-1", "cwd": projectDir,
			"tool_name": "Bash", "tool_input": map[string]any{"command": tc.cmd},
		}, "")
		if err != nil {
			t.Fatal(err)
		}
		d, reason := decisionOf(call(t, h, "PreToolUse", ev.Payload))
		if tc.want == "" && d != "" || tc.want != "" && (d != "deny" || !strings.Contains(reason, tc.want)) {
			t.Errorf("%q: got %q %q, want deny naming %q", tc.cmd, d, reason, tc.want)
		}
	}
}
