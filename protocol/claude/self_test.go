package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunsHookctl(t *testing.T) {
	self := []string{
		"hookctl claude",
		"hookctl claude --config /abs/hooks.hcl",
		"hookctl-client claude",
		"/usr/local/bin/hookctl hook --host crush",
		`"$CLAUDE_PROJECT_DIR"/bin/hookctl claude`,
		"cd /x && hookctl claude",
		"exec hookctl fire PreToolUse",
		"HOOKCTL_CONFIG=a.hcl hookctl claude",
		"env -i PATH=/bin hookctl claude",
		`C:\tools\hookctl.exe claude`,
		"true; hookctl claude",
		"/usr/bin/env hookctl claude",
		"/usr/bin/env -i PATH=/bin hookctl claude",
		"sh -c 'hookctl claude'",
		`bash -lc "cd /p && exec hookctl claude --config x"`,
		"sh -c \"sh -c 'hookctl claude'\"",
		"command hookctl hook --host crush",
		"setsid -f hookctl claude",
	}
	for _, c := range self {
		if !RunsHookctl(c, nil) {
			t.Errorf("%q: not seen as hookctl", c)
		}
	}
	other := []string{
		"./hooks/lint.sh",
		"hookctl validate",
		"echo hookctl claude",
		"my-hookctl claude",
		"python3 hooks/check.py claude",
		"sh -c 'hookctl validate'",
		"sh ./hook.sh",
		"/usr/bin/env python3 x.py",
		"",
	}
	for _, c := range other {
		if RunsHookctl(c, nil) {
			t.Errorf("%q: seen as hookctl", c)
		}
	}
	if !RunsHookctl("/opt/hookctl", []string{"claude", "--config", "x"}) || RunsHookctl("/opt/lint", []string{"hookctl", "claude"}) {
		t.Error("argv form")
	}
	if !RunsHookctl("/bin/sh", []string{"-c", "hookctl claude"}) || !RunsHookctl("/usr/bin/env", []string{"hookctl", "claude"}) {
		t.Error("argv form through a shell or env")
	}
}

// TestRunsHookctlUnderAnotherName: a symlink to the running binary (here
// the test binary, as hookctl import's is hookctl) is hookctl under any
// name, relative, absolute or in PATH.
func TestRunsHookctlUnderAnotherName(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, "hc")); err != nil {
		t.Skip("no symlinks:", err)
	}
	t.Chdir(dir)
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, c := range []string{"./hc claude", filepath.Join(dir, "hc") + " claude", "hc hook --host crush", "sh -c './hc claude'", "/usr/bin/env ./hc fire PreToolUse"} {
		if !RunsHookctl(c, nil) {
			t.Errorf("%q: not seen as hookctl", c)
		}
	}
	if RunsHookctl("./hc validate", nil) || RunsHookctl("./nothere claude", nil) {
		t.Error("a symlink's other subcommands, or a missing program, seen as hookctl")
	}
	if !RunsHookctl("./hc", []string{"claude"}) {
		t.Error("argv form")
	}
	settings := `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"./hc claude"},{"type":"command","command":"/usr/bin/env hookctl claude"},{"type":"command","command":"sh -c 'hookctl claude'"}]}]}}`
	text, warnings, err := Import([]byte(settings))
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 3 || strings.Contains(text, "command    =") {
		t.Fatalf("imported:\n%s\nwarnings: %q", text, warnings)
	}
}

// TestImportLeavesOutHookctl: the settings hookctl install writes do not
// import as a hook that runs hookctl: it is left out, said, and kept as a
// comment.
func TestImportLeavesOutHookctl(t *testing.T) {
	settings := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
		{"type":"command","command":"hookctl claude --config /p/hooks.hcl"},
		{"type":"command","command":"./hooks/lint.sh"}]}]}}`
	text, warnings, err := Import([]byte(settings))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, `command    = "hookctl`) || !strings.Contains(text, "# pretooluse-bash on PreToolUse") || !strings.Contains(text, "lint.sh") {
		t.Fatalf("imported:\n%s", text)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "runs hookctl itself") {
		t.Fatalf("warnings: %q", warnings)
	}
}
