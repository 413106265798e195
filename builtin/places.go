package builtin

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/lib/paths"
	"github.com/hookctl/hookctl/lib/shell"
)

// maxPlaces bounds the working directories followed for one command;
// past it the command's directory is unknown (see places).
const maxPlaces = 16

// place is a working directory a command may run in: cwd, and OLDPWD and
// the pushd stack there. "" is unknown.
type place struct {
	cwd   string
	old   string
	stack string // the pushd stack, NUL-separated, top first; unknown below
	depth int    // how many scripts deep the command is (see nested)
	// project is the project directory, the value of $CLAUDE_PROJECT_DIR
	// ("" if unknown).
	project string
	// literal: the line is read with its backslashes as characters, as
	// PowerShell and cmd read them (Windows' rules; see checkAt).
	literal bool
	// variant: the line is one of PowerShell's readings of another
	// (winReadings), not read again for more.
	variant bool
}

// places returns the working directories a segment may run in, from the
// directory start the line begins in, following the cd, pushd and popd
// before it. A change to a directory the guard cannot work out ("cd
// $DIR" with no value for DIR on the line) makes that place unknown (cwd
// ""); a variable the line assigns (vars, lineVars) is each of its values
// and, since the guard does not follow which one holds, also unknown. It
// reports overflow when more places were possible than it follows, or
// the shell stopped counting the changes.
func (g *dangerGuard) places(s shell.Segment, start place, vars map[string][]string) (out []place, overflow bool) {
	return g.placesAfter([]place{start}, s.Dirs, vars)
}

// placesAfter applies directory changes to a set of places, with the
// values vars gives the variables their arguments name.
func (g *dangerGuard) placesAfter(out []place, dirs []shell.Chdir, vars map[string][]string) ([]place, bool) {
	for _, c := range dirs {
		if len(c.Argv) == 0 {
			return out, true
		}
		// Each value first (what a finding names), then the change as
		// written (unknown: which value holds is not followed).
		cd := shell.Segment{Name: path.Base(c.Argv[0]), Argv: c.Argv, Literal: c.Literal, Assigns: c.Assigns}
		values := g.varVariants(cd, vars)
		readings, replaced := g.cdReadings(cd, vars)
		values = append(values, readings...)
		next := out[:0:0]
		if c.Maybe {
			next = append(next, out...)
		}
		for _, p := range out {
			for _, v := range values {
				q := g.chdir(v, p)
				q.depth, q.project, q.literal = p.depth, p.project, p.literal
				next = append(next, q)
			}
			if replaced {
				continue
			}
			q := g.chdir(cd, p)
			q.depth, q.project, q.literal = p.depth, p.project, p.literal
			next = append(next, q)
		}
		out = dedupPlaces(next)
		if len(out) > maxPlaces {
			return out[:maxPlaces], true
		}
	}
	return out, false
}

// placeMemo remembers the places of the last segment looked at, since the
// next one's directory changes mostly extend it ("cd a && x && y").
type placeMemo struct {
	dirs     []shell.Chdir
	places   []place
	overflow bool
	valid    bool
}

// placesOf is places, computed from the memo when s's changes extend
// those of the segment before.
func (g *dangerGuard) placesOf(m *placeMemo, s shell.Segment, start place, vars map[string][]string) ([]place, bool) {
	n := len(m.dirs)
	var (
		out      []place
		overflow bool
	)
	if m.valid && n <= len(s.Dirs) && slices.EqualFunc(m.dirs, s.Dirs[:n], sameChdir) {
		out, overflow = m.places, m.overflow
		if !overflow && n < len(s.Dirs) {
			out, overflow = g.placesAfter(slices.Clone(out), s.Dirs[n:], vars)
		}
	} else {
		out, overflow = g.places(s, start, vars)
	}
	*m = placeMemo{dirs: s.Dirs, places: out, overflow: overflow, valid: true}
	return out, overflow
}

// sameChdir reports whether two directory changes do the same.
func sameChdir(a, b shell.Chdir) bool {
	return a.Maybe == b.Maybe && slices.Equal(a.Argv, b.Argv) && slices.Equal(a.Literal, b.Literal) && slices.Equal(a.Assigns, b.Assigns)
}

