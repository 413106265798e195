package builtin_test

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/lib/paths"
)

// TestDangerousGitBashPaths runs dangerous-commands with Windows' path
// rules, as on a Windows machine whose host runs the Bash tool in Git
// Bash (Claude Code), where /c/Users/me is C:\Users\me. rm -rf
// /c/Users/me, /c/ and /c/Windows were read as C:/c/... on the working
// directory's drive: no rule for the home, a root or a system directory
// fired, and with outside_project off they passed. Now each reading of
// such an argument is judged (a deny when either is denied), and a
// Windows root, home or system directory is one whatever its case.
func TestDangerousGitBashPaths(t *testing.T) {
	const winHome, winProject = `C:\Users\me`, `C:\proj`
	env := map[string]string{"CLAUDE_PROJECT_DIR": winProject}
	for _, outside := range []bool{true, false} {
		cfg := builtin.WithSystem(builtin.Config{
			Home:    winHome,
			Getenv:  func(k string) string { return env[k] },
			Options: map[string]any{"outside_project": outside},
		}, paths.Windows)
		h := newHook(t, "dangerous-commands", cfg)
		for _, tc := range []struct{ cmd, rule string }{
			{`rm -rf 'C:\Users\me'`, "rm-recursive"},
			{`rm -rf C:/Users/me`, "rm-recursive"},
			{`rm -rf /c/Users/me`, "rm-recursive"},
			{`rm -rf /c/users/ME/`, "rm-recursive"},
			{`rm -rf /cygdrive/c/Users/me`, "rm-recursive"},
			{`rm -rf /c/Users/me/*`, "rm-recursive"},
			{`rm -rf /c/Users/bob`, "rm-recursive"},
			{`rm -rf /c/Users`, "rm-recursive"},
			{`rm -rf /c/`, "rm-recursive"},
			{`rm -rf /c`, "rm-recursive"},
			{`rm -rf /d/`, "rm-recursive"},
			{`rm -rf /`, "rm-recursive"},
			{`rm -rf 'C:\'`, "rm-recursive"},
			{`rm -rf /c/Windows`, "rm-recursive"},
			{`rm -rf //server/share`, "rm-recursive"},
			{`rm -rf /c/windows/system32`, "rm-recursive"},
			{`rm -rf "/c/Program Files"`, "rm-recursive"},
			{`rm -rf 'C:\Windows'`, "rm-recursive"},
			{`cd /c/Users/me && rm -rf .`, "rm-recursive"},
			{`find /c/Users/me -delete`, "find-delete"},
			{`chown -R me /c/Windows`, "chown-recursive"},
			{`python -c "import shutil; shutil.rmtree('/c/Users/me')"`, "interpreter"},
			{`rm -rf /c/proj`, "rm-project"},
			{`rm -rf /c/Us*/me`, "rm-recursive"},
			{`rm -rf /c/users/M?`, "rm-recursive"},
			{`rm -rf /c/pro?`, "rm-recursive"},
			{`rm -rf /C/PROJ/`, "rm-project"},
			// Globs at a drive's or a share's top level, as /u* is on Unix.
			{`rm -rf /c/Win*`, "rm-recursive"},
			{`rm -rf C:/Win*`, "rm-recursive"},
			{`rm -rf /c/Windo?s`, "rm-recursive"},
			{`rm -rf /c/Program*`, "rm-recursive"},
			{`rm -rf 'C:\Win*'`, "rm-recursive"},
			{`rm -rf /d/Dat*`, "rm-recursive"},
			{`rm -rf D:/Dat*`, "rm-recursive"},
			{`rm -rf /cygdrive/d/Dat*`, "rm-recursive"},
			{`rm -rf //server/share/Dat*`, "rm-recursive"},
			// Win32 device prefixes naming a drive or a share: their "?"
			// is no glob.
			{`rm -rf '\\?\C:\Windows'`, "rm-recursive"},
			{`rm -rf '//?/C:/Windows'`, "rm-recursive"},
			{`rm -rf '\\?\C:\'`, "rm-recursive"},
			{`rm -rf '\\?\UNC\server\share'`, "rm-recursive"},
			{`rm -rf '\\?\C:\Users\me'`, "rm-recursive"},
			{`rm -rf '\\.\C:\Windows'`, "rm-recursive"},
			{`rm -rf build`, ""},
			{`rm -rf 'C:\proj\build'`, ""},
			{`ls /c/Users/me`, ""},
		} {
			p := bash(tc.cmd)
			p["cwd"] = winProject
			d, reason := decisionOf(call(t, h, "PreToolUse", p))
			switch {
			case tc.rule == "" && d != "":
				t.Errorf("outside_project %v: %q: %s %q, want no opinion", outside, tc.cmd, d, reason)
			case tc.rule != "" && (d != "deny" || !strings.Contains(reason, "rule "+tc.rule)):
				t.Errorf("outside_project %v: %q: %q %q, want deny by rule %s", outside, tc.cmd, d, reason, tc.rule)
			}
		}
	}
}

