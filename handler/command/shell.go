package command

import (
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"unicode/utf16"

	"github.com/hookctl/hookctl/protocol"
)

// shellEnv is what finding the shell of a command line reads: the
// platform, the environment and the file system. The process's in use
// (hostShellEnv); fakes in tests, so that the Windows rules are checked on
// any platform.
type shellEnv struct {
	goos     string
	getenv   func(string) string
	lookPath func(string) (string, error)
	isFile   func(string) bool
}

// hostShellEnv is the process's platform, environment and files.
func hostShellEnv() shellEnv {
	return shellEnv{goos: runtime.GOOS, getenv: os.Getenv, lookPath: exec.LookPath, isFile: func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.Mode().IsRegular()
	}}
}

// NoShellError is a command line with no shell to run it (Windows with
// neither Git Bash nor PowerShell, or $CLAUDE_CODE_GIT_BASH_PATH naming a
// file that is not there): the hook is not run, and says so.
type NoShellError struct{ Reason string }

func (e *NoShellError) Error() string { return e.Reason }

// gitBashEnv names the Git Bash to use on Windows, as in Claude Code.
const gitBashEnv = "CLAUDE_CODE_GIT_BASH_PATH"

// psPolicyEnv, when set, keeps PowerShell's execution policy (Claude
// Code's knob): otherwise the line runs with -ExecutionPolicy Bypass, as
// the hosts run their hooks.
const psPolicyEnv = "CLAUDE_CODE_POWERSHELL_RESPECT_EXECUTION_POLICY"

// shellArgv is the argv that runs a command hook's line. With kind ""
// the way the host of conv runs its own hooks' lines: sh -c on every
// platform but Windows; there Git Bash, else PowerShell (Claude Code, and
// a Convention that does not say), or PowerShell
// (protocol.ShellPowerShell). A kind the hook names (HCL: shell) is that
// shell everywhere: "sh" is sh -c (Git Bash on Windows), "bash" bash -c
// (Git Bash on Windows), "powershell" PowerShell (pwsh, else Windows
// PowerShell; pwsh on other systems), as Claude Code runs a hook with
// shell set. A shell that is not there is an error, never another shell.
// It never takes the bash on PATH on Windows:
// C:\Windows\System32\bash.exe is WSL's, which runs the line in another
// system.
func shellArgv(line, kind string, conv protocol.Convention, e shellEnv) ([]string, error) {
	switch kind {
	case protocol.HookShellSh:
		if e.goos != "windows" {
			return []string{"sh", "-c", line}, nil
		}
		return gitBashArgv(line, e, "sh")
	case protocol.HookShellBash:
		if e.goos != "windows" {
			bash, err := e.lookPath("bash")
			if err != nil || bash == "" {
				return nil, &NoShellError{Reason: `shell = "bash": no bash was found on PATH to run the hook's command line`}
			}
			return []string{bash, "-c", line}, nil
		}
		return gitBashArgv(line, e, "bash")
	case protocol.HookShellPowerShell:
		return powerShellArgv(claudePlaceholders.ReplaceAllString(line, "$${env:$1}"), e)
	}
	if e.goos != "windows" {
		return []string{"sh", "-c", line}, nil
	}
	shell := protocol.ShellGitBash
	if cs, ok := conv.(protocol.CommandShell); ok {
		shell = cs.CommandShell()
	}
	if shell == protocol.ShellGitBash {
		bash, err := gitBash(e)
		if err != nil {
			return nil, err
		}
		if bash != "" {
			return []string{bash, "-c", line}, nil
		}
		// No Git Bash: PowerShell, where Claude Code's placeholders are
		// environment variables.
		line = claudePlaceholders.ReplaceAllString(line, "$${env:$1}")
	}
	return powerShellArgv(line, e)
}

// gitBashArgv runs line with Git Bash on Windows, for a hook that names
// the shell (as): with no Git Bash the hook cannot run, and says so.
func gitBashArgv(line string, e shellEnv, as string) ([]string, error) {
	bash, err := gitBash(e)
	if err != nil {
		return nil, err
	}
	if bash == "" {
		return nil, &NoShellError{Reason: fmt.Sprintf("shell = %q: no Git Bash was found to run the hook's command line on Windows (set %s, or install Git for Windows)", as, gitBashEnv)}
	}
	return []string{bash, "-c", line}, nil
}

