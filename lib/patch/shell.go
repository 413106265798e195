package patch

import (
	"errors"
	"path"
	"strings"

	"github.com/hookctl/hookctl/lib/shell"
)

// Call is one run of apply_patch found in a shell command line.
type Call struct {
	// Text is the patch as the shell hands it to apply_patch.
	Text string
	// Dir is the directory the patch is applied in, after the line's cd
	// commands ("" for the line's own).
	Dir string
}

// UnreadableError is a command line that runs apply_patch (or may run it)
// whose patch cannot be read as the shell would hand it over: its files
// are unknown.
type UnreadableError struct {
	Msg string
}

func (e *UnreadableError) Error() string { return "apply_patch through the shell: " + e.Msg }

// isApplyPatch reports whether a command name is Codex's apply_patch.
func isApplyPatch(name string) bool { return name == "apply_patch" || name == "applypatch" }

// mayName reports whether a line could name apply_patch as a command at
// all once quotes and escapes are removed, or has an expansion, a glob or
// a brace that could produce the name: lines without either are not
// parsed.
func mayName(line string) bool {
	if strings.ContainsAny(line, "$`*?[{") {
		return true
	}
	return namesIt(line)
}

// namesIt reports whether line holds apply_patch or applypatch once
// quotes and backslashes are removed.
func namesIt(line string) bool {
	if !strings.Contains(line, "ly") && !strings.ContainsAny(line, `'"\`) {
		return false
	}
	s := strings.Map(func(r rune) rune {
		switch r {
		case '\'', '"', '\\', '\n':
			return -1
		}
		return r
	}, line)
	return strings.Contains(s, "apply_patch") || strings.Contains(s, "applypatch")
}

// dynamic reports whether shell text still holds an expansion (the shell
// would replace it before the command sees it).
func dynamic(s string) bool { return strings.ContainsAny(s, "$`") }

// pattern reports whether a command name may be a glob or a brace
// expansion ({apply_patch,}, /usr/bin/apply_pa?ch) that the shell turns
// into another name; the test commands [ and [[ are not.
func pattern(name string) bool {
	return name != "[" && name != "[[" && strings.ContainsAny(name, "*?[{")
}

// ShellCalls finds every command of a bash line that runs apply_patch
// (Codex puts it on the shell's PATH), wherever it stands: after
// assignments, launchers (command, env, sudo...), other commands, inside
// bash -c scripts, with its name quoted or escaped. found is false when
// nothing in the line runs it. err (an *UnreadableError) says why the
// patches cannot be read when a command runs or may run apply_patch and
// its patch is not literal text of the line: read from a file, a pipe or
// standard input, built by an expansion, a here-document with an unquoted
// delimiter that expands something, a command name that is itself an
// expansion, or a line that is not valid bash.
func ShellCalls(line string) (calls []Call, found bool, err error) {
	if !mayName(line) {
		return nil, false, nil
	}
	segs, perr := shell.Parse(line)
	if perr != nil {
		if namesIt(line) {
			return nil, true, &UnreadableError{Msg: "the line cannot be parsed (" + perr.Error() + ")"}
		}
		if errors.Is(perr, shell.ErrTooDeep) {
			return nil, true, &UnreadableError{Msg: perr.Error()}
		}
		// Not bash: mvdan's parser refuses it, so would bash.
		return nil, false, nil
	}
	for _, s := range segs {
		switch {
		case len(s.Argv) == 0:
			continue
		case dynamic(s.Argv[0]) || pattern(s.Argv[0]):
			return nil, true, &UnreadableError{Msg: "the command name " + quote(s.Argv[0]) + " is an expansion, which could be apply_patch"}
		case !isApplyPatch(s.Name):
			continue
		}
		c, err := call(s)
		if err != nil {
			return nil, true, err
		}
		calls = append(calls, c)
	}
	return calls, len(calls) > 0, nil
}

// call reads the patch and directory of one apply_patch command.
func call(s shell.Segment) (Call, error) {
	dir, err := segDir(s)
	if err != nil {
		return Call{}, err
	}
	// A script layer (bash -c "...") may have expanded its text before
	// the inner shell read it: no expansion is trusted there.
	layered := len(s.Wrappers) > 0
	switch len(s.Argv) {
	case 1:
	case 2:
		if dynamic(s.Argv[1]) {
			return Call{}, &UnreadableError{Msg: "its patch argument holds an expansion (the shell changes it)"}
		}
		return Call{Text: s.Argv[1], Dir: dir}, nil
	default:
		return Call{}, &UnreadableError{Msg: "it is given more than one argument"}
	}
	var in *shell.Redirect
	for i := range s.Redirects {
		r := &s.Redirects[i]
		if r.Fd != "" && r.Fd != "0" {
			continue
		}
		switch r.Op {
		case "<<", "<<-", "<<<", "<", "<>", "<&":
			in = r
		}
	}
	if in == nil {
		return Call{}, &UnreadableError{Msg: "it reads its patch from standard input (a pipe or the caller's)"}
	}
	switch in.Op {
	case "<<", "<<-":
		escapes := strings.Contains(in.Body, `\\`) || strings.Contains(in.Body, "\\\n")
		if (!in.Literal || layered) && (dynamic(in.Body) || (!in.Literal && escapes)) {
			return Call{}, &UnreadableError{Msg: "its here-document expands text (an unquoted delimiter " + quote(in.Target) + ")"}
		}
		return Call{Text: in.Body, Dir: dir}, nil
	case "<<<":
		if dynamic(in.Target) {
			return Call{}, &UnreadableError{Msg: "its here-string holds an expansion"}
		}
		return Call{Text: in.Target, Dir: dir}, nil
	}
	return Call{}, &UnreadableError{Msg: "it reads its patch from " + quote(in.String()) + ", not from the line"}
}

// segDir is the directory a segment runs in, from the cd commands before
// it: only certain cd commands to literal directories are followed.
func segDir(s shell.Segment) (string, error) {
	dir := ""
	for _, c := range s.Dirs {
		if c.Maybe || len(c.Argv) != 2 || c.Argv[0] != "cd" || dynamic(c.Argv[1]) || c.Argv[1] == "-" {
			return "", &UnreadableError{Msg: "it runs in a directory the line cannot tell (" + quote(strings.Join(c.Argv, " ")) + ")"}
		}
		if path.IsAbs(c.Argv[1]) || dir == "" {
			dir = c.Argv[1]
		} else {
			dir = path.Join(dir, c.Argv[1])
		}
	}
	return dir, nil
}

// quote is s in backquotes, cut to 80 bytes.
func quote(s string) string {
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return "`" + s + "`"
}
