package claude

import (
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