// TestDangerousGitBashPathsBothReadings: an argument read two ways is
// exempt from outside_project only when both readings are in the project
// or a temporary directory: /c/proj/build is C:/proj/build in Git Bash
// but C:/c/proj/build in PowerShell, and /tmp/x is C:/tmp/x (Git Bash
// mounts /tmp at %TEMP%, which the guard does not know).
func TestDangerousGitBashPathsBothReadings(t *testing.T) {
	env := map[string]string{"CLAUDE_PROJECT_DIR": `C:\proj`, "TMPDIR": `C:\Users\me\AppData\Local\Temp`}
	h := newHook(t, "dangerous-commands", builtin.WithSystem(builtin.Config{
		Home: `C:\Users\me`, Getenv: func(k string) string { return env[k] },
	}, paths.Windows))
	for _, tc := range []struct{ cmd, rule string }{
		{`rm -rf /c/proj/build`, "rm-outside-project"},
		{`rm -rf /tmp/x`, "rm-outside-project"},
		{`rm -rf /d/data`, "rm-outside-project"},
		{`rm -rf 'C:\Users\me\AppData\Local\Temp\x'`, ""},
		{`rm -rf C:/proj/build`, ""},
	} {
		p := bash(tc.cmd)
		p["cwd"] = `C:\proj`
		d, reason := decisionOf(call(t, h, "PreToolUse", p))
		switch {
		case tc.rule == "" && d != "":
			t.Errorf("%q: %s %q, want no opinion", tc.cmd, d, reason)
		case tc.rule != "" && (d != "deny" || !strings.Contains(reason, "rule "+tc.rule)):
			t.Errorf("%q: %q %q, want deny by rule %s", tc.cmd, d, reason, tc.rule)
		}
	}
}

// TestSecretFilesGitBashPaths: with Windows' rules a protected path named
// in Git Bash's form (/c/vault/key for C:/vault/key) by a command or a
// tool is protected; it was read as C:/c/vault/key, which no absolute
// pattern names.
func TestSecretFilesGitBashPaths(t *testing.T) {
	h := newHook(t, "secret-files", builtin.WithSystem(builtin.Config{
		Home:    `C:\Users\me`,
		Options: map[string]any{"patterns": []string{"C:/vault/**"}},
	}, paths.Windows))
	for _, tc := range []struct {
		payload map[string]any
		deny    bool
	}{
		{bash(`cat /c/vault/key`), true},
		{bash(`cat /C/Vault/KEY`), true},
		{bash(`cp /cygdrive/c/vault/key .`), true},
		{bash(`cat 'C:\vault\key'`), true},
		{tool("Read", map[string]any{"file_path": "/c/vault/key"}), true},
		{bash(`cat /c/Users/me/.ssh/id_rsa`), true},
		{bash(`cat /d/vault/key`), false},
		{bash(`cat /c/proj/readme.md`), false},
	} {
		tc.payload["cwd"] = `C:\proj`
		d, reason := decisionOf(call(t, h, "PreToolUse", tc.payload))
		if got := d == "deny"; got != tc.deny {
			t.Errorf("%v: %q %q, want deny %v", tc.payload["tool_input"], d, reason, tc.deny)
		}
	}
}
