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
// directory it runs in.
func shellCall(sys paths.System, home string, payload map[string]any) (in map[string]any, cwd string) {
	in = object(payload, "tool_input")
	if argv, ok := in["command"].([]any); ok {
		in = maps.Clone(in)
		in["command"] = argvLine(argv)
	}
	return in, workDir(sys, home, payload, in)
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

// workDir is the directory a tool call runs in: the tool input's own
// (Gemini CLI's dir_path, or directory before it; Codex's workdir), taken
// in the payload's cwd when relative, else the payload's cwd. A shell
// tool run elsewhere than the session's directory is judged where it
// runs: `rm -rf *` with dir_path "/" is the root's.
func workDir(sys paths.System, home string, payload, in map[string]any) string {
	cwd := str(payload, "cwd")
	for _, k := range []string{"dir_path", "directory", "workdir"} {
		if d, ok := in[k].(string); ok && strings.TrimSpace(d) != "" {
			return sys.Resolve(d, cwd, home)
		}
	}
	return cwd
}
