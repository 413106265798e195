package command

import (
	"context"
	"encoding/base64"
	"errors"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/claude"
	"github.com/hookctl/hookctl/protocol/codex"
	"github.com/hookctl/hookctl/protocol/copilot"
	"github.com/hookctl/hookctl/protocol/cursor"
	"github.com/hookctl/hookctl/protocol/gemini"
)

// fakeWindows is a Windows machine with the files and PATH entries given
// (PATH maps a program name to its path).
func fakeWindows(env map[string]string, path map[string]string, files ...string) shellEnv {
	return shellEnv{
		goos:   "windows",
		getenv: func(k string) string { return env[k] },
		lookPath: func(name string) (string, error) {
			if p, ok := path[name]; ok {
				return p, nil
			}
			return "", exec.ErrNotFound
		},
		isFile: func(p string) bool {
			return slices.Contains(files, p) || slices.Contains(slices.Collect(maps.Values(path)), p)
		},
	}
}

// decodePS is the script of an -EncodedCommand argv.
func decodePS(t *testing.T, argv []string) string {
	t.Helper()
	i := slices.Index(argv, "-EncodedCommand")
	if i < 0 || i+1 >= len(argv) {
		t.Fatalf("no -EncodedCommand in %q", argv)
	}
	b, err := base64.StdEncoding.DecodeString(argv[i+1])
	if err != nil || len(b)%2 != 0 {
		t.Fatalf("bad encoding %q: %v", argv[i+1], err)
	}
	u := make([]uint16, len(b)/2)
	for j := range u {
		u[j] = uint16(b[2*j]) | uint16(b[2*j+1])<<8
	}
	return string(utf16.Decode(u))
}

const (
	gitCmd   = `C:\Program Files\Git\cmd\git.exe`
	gitBashP = `C:\Program Files\Git\bin\bash.exe`
	pwsh     = `C:\Program Files\PowerShell\7\pwsh.exe`
	wslBash  = `C:\Windows\System32\bash.exe`
	winPS    = `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`
)

// TestShellArgvPOSIX: everywhere but Windows a line runs with sh -c,
// whatever the host.
func TestShellArgvPOSIX(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "freebsd"} {
		for _, conv := range []protocol.Convention{nil, claude.New(), codex.New()} {
			e := fakeWindows(nil, nil)
			e.goos = goos
			argv, err := shellArgv("echo hi", "", conv, e)
			if err != nil || !slices.Equal(argv, []string{"sh", "-c", "echo hi"}) {
				t.Fatalf("%s: %q %v", goos, argv, err)
			}
		}
	}
}