// powerShellArgv runs line with PowerShell: its exit status kept
// (powerShellScript), the line passed encoded, so no quoting can go wrong.
func powerShellArgv(line string, e shellEnv) ([]string, error) {
	ps, err := powerShell(e)
	if err != nil {
		return nil, err
	}
	argv := []string{ps, "-NoLogo", "-NoProfile", "-NonInteractive"}
	if e.getenv(psPolicyEnv) == "" && e.goos == "windows" {
		argv = append(argv, "-ExecutionPolicy", "Bypass")
	}
	return append(argv, "-EncodedCommand", encodePowerShell(powerShellScript(line))), nil
}

// claudePlaceholders are the ${VAR} placeholders Claude Code rewrites to
// ${env:VAR} when it runs a hook's line with PowerShell (2.1.198+).
var claudePlaceholders = regexp.MustCompile(`\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}`)

// gitBash finds Git for Windows' bash.exe: $CLAUDE_CODE_GIT_BASH_PATH
// (which must exist: a path given and missing is an error, never a quiet
// change of shell), else beside the git.exe on PATH (Git\cmd\git.exe or
// Git\mingw64\bin\git.exe: Git\bin\bash.exe), else where the installer
// puts it (%ProgramFiles%\Git, %LOCALAPPDATA%\Programs\Git). "" when there
// is none.
func gitBash(e shellEnv) (string, error) {
	if p := e.getenv(gitBashEnv); p != "" {
		if !e.isFile(p) {
			return "", &NoShellError{Reason: fmt.Sprintf("%s is %s, which is not a file: the hook's command line cannot run with Git Bash", gitBashEnv, p)}
		}
		return p, nil
	}
	var candidates []string
	if git, err := e.lookPath("git.exe"); err == nil && git != "" {
		dir := winDir(git) // ...\Git\cmd or ...\Git\mingw64\bin
		candidates = append(candidates, winJoin(winDir(dir), `bin\bash.exe`), winJoin(winDir(winDir(dir)), `bin\bash.exe`))
	}
	for _, v := range []string{"ProgramFiles", "ProgramW6432", "ProgramFiles(x86)"} {
		if d := e.getenv(v); d != "" {
			candidates = append(candidates, winJoin(d, `Git\bin\bash.exe`))
		}
	}
	if d := e.getenv("LOCALAPPDATA"); d != "" {
		candidates = append(candidates, winJoin(d, `Programs\Git\bin\bash.exe`))
	}
	for _, c := range candidates {
		if e.isFile(c) {
			return c, nil
		}
	}
	return "", nil
}

// powerShell finds PowerShell: pwsh.exe (7+) on PATH, else Windows
// PowerShell (powershell.exe on PATH, else under %SystemRoot%); on other
// systems pwsh on PATH.
func powerShell(e shellEnv) (string, error) {
	if e.goos != "windows" {
		if p, err := e.lookPath("pwsh"); err == nil && p != "" {
			return p, nil
		}
		return "", &NoShellError{Reason: `shell = "powershell": no pwsh was found on PATH to run the hook's command line`}
	}
	for _, name := range []string{"pwsh.exe", "powershell.exe"} {
		if p, err := e.lookPath(name); err == nil && p != "" {
			return p, nil
		}
	}
	if root := e.getenv("SystemRoot"); root != "" {
		if p := winJoin(root, `System32\WindowsPowerShell\v1.0\powershell.exe`); e.isFile(p) {
			return p, nil
		}
	}
	return "", &NoShellError{Reason: "no PowerShell (pwsh.exe or powershell.exe) was found to run the hook's command line; give the command as a list (an argv run without a shell)"}
}

// powerShellScript wraps a line so that PowerShell exits with the status
// the line's last command had. PowerShell alone turns a program's exit 2
// (a block) into 1 (an error that blocks nothing): a failed last command
// exits with its program's status (1 for a cmdlet), a successful one 0.
func powerShellScript(line string) string {
	return "$global:LASTEXITCODE = $null\n" + line + "\nif (-not $?) { if ($LASTEXITCODE) { exit $LASTEXITCODE }; exit 1 }\nexit 0\n"
}

// encodePowerShell is script as -EncodedCommand takes it (base64 of
// UTF-16LE): no quoting of the line on a Windows command line can go
// wrong.
func encodePowerShell(script string) string {
	u := utf16.Encode([]rune(script))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c), byte(c>>8)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// winDir is the directory of a Windows path (either separator), on any
// platform.
func winDir(p string) string {
	p = strings.TrimRight(p, `\/`)
	i := strings.LastIndexAny(p, `\/`)
	if i < 0 {
		return ""
	}
	return p[:i]
}

// winJoin joins a Windows directory and a relative path with a backslash.
func winJoin(dir, rel string) string {
	return strings.TrimRight(dir, `\/`) + `\` + rel
}
