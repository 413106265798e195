package builtin

import (
	"cmp"
	"path"
	"strings"

	"github.com/hookctl/hookctl/lib/paths"
	"github.com/hookctl/hookctl/lib/shell"
)

// targetKind classifies a path a destructive command is aimed at.
type targetKind uint8

const (
	kindNone      targetKind = iota
	kindRoot                 // "/"
	kindHome                 // the user's home directory
	kindHomeDir              // another home directory, or /home, /Users themselves
	kindSystemTop            // a top-level system directory: /etc, /usr, ...
	kindSystemSub            // an important directory one level down: /usr/bin, /var/lib, ...
)

// kindSet is a set of target kinds a rule cares about.
type kindSet uint8

func kinds(ks ...targetKind) kindSet {
	var s kindSet
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

func (s kindSet) has(k targetKind) bool { return k != kindNone && s&(1<<k) != 0 }

var (
	// allTargets is what rm -r and find -delete must never be aimed at.
	allTargets = kinds(kindRoot, kindHome, kindHomeDir, kindSystemTop, kindSystemSub)
	// rootAndSystem is what chown -R and plain chmod 777 must never touch.
	rootAndSystem = kinds(kindRoot, kindSystemTop)
)

// systemTop are the top-level directories of Linux and macOS systems whose
// loss breaks the machine (or, for mount points, loses other disks).
var systemTop = map[string]bool{
	"/bin": true, "/boot": true, "/dev": true, "/etc": true, "/lib": true, "/lib32": true,
	"/lib64": true, "/libx32": true, "/opt": true, "/proc": true, "/sbin": true, "/srv": true,
	"/sys": true, "/usr": true, "/var": true, "/snap": true, "/run": true, "/nix": true,
	"/mnt": true, "/media": true, "/System": true, "/Library": true, "/Applications": true,
	"/private": true, "/Volumes": true, "/cores": true,
}

// systemSub are directories one level down that are as bad to delete.
var systemSub = map[string]bool{
	"/usr/bin": true, "/usr/sbin": true, "/usr/lib": true, "/usr/lib64": true, "/usr/libexec": true,
	"/usr/local": true, "/usr/share": true, "/usr/include": true, "/var/lib": true, "/var/log": true,
	"/var/db": true, "/private/etc": true, "/private/var": true, "/System/Library": true,
	"/nix/store": true,
}

// target is a classified path.
type target struct {
	kind targetKind
	path string // the resolved path
	all  bool   // the argument was a glob for everything in path ("/*")
	// alt is the argument's other reading, resolved, when it has two
	// (paths.ArgForms: Git Bash's /c/x on Windows); kind and path are
	// those of the reading classified worst.
	alt string
}

// describe says what the target is, for reasons.
func (t target) describe() string {
	var what string
	switch t.kind {
	case kindRoot:
		what = "the root directory " + cmp.Or(t.path, "/")
	case kindHome:
		what = "the home directory " + t.path
	case kindHomeDir:
		what = "the home directory " + t.path
		if t.path == "/home" || t.path == "/Users" || winRest(t.path) == "/users" {
			what = "every home directory (" + t.path + ")"
		}
	case kindSystemTop, kindSystemSub:
		what = "the system directory " + t.path
		if strings.ContainsAny(t.path, "*?[") {
			what = "the top-level directories matching " + t.path
		}
	}
	if t.all {
		return "everything in " + what
	}
	return what
}

// foldedTop and foldedSub are systemTop and systemSub by their names'
// case-folded keys (paths.Darwin.Fold), for rules that ignore case.
var foldedTop, foldedSub = foldKeys(systemTop), foldKeys(systemSub)

func foldKeys(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k, v := range m {
		out[paths.Darwin.Fold(k)] = v
	}
	return out
}

// classifyPath classifies a resolved, cleaned absolute path under sys's
// rules: Windows', or Unix's, where macOS's compare names regardless of
// case (/users/me is /Users/me there).
func classifyPath(p, home string, sys paths.System) targetKind {
	if sys.IsWindows() {
		return classifyWinPath(p, home)
	}
	top, sub, users := systemTop, systemSub, "/Users"
	if sys.FoldsCase() {
		p, home = sys.Fold(p), sys.Fold(home)
		top, sub, users = foldedTop, foldedSub, "/users"
	}
	switch {
	case p == "/":
		return kindRoot
	case home != "" && home != "/" && p == home:
		return kindHome
	case p == "/root" || p == "/home" || p == users:
		return kindHomeDir
	case top[p]:
		return kindSystemTop
	case sub[p]:
		return kindSystemSub
	}
	if d := path.Dir(p); d == "/home" || d == users {
		return kindHomeDir
	}
	return kindNone
}

// procRoot returns p with a leading /proc/self/root, /proc/thread-self/root
// or /proc/PID/root taken off ("/proc/self/root/etc" is "/etc": each is a
// process's root directory), and /proc/self/cwd and /proc/thread-self/cwd
// read as cwd when it is known.
func procRoot(p, cwd string) string {
	for strings.HasPrefix(p, "/proc/") {
		pid, rest, _ := strings.Cut(p[len("/proc/"):], "/")
		if pid != "self" && pid != "thread-self" && (pid == "" || strings.Trim(pid, "0123456789") != "") {
			return p
		}
		link, rest, _ := strings.Cut(rest, "/")
		switch {
		case link == "root":
			p = "/" + rest
		case link == "cwd" && cwd != "" && pid != "" && pid[0] > '9':
			p = path.Join(cwd, rest)
			if !strings.HasPrefix(cwd, "/proc/") {
				return p
			}
		default:
			return p
		}
	}
	return p
}

// patternKind returns the kind of the directories a cleaned absolute glob
// pattern may match (/us?/bin: /usr/bin, a system directory), the worst
// first, or kindNone; under Windows' and macOS' rules names match
// regardless of case (sys.Fold keys).
func patternKind(pat, home string, sys paths.System) targetKind {
	win := sys.IsWindows()
	pat = sys.Fold(pat)
	match := func(p, name string) bool {
		ok, _ := path.Match(p, sys.Fold(name))
		return ok
	}
	// A home directory: the pattern's directory part matches the one
	// holding the homes (/home/b?b, /h*/bob).
	dir := path.Dir(pat)
	if home != "" && match(pat, home) {
		return kindHome
	}
	if !win {
		for _, d := range []string{"/root", "/home", "/Users"} {
			if match(pat, d) || d != "/root" && match(dir, d) {
				return kindHomeDir
			}
		}
		for d := range systemTop {
			if match(pat, d) {
				return kindSystemTop
			}
		}
		for d := range systemSub {
			if match(pat, d) {
				return kindSystemSub
			}
		}
		return kindNone
	}
	// Windows: the pattern's drive, or C: for a drive that is a glob.
	if len(pat) < 3 || pat[1] != ':' {
		return kindNone
	}
	drive := "c:"
	if isLetter(pat[0]) {
		drive = pat[:2]
	}
	if match(pat, drive+"/users") || match(dir, drive+"/users") {
		return kindHomeDir
	}
	worst := kindNone
	for rest, k := range winSystem {
		if match(pat, drive+rest) && (worst == kindNone || k == kindSystemTop) {
			worst = k
		}
	}
	return worst
}

// winSystem are the Windows directories, on any drive, whose loss breaks
// the machine, by their drive-less lower-case path.
var winSystem = map[string]targetKind{
	"/windows": kindSystemTop, "/program files": kindSystemTop, "/program files (x86)": kindSystemTop,
	"/programdata": kindSystemTop, "/windows/system32": kindSystemSub, "/windows/syswow64": kindSystemSub,
	"/windows/winsxs": kindSystemSub, "/program files/common files": kindSystemSub,
}

// winRest returns a Windows drive path's rest in lower case (C:/Users ->
// /users), or "" for another path.
func winRest(p string) string {
	if len(p) < 3 || p[1] != ':' || p[2] != '/' {
		return ""
	}
	return paths.Windows.Fold(p[2:])
}

// adminShare returns the drive path an administrative share names
// (//host/c$/Users -> c:/Users), and whether p is one.
func adminShare(p string) (string, bool) {
	if !strings.HasPrefix(p, "//") {
		return "", false
	}
	_, share, ok := strings.Cut(p[2:], "/")
	if !ok || len(share) < 2 || share[1] != '$' || !isLetter(share[0]) || (len(share) > 2 && share[2] != '/') {
		return "", false
	}
	return share[:1] + ":/" + strings.TrimPrefix(share[2:], "/"), true
}

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// classifyWinPath is classifyPath under Windows' rules: names compare
// regardless of case, a drive's root is a root, C:/Users holds the home
// directories.
func classifyWinPath(p, home string) targetKind {
	if d, ok := adminShare(p); ok {
		p = d // //host/C$/Users/me is C:/Users/me of that host
	}
	rest := winRest(p)
	switch {
	case p == "/" || rest == "/":
		return kindRoot
	case strings.HasPrefix(p, "//") && strings.Count(strings.TrimSuffix(p[2:], "/"), "/") <= 1:
		return kindRoot // a share's root, //server/share
	case home != "" && paths.Windows.Equal(p, home) && winRest(home) != "/":
		return kindHome
	case rest == "/users":
		return kindHomeDir
	case winSystem[rest] != kindNone:
		return winSystem[rest]
	case rest != "" && path.Dir(rest) == "/users":
		return kindHomeDir
	}
	return kindNone
}

// classifyArg is classifyArg of the guard's rules and home, for an
// argument whose $ and backquotes start expansions.
func (g *dangerGuard) classifyArg(arg, cwd string) target {
	return classifyArg(g.sys, arg, false, cwd, g.home)
}

// classifyIn is classifyArg of arg, one of the words of s: a $ or a
// backquote that s marks literal ('/srv/$x', //host/c$/x) is a character
// of the name.
func (g *dangerGuard) classifyIn(s shell.Segment, arg, cwd string) target {
	return classifyArg(g.sys, arg, literalIn(s, arg), cwd, g.home)
}

// literalIn reports whether arg, a word of s, holds a $ or a backquote
// that the shell does not expand (see shell.Segment.Plain).
func literalIn(s shell.Segment, arg string) bool {
	return s.Literal != nil && strings.ContainsAny(arg, "$`") && s.Plain(arg)
}

// classifyArg classifies a command argument naming a path, as the shell
// would see it: ~, ~user, $HOME and ${HOME} are expanded, a relative path
// is resolved against cwd (unknown when cwd is ""), and a trailing
// all-matching glob component ("/*", "/.*") stands for the directory it
// empties. Arguments with other expansions are unknown (kindNone). When
// lit is set, the argument's $ and backquotes are characters of its name
// (it was quoted: '/tmp/$x/..'), not expansions.
func classifyArg(sys paths.System, arg string, lit bool, cwd, home string) target {
	t := arg
	if t == "" {
		return target{}
	}
	if strings.HasPrefix(t, "~") && t != "~" && !strings.HasPrefix(t, "~/") {
		// ~user: that user's home directory.
		name, rest, _ := strings.Cut(t[1:], "/")
		if name == "" || strings.ContainsAny(name, "$`*?[") {
			return target{}
		}
		if name == "root" {
			t = "/root/" + rest
		} else {
			t = "/home/" + name + "/" + rest
		}
	}
	switch {
	case lit && strings.HasPrefix(t, "$"):
		// '$HOME/x' names a directory called $HOME, which Resolve
		// must not expand either.
		t = "./" + t
	case home != "":
		t = paths.Expand(t, home)
	case t == "~" || strings.HasPrefix(t, "~/") || strings.Contains(t, "$HOME") || strings.Contains(t, "${HOME}"):
		return target{}
	}
	if !lit && strings.ContainsAny(t, "$`") {
		return target{}
	}
	all, pattern := false, false
	// On Windows: slashes, and no device prefix whose "?" reads as a glob.
	t = procRoot(sys.Plain(t), cwd)
	if i := strings.IndexAny(t, "*?["); i >= 0 {
		// Find the component holding the first glob character.
		start := strings.LastIndexByte(t[:i], '/') + 1
		end := strings.IndexByte(t[i:], '/')
		comp := t[start:]
		if end >= 0 {
			comp = t[start : i+end]
		}
		dir := t[:start]
		switch {
		case isWildcard(comp) && (end < 0 || strings.Trim(t[i+end:], "/") == ""):
			// "dir/*": everything in dir.
			all = true
			t = dir
			if t == "" {
				t = "."
			}
		case sys.TopLevel(dir):
			// "/u*": top-level directories (on Windows also C:/W*,
			// /c/W*, //server/share/D*).
			return target{kind: kindSystemTop, path: t}
		default:
			// "/srv/dat?", "~/.ss?": the pattern stays in the path,
			// which is then below its literal directory (/srv/,
			// ~/) for the project and temporary checks, and of the
			// kinds it matches ("/us?/bin", "/home/b?b"). A glob
			// component followed by ".." cancels out when cleaned.
			pattern = true
		}
	}
	// A path that is none of the special kinds keeps its resolved path,
	// for the project check. An argument read two ways is classified
	// by its worse reading and keeps the other (alt).
	var out target
	forms, n := [2]string{t}, 1
	if d, ok := sys.GitBashForm(t, cwd); ok {
		forms, n = [2]string{d, t}, 2 // as paths.ArgFormsIn, without allocating
	}
	for _, f := range forms[:n] {
		if !path.IsAbs(f) && !sys.IsAbs(f) && cwd == "" {
			continue
		}
		p := procRoot(sys.Resolve(f, cwd, home), cwd)
		ft := target{kind: classifyPath(p, home, sys), path: p, all: all}
		if (pattern || strings.ContainsAny(p, "*?[")) && ft.kind == kindNone {
			// A glob, or a relative name in a directory that a cd to a
			// glob led to (cd /ro?t).
			ft.kind = patternKind(p, home, sys)
		}
		switch {
		case out.path == "":
			out = ft
		case out.kind == kindNone && ft.kind != kindNone:
			ft.alt = out.path
			out = ft
		case out.alt == "":
			out.alt = p
		}
	}
	return out
}

// globHit returns the home directory, the project directory, or one of
// their parents, when a glob argument ("../sh*", "/home/d?v") matches it
// (they are the directories a guessed name would aim at), or "". lit
// tells that the argument's $ and backquotes are characters of it.
func (g *dangerGuard) globHit(arg string, lit bool, cwd, project string) string {
	if !strings.ContainsAny(arg, "*?[") || (!lit && strings.ContainsAny(arg, "$`")) || dotArg(arg) {
		return ""
	}
	if hit := g.globHitOf(arg, cwd, project); hit != "" {
		return hit
	}
	if d, ok := g.sys.DriveForm(arg); ok {
		return g.globHitOf(d, cwd, project) // Git Bash's /c/Us*: C:/Us*
	}
	return ""
}

// globHitOf is globHit of one reading of the argument; under Windows'
// rules names match regardless of case.
func (g *dangerGuard) globHitOf(arg, cwd, project string) string {
	win := g.sys.IsWindows()
	// The home and the working directory are names, not patterns: their
	// own *, ?, [ and \ are quoted (a project under /srv/p[1] is not one
	// under /srv/p1).
	pat := arg
	if g.home != "" {
		pat = paths.ExpandPattern(pat, g.home)
	}
	if !path.IsAbs(pat) && !(win && g.sys.IsAbs(pat)) {
		if cwd == "" {
			return ""
		}
		pat = paths.QuoteMeta(cwd) + "/" + pat
	}
	pat = g.sys.Fold(path.Clean(pat))
	for _, start := range []string{project, g.home} {
		for d := start; d != "" && d != "/" && d != "."; d = path.Dir(d) {
			if ok, _ := path.Match(pat, g.sys.Fold(d)); ok {
				return d
			}
		}
	}
	return ""
}

// isWildcard reports whether a path component matches every name: "*",
// ".*", "**", "*.*" is not (it needs a dot) but "?*" is.
func isWildcard(comp string) bool {
	switch comp {
	case "*", ".*", "**", "?*", ".?*", "{*,.*}", "{.*,*}":
		return true
	}
	return false
}
