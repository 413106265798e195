package builtin

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/lib/shell"
)

// treeOperands returns the operands a command reads as whole trees (a
// directory's files, at any depth), with files its operands as
// segmentFiles found them, and whether it descends into hidden
// directories: grep -r (no operand: the working directory), rg, ag and
// ack (hidden directories only with --hidden or -u), cp -r, scp -r, rsync
// -r or -a, diff -r, tar, zip -r, 7z, and find with -exec, -execdir, -ok or -okdir
// (its starting points; none: the working directory).
func treeOperands(s shell.Segment, files []string) (tree []string, hidden bool) {
	hidden = true
	switch s.Name {
	case "grep", "egrep", "fgrep", "zgrep":
		if !s.Flag("r", "R", "recursive", "dereference-recursive") && !slices.Contains(s.Argv, "--directories=recurse") {
			return nil, false
		}
	case "rg", "ag":
		hidden = s.Flag("hidden", "u", "unrestricted", "all-types", "a") || slices.ContainsFunc(s.Argv, func(a string) bool { return strings.HasPrefix(a, "-uu") })
	case "ack":
	case "cp", "scp":
		if !s.Flag("r", "R", "a", "recursive", "archive") {
			return nil, false
		}
		return files, true
	case "rsync":
		if !s.Flag("r", "a", "recursive", "archive") {
			return nil, false
		}
		return files, true
	case "tar":
		return tarOperands(s, files), true
	case "7z", "7za", "7zr":
		return files, true
	case "ln":
		// A link to a directory opens every file under it (ln -s ~/.aws a;
		// cat a/credentials).
		return files, true
	case "diff":
		// diff -r prints every file that differs, or is only on one side
		// with -N.
		if !s.Flag("r", "recursive") {
			return nil, false
		}
		return files, true
	case "zip":
		if !s.Flag("r", "R", "recurse-paths", "recurse-patterns") {
			return nil, false
		}
		return files, true
	case "find":
		if !slices.ContainsFunc(s.Argv, func(a string) bool {
			return a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir"
		}) {
			return nil, false
		}
		return findStarts(s.Argv), true
	default:
		return nil, false
	}
	// The searchers: their file operands, else the working directory.
	if len(files) == 0 {
		return []string{"."}, hidden
	}
	return files, hidden
}

