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
//
// Under macOS' rules a GNU tool Homebrew installs with a "g" in front of
// its name (grm, gfind, gxargs, gtar: gnuTools) is read as that tool.
type cmdParser struct {
	c              *shell.Cache
	fold, win, gnu bool
}

func newParser(c *shell.Cache, sys paths.System) cmdParser {
	return cmdParser{c: c, fold: sys.FoldsCase(), win: sys.IsWindows(), gnu: sys.FoldsCase() && !sys.IsWindows()}
}

// name is a command's name as the system finds its program.
func (p cmdParser) name(n string) string {
	n = foldName(n, p.win)
	if p.gnu && len(n) > 2 && n[0] == 'g' && gnuTools[n[1:]] {
		return n[1:]
	}
	return n
}

// gnuTools are the programs of GNU coreutils, findutils, tar, sed, grep,
// awk, diffutils and binutils that Homebrew installs on macOS as "g" and
// their name.
var gnuTools = map[string]bool{
	"b2sum": true, "base32": true, "base64": true, "basename": true, "basenc": true, "cat": true,
	"chcon": true, "chgrp": true, "chmod": true, "chown": true, "chroot": true, "cksum": true,
	"comm": true, "cp": true, "csplit": true, "cut": true, "date": true, "dd": true, "df": true,
	"dir": true, "dircolors": true, "dirname": true, "du": true, "echo": true, "env": true,
	"expand": true, "expr": true, "factor": true, "false": true, "fmt": true, "fold": true,
	"groups": true, "head": true, "hostid": true, "id": true, "install": true, "join": true,
	"kill": true, "link": true, "ln": true, "logname": true, "ls": true, "md5sum": true,
	"mkdir": true, "mkfifo": true, "mknod": true, "mktemp": true, "mv": true, "nice": true,
	"nl": true, "nohup": true, "nproc": true, "numfmt": true, "od": true, "paste": true,
	"pathchk": true, "pinky": true, "pr": true, "printenv": true, "printf": true, "ptx": true,
	"pwd": true, "readlink": true, "realpath": true, "rm": true, "rmdir": true, "runcon": true,
	"seq": true, "sha1sum": true, "sha224sum": true, "sha256sum": true, "sha384sum": true,
	"sha512sum": true, "shred": true, "shuf": true, "sleep": true, "sort": true, "split": true,
	"stat": true, "stdbuf": true, "stty": true, "sum": true, "sync": true, "tac": true,
	"tail": true, "tee": true, "test": true, "timeout": true, "touch": true, "tr": true,
	"true": true, "truncate": true, "tsort": true, "tty": true, "uname": true, "unexpand": true,
	"uniq": true, "unlink": true, "users": true, "vdir": true, "wc": true, "who": true,
	"whoami": true, "yes": true,
	"find": true, "xargs": true, "locate": true, "updatedb": true, // findutils
	"tar": true, "sed": true, "grep": true, "egrep": true, "fgrep": true, "awk": true,
	"diff": true, "cmp": true, "diff3": true, "sdiff": true, "strings": true, // diffutils, binutils
}

// Parse is shell.Cache.Parse, with names folded where the system folds them.
func (p cmdParser) Parse(line string) ([]shell.Segment, error) {
	segs, err := p.c.Parse(line)
	if !p.fold || err != nil {
		return segs, err
	}
	var out []shell.Segment
	for i := range segs {
		n := p.name(segs[i].Name)
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
		q.Name = p.name(q.Name)
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
