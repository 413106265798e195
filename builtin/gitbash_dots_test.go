package builtin_test

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/lib/paths"
)

// TestGitBashDotDot: Git Bash (MSYS) cleans .. on the POSIX path before
// it maps /x/... to drive X:, so /c/../c/Users/me is C:\Users\me and
// /c/../d/ is D:\; and from C:\proj, ../../d/x climbs to Git Bash's root
// and down into D:. A drive's root as the working directory may be Git
// Bash's own root (cd / and cd /c/.. are both read as C:/), where
// c/Users/me is C:\Users\me. The guards read /c/../c/Users/me as
// C:/c/Users/me, so only outside_project caught these, and with it off
// they passed; secret-files gave the reads no opinion.
func TestGitBashDotDot(t *testing.T) {
	const winHome, winProject = `C:\Users\me`, `C:\proj`
	env := map[string]string{"CLAUDE_PROJECT_DIR": winProject}
	for _, outside := range []bool{true, false} {
		h := newHook(t, "dangerous-commands", builtin.WithSystem(builtin.Config{
			Home:    winHome,
			Getenv:  func(k string) string { return env[k] },
			Options: map[string]any{"outside_project": outside},
		}, paths.Windows))
		for _, tc := range []struct{ cmd, want string }{
			{`rm -rf /c/../c/Users/me`, "the home directory C:/Users/me"},
			{`rm -rf /c/../c/Windows`, "the system directory C:/Windows"},
			{`rm -rf /c/../d/`, "the root directory D:/"},
			{`rm -rf /cygdrive/c/../../c/Users/me`, "the home directory C:/Users/me"},
			{`rm -rf /proc/cygdrive/c/Users/me`, "the home directory C:/Users/me"},
			{`cd /c/.. && rm -rf c/Users/me`, "the home directory C:/Users/me"},
			{`cd / && rm -rf c/Windows`, "the system directory C:/Windows"},
			{`cd /c/../c && rm -rf Users`, "every home directory"},
			{`rm -rf ../../d/`, "the root directory D:/"},
			{`rm -rf ../../c/Users/me`, "the home directory C:/Users/me"},
			{`rm -rf /c/..`, "the root directory C:/"},
			{`rm -rf build`, ""},
			{`rm -rf ../proj/build`, ""},
		} {
			p := bash(tc.cmd)
			p["cwd"] = winProject
			d, reason := decisionOf(call(t, h, "PreToolUse", p))
			switch {
			case tc.want == "" && d != "":
				t.Errorf("outside_project %v: %q: %s %q, want no opinion", outside, tc.cmd, d, reason)
			case tc.want != "" && (d != "deny" || !strings.Contains(reason, tc.want)):
				t.Errorf("outside_project %v: %q: %q %q, want a deny of %s", outside, tc.cmd, d, reason, tc.want)
			}
		}
	}
	s := newHook(t, "secret-files", builtin.WithSystem(builtin.Config{
		Home:    winHome,
		Options: map[string]any{"patterns": []string{"C:/vault/**"}},
	}, paths.Windows))
	for _, tc := range []struct {
		cmd  string
		deny bool
	}{
		{`cat /c/../c/vault/key`, true},
		{`cat /cygdrive/c/../c/vault/key`, true},
		{`cd /c/../c/vault && cat key`, true},
		{`cd /c/.. && cat c/vault/key`, true},
		{`cat ../../c/vault/key`, true},
		{`cat /proc/cygdrive/c/vault/key`, true},
		{`cat /c/../d/vault/key`, false},
		{`cat ../proj/readme.md`, false},
	} {
		p := bash(tc.cmd)
		p["cwd"] = winProject
		d, reason := decisionOf(call(t, s, "PreToolUse", p))
		if got := d == "deny"; got != tc.deny {
			t.Errorf("%q: %q %q, want deny %v", tc.cmd, d, reason, tc.deny)
		}
	}
}