// holdsProtected tells whether the directory d (absolute, or relative to
// an unknown directory) may hold a protected file at some depth, for a
// command that reads it whole (treeOperands): d is a directory a
// protected pattern names files in (/vault of /vault/**, a .aws directory
// of .aws/credentials, .config/gh of .config/gh/hosts.yml), or one above
// an absolute pattern's (/ of /vault/**), or, for a command that
// descends into hidden directories, the home directory, which holds the
// hidden directories of the default patterns (.aws/credentials,
// .ssh/**). A directory the allow list exempts is not. It returns the
// pattern.
func (sc *secretChecker) holdsProtected(d string, hidden bool) (string, bool) {
	if d == "" || sc.sys.MatchEvery(sc.allow, d) {
		return "", false
	}
	slash := strings.TrimSuffix(strings.ReplaceAll(d, `\`, "/"), "/")
	home := strings.TrimSuffix(strings.ReplaceAll(sc.home, `\`, "/"), "/")
	// The home directory or one above it (/, /home, /Users, C:/Users):
	// a tree read of it reads the home's hidden directories too.
	atHome := home != "" && (sc.sys.Equal(slash, home) || sc.sys.IsAbs(d) && strings.HasPrefix(sc.sys.Fold(home)+"/", sc.sys.Fold(slash)+"/"))
	root := slash == "" || len(slash) == 2 && slash[1] == ':'
	for _, pat := range sc.protect {
		abs := sc.sys.IsAbs(pat) || strings.HasPrefix(pat, "/")
		if abs && root && sc.sys.IsAbs(d) {
			return pat, true
		}
		if !abs && hidden && atHome && strings.HasPrefix(pat, ".") && strings.Contains(pat, "/") {
			return pat, true
		}
		for i := strings.IndexByte(pat, '/'); i >= 0; {
			q := pat[:i]
			if last := q[strings.LastIndexByte(q, '/')+1:]; q != "" && (abs || specific(last)) && sc.sys.Match(q, d) {
				return pat, true
			}
			j := strings.IndexByte(pat[i+1:], '/')
			if j < 0 {
				break
			}
			i += j + 1
		}
	}
	return "", false
}

// checkTree checks the operands a command reads as trees at place p.
func (sc *secretChecker) checkTree(s shell.Segment, tree []string, hidden bool, verb string, p place) (secretHit, bool) {
	for _, w := range tree {
		f, ok := sc.fileWord(w, p)
		if !ok {
			continue
		}
		for _, form := range sc.sys.ArgForms(f) {
			d := sc.resolve(form, p.cwd)
			if p.cwd == "" && !sc.sys.IsAbs(d) && !strings.HasPrefix(form, "~") {
				d = path.Clean(d) // relative to a directory the guard cannot tell
			}
			if pat, ok := sc.holdsProtected(d, hidden); ok {
				return told(s, secretHit{file: w, how: verb + " with every file under it, where the protected pattern " + strconv.Quote(pat) + " names files"}), true
			}
		}
	}
	return secretHit{}, false
}

// findFeeding returns the starting points of a find whose output is piped
// into s (find DIR -type f | xargs cat), nothing when s is not fed by one.
func findFeeding(segs []shell.Segment, i int, s *shell.Segment) []string {
	f := findSource(segs, i, s)
	if f == nil {
		return nil
	}
	return findStarts(f.Argv)
}

// findSource returns the find whose output is piped into s, nil when
// there is none.
func findSource(segs []shell.Segment, i int, s *shell.Segment) *shell.Segment {
	if s.Op != "|" && s.Op != "|&" {
		return nil
	}
	j := i - 1
	for j >= 0 && segs[j].Subshell && !s.Subshell {
		j--
	}
	if j < 0 || segs[j].Name != "find" {
		return nil
	}
	return &segs[j]
}

// findNoRead are commands that do not read the files find runs them on.
var findNoRead = map[string]bool{
	"rm": true, "rmdir": true, "unlink": true, "chmod": true, "chown": true, "chgrp": true, "touch": true,
	"ls": true, "stat": true, "file": true, "wc": true, "du": true, "echo": true, "printf": true,
	"basename": true, "dirname": true, "realpath": true, "readlink": true, "test": true, "[": true,
}

// findExecReads reports whether a find runs, with -exec, -execdir, -ok or
// -okdir, a command that may read the files it is given (any but
// findNoRead).
func findExecReads(f shell.Segment) bool {
	for k := 1; k+1 < len(f.Argv); k++ {
		switch f.Argv[k] {
		case "-exec", "-execdir", "-ok", "-okdir":
			if !findNoRead[path.Base(f.Argv[k+1])] {
				return true
			}
		}
	}
	return false
}

// findNames returns the names a find selects by: the values of -name,
// -iname (lower case), -path, -ipath and -wholename, as globs of the files
// it passes to what it runs or feeds (find . -name .env | xargs cat,
// find . -name '.e*' -exec cat {} +).
func findNames(f shell.Segment) []string {
	var out []string
	for k := 1; k+1 < len(f.Argv); k++ {
		switch f.Argv[k] {
		case "-name", "-path", "-wholename":
			out = append(out, f.Argv[k+1])
		case "-iname", "-ipath", "-iwholename":
			out = append(out, strings.ToLower(f.Argv[k+1]))
		default:
			continue
		}
		k++
	}
	return out
}

// tarOperands returns tar's operands, a relative one joined to the
// directory a -C (--directory) before it changes to: tar czf x -C ~ .
// archives the home.
func tarOperands(s shell.Segment, files []string) []string {
	dir := ""
	argv := s.Argv
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-C" || a == "--directory" || a == "--cd":
			if i+1 < len(argv) {
				dir = argv[i+1]
			}
		case strings.HasPrefix(a, "--directory="):
			dir = strings.TrimPrefix(a, "--directory=")
		case len(a) > 2 && strings.HasPrefix(a, "-C"):
			dir = a[2:]
		}
	}
	if dir == "" {
		return files
	}
	out := make([]string, 0, len(files))
	for _, f := range files {
		if f == "" || f[0] == '/' || f[0] == '~' || f[0] == '$' {
			out = append(out, f)
			continue
		}
		out = append(out, path.Join(dir, f))
	}
	return out
}
