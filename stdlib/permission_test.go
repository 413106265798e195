package stdlib_test

import (
	"testing"

	"github.com/hookctl/hookctl/stdlib"
)

func TestPermissionRule(t *testing.T) {
	bash := func(c string) map[string]any { return map[string]any{"command": c} }
	file := func(p string) map[string]any { return map[string]any{"file_path": p} }
	cases := []struct {
		tool  string
		input map[string]any
		rule  string
		want  bool
	}{
		{"Bash", bash("git push origin main"), "Bash(git push:*)", true},
		{"Bash", bash("git pushy"), "Bash(git push:*)", false},
		{"Bash", bash("ls && git push"), "Bash(git push:*)", true}, // every subcommand
		{"Bash", bash("sudo git push"), "Bash(git push:*)", true},  // unwrapped
		{"Bash", bash("echo 'git push'"), "Bash(git push:*)", false},
		{"Bash", bash("npm run build"), "Bash(npm run *)", true},
		{"Bash", bash("npm test"), "Bash(npm run *)", false},
		{"Bash", bash("anything"), "Bash", true},
		{"Bash", bash("ls"), "Edit(*)", false},
		{"Edit", file("/repo/src/a/b.ts"), "Edit(src/**)", true},
		{"Edit", file("/repo/lib/b.ts"), "Edit(src/**)", false},
		{"Write", file("/repo/x.ts"), "Write(*.ts)", true},
		{"Read", file("/etc/passwd"), "Read(//etc/**)", true},
		{"WebFetch", map[string]any{"url": "https://docs.example.com/x"}, "WebFetch(domain:example.com)", true},
		{"WebFetch", map[string]any{"url": "https://evil.com/example.com"}, "WebFetch(domain:example.com)", false},
		{"mcp__memory__create", map[string]any{}, "mcp__memory__*", true},
		{"Bash", bash("ls"), "not a rule (", false},
		// Codex's apply_patch: every file of the patch.
		{"Edit", map[string]any{"paths": []any{"a.txt", "/repo/.env"}}, "Edit(*.env)", true},
		{"Edit", map[string]any{"paths": []any{"a.txt", "b.txt"}}, "Edit(*.env)", false},
		{"Edit", map[string]any{"file_path": "a.txt", "paths": []any{"a.txt", "../x/.env"}}, "Write(**/.env)", false},
		{"Write", map[string]any{"file_path": "a.txt", "paths": []any{"a.txt", "../x/.env"}}, "Write(**/.env)", true},
		{"Edit", map[string]any{"paths_unknown": true}, "Edit(*.env)", true},
	}
	for _, tc := range cases {
		if got := stdlib.PermissionRule(tc.tool, tc.input, tc.rule); got != tc.want {
			t.Errorf("%s %v %q = %v, want %v", tc.tool, tc.input, tc.rule, got, tc.want)
		}
	}
}

// TestPermissionRuleHomeWithPatternCharacters: a ~/ rule matches under a
// home whose name holds glob characters (it is a name, not a pattern),
// and only there.
func TestPermissionRuleHomeWithPatternCharacters(t *testing.T) {
	for _, home := range []string{"/home/me", "/home/[me]", "/home/m*e", "/home/{a,b}", `/home/m\e`} {
		t.Setenv("HOME", home)
		file := map[string]any{"file_path": home + "/.ssh/id_rsa"}
		if !stdlib.PermissionRule("Read", file, "Read(~/.ssh/**)") {
			t.Errorf("HOME=%s: Read(~/.ssh/**) does not match %s", home, file["file_path"])
		}
	}
	t.Setenv("HOME", "/home/m*e")
	if stdlib.PermissionRule("Read", map[string]any{"file_path": "/home/mallory-e/.ssh/id_rsa"}, "Read(~/.ssh/**)") {
		t.Error("HOME=/home/m*e: the rule matched another home")
	}
}
