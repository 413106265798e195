package builtin

import (
	"slices"
	"strings"

	"github.com/hookctl/hookctl/lib/paths"
	"github.com/hookctl/hookctl/lib/shell"
)

// cmdParser parses command lines through the shared cache. Under rules
// that fold case (Windows, macOS) a command's name is read as the system
// finds the program: folded, and without .exe (Rm and RM.EXE run rm there).
// The cache's segments are shared: a line with a name to fold gets copies.
type cmdParser struct {
	c         *shell.Cache
	fold, win bool
}

func newParser(c *shell.Cache, sys paths.System) cmdParser {
	return cmdParser{c: c, fold: sys.FoldsCase(), win: sys.IsWindows()}
}

// Parse is shell.Cache.Parse, with names folded where the system folds them.
func (p cmdParser) Parse(line string) ([]shell.Segment, error) {
	segs, err := p.c.Parse(line)
	if !p.fold || err != nil {
		return segs, err
	}
	var out []shell.Segment
	for i := range segs {
		n := foldName(segs[i].Name, p.win)
		if n == segs[i].Name {
			continue
		}
		if out == nil {
			out = slices.Clone(segs[:i])
		}
		out = append(out, p.refolded(segs[i], n)...)
	}
	if out == nil {
		return segs, nil
	}
	return out, nil
}

// refolded returns a command whose name folds to n as the shell runs it:
// parsed again under its folded name, so that a launcher or shell the
// system finds for it is unwrapped as its lower-case spelling is (BASH -c
// 'rm -rf ~', SUDO.EXE rm -rf ~). A word the shell expands keeps its
// expansions; a plain one is quoted whole.
func (p cmdParser) refolded(s shell.Segment, n string) []shell.Segment {
	words := make([]string, len(s.Argv))
	for i, a := range s.Argv {
		switch {
		case i == 0:
			words[i] = shellQuote(n)
		case s.Plain(a):
			words[i] = shellQuote(a)
		default:
			words[i] = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(a) + `"`
		}
	}
	inner, err := p.c.Parse(strings.Join(words, " "))
	if err != nil || len(inner) == 0 {
		s.Name = n
		return []shell.Segment{s}
	}
	out := make([]shell.Segment, len(inner))
	for i, q := range inner {
		if i == 0 {
			q.Op = s.Op
		}
		q.Name = foldName(q.Name, p.win)
		q.Subshell = q.Subshell || s.Subshell
		q.Assigns = slices.Concat(s.Assigns, q.Assigns)
		q.Wrappers = slices.Concat(s.Wrappers, q.Wrappers)
		q.Redirects = slices.Concat(s.Redirects, q.Redirects)
		q.Dirs = slices.Concat(s.Dirs, q.Dirs)
		out[i] = q
	}
	return out
}

// foldName is a command name as a case-folding system finds its program
// (under Windows' rules, win, the base name of a backslash path too:
// C:\...\powershell.exe).
func foldName(n string, win bool) string {
	if i := strings.LastIndexByte(n, '\\'); win && i >= 0 && i < len(n)-1 {
		n = n[i+1:]
	}
	for i := 0; i < len(n); i++ {
		if c := n[i]; 'A' <= c && c <= 'Z' || c >= 0x80 || c == '.' {
			return strings.TrimSuffix(strings.ToLower(n), ".exe")
		}
	}
	return n
}
