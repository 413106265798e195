package protocol

// Shell is how a host runs the shell form of a command hook (a command
// line) on Windows; everywhere else every host runs sh -c (or bash -c).
type Shell int

const (
	// ShellGitBash runs the line with Git for Windows' bash, else with
	// PowerShell when Git Bash is not installed: Claude Code's way (and
	// the default of a Convention that does not say).
	ShellGitBash Shell = iota
	// ShellPowerShell runs the line with PowerShell: Codex, Copilot CLI,
	// Cursor and Gemini CLI on Windows.
	ShellPowerShell
)

// String names the shell for people.
func (s Shell) String() string {
	if s == ShellPowerShell {
		return "PowerShell"
	}
	return "Git Bash, else PowerShell"
}

// CommandShell is implemented by a Convention that says how its host runs
// a command line on Windows. One that does not runs it as Claude Code
// does (ShellGitBash).
type CommandShell interface {
	CommandShell() Shell
}

// CommandShell is the Table's Shell.
func (t Table) CommandShell() Shell { return t.Shell }

// The shells a command hook may name (HCL: shell; Claude Code's settings:
// "shell"), whatever its host runs by default.
const (
	HookShellSh         = "sh"
	HookShellBash       = "bash"
	HookShellPowerShell = "powershell"
)

// KnownHookShell reports whether a command hook may name the shell name.
func KnownHookShell(name string) bool {
	return name == HookShellSh || name == HookShellBash || name == HookShellPowerShell
}

// HookShellNames lists the shells a command hook may name, for messages.
func HookShellNames() string { return `"sh", "bash" or "powershell"` }