// dedupPlaces drops repeated places, keeping the first of each.
func dedupPlaces(ps []place) []place {
	out := ps[:0]
	for _, p := range ps {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// chdir applies one cd, pushd, popd or chdir to a place.
func (g *dangerGuard) chdir(s shell.Segment, p place) place {
	argv := s.Argv
	name := path.Base(argv[0])
	var args []string
	noChange := false
	opts := true
	for _, a := range argv[1:] {
		switch {
		case opts && a == "--":
			opts = false
		case opts && a == "-n" && name != "cd" && name != "chdir":
			noChange = true
		case opts && len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "LPe@") == "":
			// cd -L, -P, -e, -@
		case opts && len(a) > 1 && (a[0] == '+' || a[0] == '-') && strings.Trim(a[1:], "0123456789") == "" && name != "cd" && name != "chdir":
			return place{} // rotating the stack: not followed
		default:
			opts = false
			args = append(args, a)
		}
	}
	unknown := place{old: p.cwd}
	switch name {
	case "popd":
		if p.stack == "" {
			return unknown // the stack from before the line
		}
		top, rest, _ := strings.Cut(p.stack, "\x00")
		if noChange {
			return place{cwd: p.cwd, old: p.old, stack: rest}
		}
		return place{cwd: top, old: p.cwd, stack: rest}
	case "pushd":
		if len(args) == 0 {
			if p.stack == "" {
				return unknown
			}
			top, rest, _ := strings.Cut(p.stack, "\x00")
			return place{cwd: top, old: p.cwd, stack: joinStack(p.cwd, rest)}
		}
	}
	var target string
	switch {
	case len(args) == 0:
		target = g.home
	case args[0] == "-" && name != "pushd":
		target = p.old
	default:
		target = g.dirArg(args[0], literalIn(s, args[0]), p)
	}
	if d, ok := g.sys.DriveForm(target); ok {
		target = d // cd in Git Bash (paths.ArgForms): /c/x is C:/x
	}
	if target == "" || (p.cwd == "" && !g.sys.IsAbs(target)) {
		return unknown
	}
	target = g.sys.Resolve(target, p.cwd, g.home)
	switch {
	case name != "pushd":
		return place{cwd: target, old: p.cwd, stack: p.stack}
	case noChange:
		return place{cwd: p.cwd, old: p.old, stack: joinStack(target, p.stack)}
	}
	return place{cwd: target, old: p.cwd, stack: joinStack(p.cwd, p.stack)}
}

// cdOperand splits a cd, pushd or chdir command into its options and
// its operand (the first word after them), and reports whether it has
// one.
func cdOperand(argv []string) (opts []string, operand string, ok bool) {
	for i, a := range argv[1:] {
		switch {
		case a == "--":
			if i+2 < len(argv) {
				return argv[:i+2], argv[i+2], true
			}
			return argv, "", false
		case len(a) > 1 && a[0] == '-':
		default:
			return argv[:i+1], a, true
		}
	}
	return argv, "", false
}

// cdReadings returns the directory changes that the variables a cd reads
// make of it: HOME for cd with no operand (and USERPROFILE under
// Windows' rules), OLDPWD for cd -, CDPATH for a name that does not start
// with / or ., and PWD, which a logical cd resolves a relative operand
// against. Each is given as a cd to a directory ("cd -- VALUE"). A value
// assigned before the command itself (HOME=/x cd) is what it reads, and
// replaced reports that the command as written must not be followed; a
// value the line assigns elsewhere is one more reading.
func (g *dangerGuard) cdReadings(cd shell.Segment, vars map[string][]string) (out []shell.Segment, replaced bool) {
	if cd.Name != "cd" && cd.Name != "chdir" && cd.Name != "pushd" {
		return nil, false
	}
	opts, operand, ok := cdOperand(cd.Argv)
	to := func(dir string) shell.Segment {
		return shell.Segment{Name: cd.Name, Argv: []string{cd.Argv[0], "--", dir}}
	}
	// values returns the values of a variable: the one assigned before
	// the command (own), else those the line assigns.
	values := func(name string) (vs []string, own, found bool) {
		for i := len(cd.Assigns) - 1; i >= 0; i-- {
			n, v, _ := strings.Cut(cd.Assigns[i], "=")
			switch n {
			case name:
				return []string{v}, true, true
			case name + "+":
				return []string{"$" + name + v}, true, true // unknown
			}
		}
		return vars[name], false, len(vars[name]) > 0
	}
	var names []string
	join := func(dir string) string { return dir + "/" + operand }
	switch {
	case !ok && cd.Name != "pushd":
		names = []string{"HOME"}
		if g.sys.IsWindows() {
			names = append(names, "USERPROFILE")
		}
		join = func(dir string) string { return dir }
	case !ok:
		return nil, false
	case operand == "-" && cd.Name != "pushd":
		names = []string{"OLDPWD"}
		join = func(dir string) string { return dir }
	case g.sys.IsWindows() && len(operand) >= 2 && operand[1] == ':' && isLetter(operand[0]) &&
		(len(operand) == 2 || operand[2] != '/' && operand[2] != '\\'):
		// "cd C:" and "cd C:x": the drive's working directory (as
		// PowerShell reads them, and Resolve does) and the drive's root
		// (as Git Bash's cd reads them).
		out = append(out, shell.Segment{Name: cd.Name, Argv: []string{cd.Argv[0], "--", operand[:2] + "/" + operand[2:]}})
		return out, false
	case literalIn(cd, operand) || !g.sys.IsAbs(operand) && !strings.HasPrefix(operand, "~") && !strings.HasPrefix(operand, "$"):
		if !strings.HasPrefix(operand, ".") {
			names = append(names, "CDPATH")
		}
		if !slices.Contains(opts, "-P") {
			names = append(names, "PWD")
		}
	}
	for _, name := range names {
		vs, own, found := values(name)
		if !found {
			continue
		}
		for _, v := range vs {
			if name != "CDPATH" {
				out = append(out, to(join(v)))
				continue
			}
			for _, dir := range strings.Split(v, ":") {
				out = append(out, to(join(cmp.Or(dir, "."))))
			}
		}
		// What the command reads is the assigned value; CDPATH's
		// directories fall back to the working one.
		replaced = replaced || (own && name != "CDPATH")
	}
	return out, replaced
}

// joinStack puts dir on top of a pushd stack.
func joinStack(dir, stack string) string {
	if stack == "" {
		return dir
	}
	return dir + "\x00" + stack
}

// dirArg expands a cd argument at a place: ~, $HOME, $PWD, $(pwd) and the
// like. It returns "" for a directory it cannot work out. lit tells that
// the argument's $ and backquotes are characters of its name.
func (g *dangerGuard) dirArg(a string, lit bool, p place) string {
	glob := func(a string) bool { return !g.globPlaces && strings.ContainsAny(a, "*?[") }
	if lit {
		if strings.HasPrefix(a, "$") {
			a = "./" + a // not $HOME
		}
		// On Windows: no device prefix whose "?" reads as a glob.
		if a = g.sys.Plain(a); glob(a) {
			return ""
		}
		return a
	}
	a = g.expandPlace(a, p)
	if strings.HasPrefix(a, "~") && a != "~" && !strings.HasPrefix(a, "~/") {
		t := g.classifyArg(a, p.cwd)
		return t.path
	}
	if g.home != "" {
		a = paths.Expand(a, g.home)
	}
	a = g.sys.Plain(a) // \\?\C:\x is C:/x
	if a == "" || strings.ContainsAny(a, "$`~") || glob(a) {
		return ""
	}
	return a
}

// placeRe finds the spellings of the working directory, the previous one
// and home that expandPlace replaces.
var placeRe = lazyRegexp("\\$\\(\\s*pwd(?:\\s+-[LP])?\\s*\\)|`\\s*pwd(?:\\s+-[LP])?\\s*`|\\$\\{(?:PWD|OLDPWD|HOME|CLAUDE_PROJECT_DIR)\\}|\\$(?:PWD|OLDPWD|HOME|CLAUDE_PROJECT_DIR)\\b")

// dirOfRe finds $(dirname DIR), $(realpath DIR) and $(readlink -f DIR) of
// an absolute directory once the working directory is expanded.
var dirOfRe = lazyRegexp(`\$\(\s*(dirname|realpath|readlink\s+-[fem])\s+"?([^"$()` + "`" + `\s]+)"?\s*\)`)

// cdPwdRe finds $(cd DIR && pwd), the idiom for a directory's absolute
// path.
var cdPwdRe = lazyRegexp(`\$\(\s*cd\s+"?([^"$()` + "`" + `\s;&|]+)"?\s*(?:&&|;)\s*pwd(?:\s+-[LP])?\s*\)`)

// expandPlace replaces, in a word, what the shell would replace by the
// working directory of p, the previous one and home: $(pwd), ` + "`pwd`" + `,
// $PWD, ${PWD}, $OLDPWD, ${OLDPWD}, $HOME, ${HOME}, a leading ~+ and ~-,
// then $(dirname ...), $(realpath ...) and $(readlink -f ...) of the
// result. What it cannot know (OLDPWD at the start of the line, an
// unknown directory) is left as written.
func (g *dangerGuard) expandPlace(a string, p place) string {
	if strings.IndexByte(a, '$') < 0 && strings.IndexByte(a, '`') < 0 && strings.IndexByte(a, '~') < 0 {
		return a
	}
	switch {
	case p.cwd != "" && (a == "~+" || strings.HasPrefix(a, "~+/")):
		a = p.cwd + a[2:]
	case p.old != "" && (a == "~-" || strings.HasPrefix(a, "~-/")):
		a = p.old + a[2:]
	}
	if !strings.ContainsAny(a, "$`") {
		return a
	}
	if strings.Contains(a, "${") {
		a = g.expandParams(a, p, nil)
	}
	if p.cwd != "" && strings.Contains(a, "cd") {
		a = cdPwdRe().ReplaceAllStringFunc(a, func(m string) string {
			d := cdPwdRe().FindStringSubmatch(m)[1]
			if strings.ContainsAny(d, "*?[~") || d == "-" {
				return m
			}
			return g.sys.Resolve(d, p.cwd, g.home)
		})
	}
	a = placeRe().ReplaceAllStringFunc(a, func(m string) string {
		var v string
		switch strings.Trim(m, "${}") {
		case "OLDPWD":
			v = p.old
		case "HOME":
			v = g.home
		case "CLAUDE_PROJECT_DIR":
			v = p.project
		default: // PWD, $(pwd), `pwd`
			v = p.cwd
		}
		if v == "" {
			return m
		}
		return v
	})
	for range 4 {
		b := dirOfRe().ReplaceAllStringFunc(a, func(m string) string {
			sm := dirOfRe().FindStringSubmatch(m)
			d := sm[2]
			if !path.IsAbs(d) {
				if p.cwd == "" || strings.ContainsAny(d, "~*?[") {
					return m
				}
				d = path.Join(p.cwd, d)
			}
			if sm[1] == "dirname" {
				return path.Dir(path.Clean(d))
			}
			return path.Clean(d)
		})
		if b == a {
			break
		}
		a = b
	}
	return a
}

// expandSegment returns s with expandPlace applied to its arguments and
// here-strings, sharing s's slices when nothing changes.
func (g *dangerGuard) expandSegment(s shell.Segment, p place) shell.Segment {
	var argv []string
	for i, a := range s.Argv {
		if i < len(s.Literal) && s.Literal[i] {
			continue // '$PWD' names a directory called $PWD
		}
		if b := g.expandPlace(a, p); b != a {
			if argv == nil {
				argv = slices.Clone(s.Argv)
			}
			argv[i] = b
		}
	}
	if argv != nil {
		s.Argv = argv
	}
	var redirs []shell.Redirect
	for i, r := range s.Redirects {
		if b := g.expandPlace(r.Target, p); b != r.Target {
			if redirs == nil {
				redirs = slices.Clone(s.Redirects)
			}
			redirs[i].Target = b
		}
	}
	if redirs != nil {
		s.Redirects = redirs
	}
	return s
}