// TestShellArgvWindowsClaude: Claude Code's convention on Windows is Git
// Bash (CLAUDE_CODE_GIT_BASH_PATH, else beside git.exe, else where the
// installer puts it), never WSL's bash.exe, else PowerShell.
func TestShellArgvWindowsClaude(t *testing.T) {
	line := `"$CLAUDE_PROJECT_DIR"/check.sh`
	cases := []struct {
		name  string
		env   map[string]string
		path  map[string]string
		files []string
		want  string // argv[0]
	}{
		{"CLAUDE_CODE_GIT_BASH_PATH", map[string]string{gitBashEnv: `D:\tools\bash.exe`}, map[string]string{"git.exe": gitCmd}, []string{`D:\tools\bash.exe`, gitBashP}, `D:\tools\bash.exe`},
		{"beside git.exe in cmd", nil, map[string]string{"git.exe": gitCmd}, []string{gitBashP}, gitBashP},
		{"beside git.exe in mingw64", nil, map[string]string{"git.exe": `E:\Git\mingw64\bin\git.exe`}, []string{`E:\Git\bin\bash.exe`}, `E:\Git\bin\bash.exe`},
		{"ProgramFiles", map[string]string{"ProgramFiles": `C:\Program Files`}, nil, []string{gitBashP}, gitBashP},
		{"user install", map[string]string{"LOCALAPPDATA": `C:\Users\x\AppData\Local`}, nil, []string{`C:\Users\x\AppData\Local\Programs\Git\bin\bash.exe`}, `C:\Users\x\AppData\Local\Programs\Git\bin\bash.exe`},
	}
	for _, conv := range []protocol.Convention{nil, claude.New()} {
		for _, c := range cases {
			argv, err := shellArgv(line, "", conv, fakeWindows(c.env, c.path, c.files...))
			if err != nil || !slices.Equal(argv, []string{c.want, "-c", line}) {
				t.Errorf("%s: %q %v, want %s -c", c.name, argv, err, c.want)
			}
		}
	}

	// Only WSL's bash on PATH: PowerShell, with Claude Code's
	// placeholders as environment variables.
	e := fakeWindows(nil, map[string]string{"bash.exe": wslBash, "bash": wslBash, "pwsh.exe": pwsh})
	argv, err := shellArgv(`node "${CLAUDE_PROJECT_DIR}\hook.js"`, "", nil, e)
	if err != nil || argv[0] != pwsh {
		t.Fatalf("no Git Bash: %q %v, want %s", argv, err, pwsh)
	}
	if s := decodePS(t, argv); !strings.Contains(s, `node "${env:CLAUDE_PROJECT_DIR}\hook.js"`) {
		t.Fatalf("placeholder not rewritten: %q", s)
	}

	// CLAUDE_CODE_GIT_BASH_PATH naming nothing: refused, not another
	// shell.
	_, err = shellArgv(line, "", nil, fakeWindows(map[string]string{gitBashEnv: `D:\nope\bash.exe`}, map[string]string{"pwsh.exe": pwsh}, gitBashP))
	var ns *NoShellError
	if !errors.As(err, &ns) || !strings.Contains(err.Error(), `D:\nope\bash.exe`) {
		t.Fatalf("missing CLAUDE_CODE_GIT_BASH_PATH: %v", err)
	}
}

// TestShellArgvWindowsPowerShell: Codex, Copilot CLI, Cursor and Gemini
// CLI run lines with PowerShell on Windows even where Git Bash is
// installed; pwsh.exe before Windows PowerShell; the script exits with the
// line's last status (exit 2 stays 2); with no PowerShell the hook is
// refused with a reason.
func TestShellArgvWindowsPowerShell(t *testing.T) {
	withBash := map[string]string{"git.exe": gitCmd, "pwsh.exe": pwsh, "powershell.exe": winPS}
	for _, conv := range []protocol.Convention{codex.New(), copilot.New(), cursor.New(), gemini.New()} {
		argv, err := shellArgv(`node C:\hooks\check.js`, "", conv, fakeWindows(nil, withBash, gitBashP))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{pwsh, "-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-EncodedCommand"}
		if !slices.Equal(argv[:len(want)], want) || len(argv) != len(want)+1 {
			t.Fatalf("%s: %q", conv.Name(), argv)
		}
		s := decodePS(t, argv)
		if !strings.Contains(s, "\nnode C:\\hooks\\check.js\n") || !strings.Contains(s, "exit $LASTEXITCODE") {
			t.Fatalf("%s: script %q", conv.Name(), s)
		}
		// The host's own placeholders are not Claude Code's.
		argv, _ = shellArgv(`echo ${CLAUDE_PROJECT_DIR}`, "", conv, fakeWindows(nil, withBash))
		if s := decodePS(t, argv); strings.Contains(s, "env:") {
			t.Fatalf("%s rewrote a placeholder: %q", conv.Name(), s)
		}
	}
	// Windows PowerShell under %SystemRoot% when nothing is on PATH;
	// the execution policy kept when asked.
	e := fakeWindows(map[string]string{"SystemRoot": `C:\Windows`, psPolicyEnv: "1"}, nil, winPS)
	argv, err := shellArgv("exit 2", "", codex.New(), e)
	if err != nil || argv[0] != winPS || slices.Contains(argv, "Bypass") {
		t.Fatalf("SystemRoot: %q %v", argv, err)
	}
	// No PowerShell at all.
	_, err = shellArgv("exit 2", "", codex.New(), fakeWindows(nil, nil))
	var ns *NoShellError
	if !errors.As(err, &ns) {
		t.Fatalf("no PowerShell: %v", err)
	}
}

