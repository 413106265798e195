package builtin

import (
	"fmt"
	"maps"
	"strings"

	"github.com/hookctl/hookctl/lib/paths"
)

// shellCall is a tool call as the guards read it: its input, with a
// command given as an argv (Codex's shell and local_shell:
// ["bash", "-lc", LINE]) as the command line that argv runs, and the
// directories it may run in (workDirs): one, unless the tool is not one
// whose directory field is known.
func shellCall(sys paths.System, home string, payload map[string]any) (in map[string]any, dirs dirList) {
	in = object(payload, "tool_input")
	if argv, ok := in["command"].([]any); ok {
		in = maps.Clone(in)
		in["command"] = argvLine(argv)
	}
	return in, workDirs(sys, home, payload, in)
}

// dirList is the directories a call may run in: first, then more (none,
// most often: no allocation for the common call).
type dirList struct {
	first string
	more  []string
}

// len is the number of directories; at(i) the i-th.
func (d dirList) len() int { return 1 + len(d.more) }
func (d dirList) at(i int) string {
	if i == 0 {
		return d.first
	}
	return d.more[i-1]
}

// argvLine is the command line that runs argv as its words: each word
// quoted as a POSIX shell reads it back (left bare when it has nothing a
// shell reads specially), so that a guard's parser sees the program and
// its arguments, a `bash -lc LINE` as a launcher of LINE.
func argvLine(argv []any) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		s, ok := a.(string)
		if !ok {
			s = fmt.Sprint(a)
		}
		words[i] = argvWord(s)
	}
	return strings.Join(words, " ")
}

// argvWord is s as one word of a POSIX shell, as it is: nothing in it
// expands (an argv runs no shell).
func argvWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// dirFields are the fields of a shell tool's input that name the
// directory it runs in, by the tool's name as its host sends it: Gemini
// CLI's run_shell_command runs in dir_path (directory before it), Codex's
// shell tools in workdir, Claude Code's Bash in the session's cwd
// whatever its input holds.
var dirFields = map[string][]string{
	"run_shell_command": {"dir_path", "directory"},
	"exec_command":      {"workdir"}, "shell": {"workdir"}, "local_shell": {"workdir"},
	"shell_command": {"workdir"}, "container.exec": {"workdir"},
	"Bash": nil,
}

// anyDirField lists the directory fields a tool dirFields does not know
// may have: the ones dirFields names, and the other spellings agents use.
var anyDirField = []string{"dir_path", "directory", "workdir", "cwd", "working_directory", "working_dir"}

// workDirs are the directories a tool call may run in, each taken in the
// payload's cwd when relative: those its tool's directory fields name
// (dirFields; Gemini CLI's two both, when both are given: which one runs
// depends on its version), else the payload's cwd. For a tool dirFields
// does not know, the payload's cwd and every directory a field names: a
// guard judges the call in each (a deny in any stands), so that a field
// the host ignores cannot move where the call is judged.
func workDirs(sys paths.System, home string, payload, in map[string]any) dirList {
	cwd := str(payload, "cwd")
	fields, known := dirFields[str(payload, "tool_name")]
	if !known {
		fields = anyDirField
	}
	var dirs dirList
	n := 0
	add := func(d string) {
		if n == 0 {
			dirs.first = d
		} else {
			dirs.more = append(dirs.more, d)
		}
		n++
	}
	for _, k := range fields {
		if d, ok := in[k].(string); ok && strings.TrimSpace(d) != "" {
			add(sys.Resolve(d, cwd, home))
		}
	}
	if n == 0 || !known {
		add(cwd)
	}
	return dirs
}