// TestNoShellIsALaunchError: a line with no shell to run it fails every
// run as a launch error (the hook's on_error applies), never a pass.
func TestNoShellIsALaunchError(t *testing.T) {
	c := &command{conv: claude.New(), argv: []string{"sh"}, noShell: &NoShellError{Reason: "no PowerShell"}}
	_, err := c.Handle(context.Background(), &engine.Call{Event: "PreToolUse", Hook: "h", Payload: map[string]any{}})
	var le *protocol.LaunchError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "no PowerShell") {
		t.Fatalf("got %v", err)
	}
}

// fakeUnix is a Unix machine whose PATH holds the programs given.
func fakeUnix(path map[string]string) shellEnv {
	e := fakeWindows(nil, path)
	e.goos = "linux"
	return e
}

// TestShellArgvNamedShell: shell = "sh", "bash" or "powershell" runs the
// line with that shell on every system, and a shell that is not there is
// an error that says which was looked for, never another shell.
func TestShellArgvNamedShell(t *testing.T) {
	pwshUnix := "/usr/bin/pwsh"
	unix := fakeUnix(map[string]string{"bash": "/bin/bash", "pwsh": pwshUnix})
	bare := fakeUnix(nil)
	win := fakeWindows(nil, map[string]string{"git.exe": gitCmd, "pwsh.exe": pwsh}, gitBashP)
	winNoBash := fakeWindows(nil, map[string]string{"pwsh.exe": pwsh})
	for _, c := range []struct {
		name, kind string
		e          shellEnv
		want0      string // argv[0], or "" for an error
		errHas     string
	}{
		{"sh on unix", protocol.HookShellSh, unix, "sh", ""},
		{"bash on unix", protocol.HookShellBash, unix, "/bin/bash", ""},
		{"bash missing on unix", protocol.HookShellBash, bare, "", `shell = "bash"`},
		{"powershell on unix", protocol.HookShellPowerShell, unix, pwshUnix, ""},
		{"powershell missing on unix", protocol.HookShellPowerShell, bare, "", "pwsh"},
		{"sh on windows", protocol.HookShellSh, win, gitBashP, ""},
		{"bash on windows", protocol.HookShellBash, win, gitBashP, ""},
		{"bash without git bash on windows", protocol.HookShellBash, winNoBash, "", "Git Bash"},
		{"sh without git bash on windows", protocol.HookShellSh, winNoBash, "", "Git Bash"},
		{"powershell on windows", protocol.HookShellPowerShell, win, pwsh, ""},
	} {
		argv, err := shellArgv(`exit 2`, c.kind, nil, c.e)
		if c.want0 == "" {
			var ns *NoShellError
			if err == nil || !errors.As(err, &ns) || !strings.Contains(err.Error(), c.errHas) {
				t.Errorf("%s: %q, %v; want a NoShellError naming %s", c.name, argv, err, c.errHas)
			}
			continue
		}
		if err != nil || len(argv) == 0 || argv[0] != c.want0 {
			t.Errorf("%s: %q, %v; want %s", c.name, argv, err, c.want0)
			continue
		}
		if c.kind == protocol.HookShellPowerShell {
			if s := decodePS(t, argv); !strings.Contains(s, "exit 2") || !strings.Contains(s, "exit $LASTEXITCODE") {
				t.Errorf("%s: the script does not keep the status: %q", c.name, s)
			}
			if slices.Contains(argv, "Bypass") != (c.e.goos == "windows") {
				t.Errorf("%s: -ExecutionPolicy Bypass only on Windows: %q", c.name, argv)
			}
		} else if argv[len(argv)-2] != "-c" || argv[len(argv)-1] != "exit 2" {
			t.Errorf("%s: %q", c.name, argv)
		}
	}
	// PowerShell reads Claude Code's placeholders as variables.
	argv, _ := shellArgv(`node "${CLAUDE_PROJECT_DIR}/h.js"`, protocol.HookShellPowerShell, nil, unix)
	if s := decodePS(t, argv); !strings.Contains(s, "${env:CLAUDE_PROJECT_DIR}") {
		t.Errorf("placeholder: %q", s)
	}
}
