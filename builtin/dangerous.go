package builtin

import (
	"context"
	"fmt"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/lib/paths"
	"github.com/hookctl/hookctl/lib/shell"
)

// Rule names of dangerous-commands, as they appear in reasons.
const (
	ruleRmRecursive    = "rm-recursive"
	ruleNoPreserveRoot = "no-preserve-root"
	ruleMkfs           = "mkfs"
	ruleDiskWrite      = "disk-write"
	ruleForkBomb       = "fork-bomb"
	rulePipeToShell    = "pipe-to-shell"
	ruleChmod          = "chmod-777"
	ruleChown          = "chown-recursive"
	ruleFindDelete     = "find-delete"
	ruleForcePush      = "force-push"
	ruleGitDiscard     = "git-discard"
	ruleRmOutside      = "rm-outside-project"
	ruleRmProject      = "rm-project"
	ruleUnseen         = "unseen-targets"
	ruleInterpreter    = "interpreter-delete"
)

func dangerousSpec() Spec {
	return Spec{
		Name: "dangerous-commands",
		Description: "Denies (or asks about) destructive shell commands, found by parsing the command line: " +
			"recursive rm of /, ~, home or system directories, --no-preserve-root, mkfs, dd or redirections onto disk devices, " +
			"fork bombs, curl/wget piped into a shell, chmod 777 and chown -R of system directories, git force pushes, " +
			"git reset --hard and git clean -f, a recursive rm of the project directory or its parents, and of anything outside it " +
			"($CLAUDE_PROJECT_DIR, else the payload's cwd; home subtrees included, the temporary directories not). " +
			"It follows cd, $(pwd) and $PWD, xargs and parallel arguments and python, node, ruby and perl one-liners, " +
			"and asks about a recursive delete whose targets it cannot see (xargs fed by a pipe, find \"$DIR\" -delete).",
		Events:   []string{"PreToolUse", "PermissionRequest"},
		Priority: 1000,
		Options: []OptionSpec{
			{Name: "allow", Type: TypeList, Doc: "regular expressions matched against each command of the line (its words joined by spaces, launchers such as sudo removed); a command matching one is never flagged"},
			{Name: "git_destructive", Type: TypeBool, Doc: "also flag git reset --hard and git clean -f, which discard uncommitted work", Default: true},
			{Name: "mode", Type: TypeString, Doc: `"deny" or "ask"`, Default: "deny"},
			{Name: "outside_project", Type: TypeBool, Doc: "flag a recursive rm of anything outside the project directory (home subtrees included; /tmp, /var/tmp and $TMPDIR are not)", Default: true},
		},
	}
}

func buildDangerous(b *build) ([]engine.Hook, error) {
	mode, err := b.mode()
	if err != nil {
		return nil, err
	}
	g := &dangerGuard{home: b.home, sys: b.cfg.system, gitDestructive: b.opts.boolean("git_destructive"), outside: b.opts.boolean("outside_project"), shell: newParser(b.shell, b.cfg.system),
		tmpDirs: tmpDirs(b.getenv, b.cfg.Getenv == nil), globPlaces: true}
	getenv := b.getenv
	for i, expr := range b.opts.list("allow") {
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, b.optErr("allow", "element %d is not a valid regular expression: %v", i, err)
		}
		g.allow = append(g.allow, re)
	}
	decide := engine.Deny
	if mode == "ask" {
		decide = engine.Ask
	}
	h := b.hook(engine.Hook{
		Event: "PreToolUse",
		// And the input a permission prompt is about to run: a
		// PermissionRequest hook's updatedInput is applied after the
		// PreToolUse hooks, so it is judged here too.
		Events:  []string{"PermissionRequest"},
		Matcher: "Bash",
		Handler: cheap(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			in, dirs := shellCall(g.sys, g.home, c.Payload)
			cmd := str(in, "command")
			if strings.TrimSpace(cmd) == "" {
				return nil, nil
			}
			project := getenv("CLAUDE_PROJECT_DIR")
			if project == "" {
				project = str(c.Payload, "cwd")
			}
			// Judged in each directory the call may run in: a deny in
			// any stands over an ask in another.
			var asked *finding
			for i := range dirs.len() {
				f, ok := g.checkIn(cmd, dirs.at(i), project)
				switch {
				case !ok:
				case f.ask:
					if asked == nil {
						asked = &f
					}
				default:
					return decide(f.reason()), nil
				}
			}
			if asked != nil {
				return engine.Ask(asked.reason()), nil
			}
			return nil, nil
		}),
	})
	return []engine.Hook{h}, nil
}

// dangerGuard holds a dangerous-commands configuration. It is immutable
// and safe for concurrent use.
type dangerGuard struct {
	shell          cmdParser
	allow          []*regexp.Regexp
	gitDestructive bool
	outside        bool
	home           string
	// sys is the path rules the commands' arguments are read with.
	sys paths.System
	// tmpDirs are the temporary directories: what is under them may be
	// deleted (nil: those of the process's environment).
	tmpDirs []string
	// globPlaces makes a cd to a glob (cd /ro?t) lead to the pattern,
	// whose relative names are then judged by the kinds it may match
	// and by its literal directory; without it the place is unknown.
	globPlaces bool
}

// finding is one dangerous command.
type finding struct {
	rule string // rule name
	cmd  string // the offending command
	why  string // what it would do
	ask  bool   // the guard cannot see enough to deny: ask, even in deny mode
}

func (f finding) reason() string {
	return fmt.Sprintf("`%s` %s (dangerous-commands rule %s)", truncate(f.cmd, 200), f.why, f.rule)
}

// checkIn reports the first dangerous command of a command line, for an
// agent whose working directory is cwd ("" if unknown) in project ("" if
// unknown): a recursive rm of the project directory, its parents or
// anything outside it is dangerous too. A finding to deny wins over one to ask, wherever
// they are in the line.
func (g *dangerGuard) checkIn(line, cwd, project string) (finding, bool) {
	return g.checkAt(line, place{cwd: cwd}, project)
}

// maxNested bounds how deeply scripts found in a command line (echoed into
// a shell, run by an interpreter's os.system, given to parallel) are
// checked in turn; deeper, the guard asks.
const maxNested = 8

// nested checks a script that a command at p runs, one level deeper.
func (g *dangerGuard) nested(line string, p place, project string) (finding, bool) {
	if p.depth >= maxNested {
		return finding{rule: ruleUnseen, cmd: line, ask: true, why: "nests scripts too deeply for the guard to check"}, true
	}
	p.depth++
	return g.checkAt(line, p, project)
}

// checkAt is checkIn for a line run at a place. Under Windows' rules a
// line with a backslash is read twice: as Git Bash reads it (a backslash
// escapes), and as PowerShell and cmd read it (a backslash is a path's
// separator, so Remove-Item C:\Users\me is not C:Usersme); a deny of
// either reading wins, as for paths.ArgForms.
func (g *dangerGuard) checkAt(line string, at place, project string) (finding, bool) {
	f, ok := g.checkLiteral(line, at, project)
	if ok && !f.ask || at.variant || !g.sys.IsWindows() {
		return f, ok
	}
	// PowerShell's own syntax, which a POSIX parser fails on or splits
	// otherwise: each further reading is checked too; a deny wins.
	v := at
	v.variant = true
	for _, r := range winReadings(line) {
		if f2, ok2 := g.checkLiteral(r, v, project); ok2 && (!ok || !f2.ask) {
			return f2, true
		}
	}
	return f, ok
}

// checkLiteral is checkAt without PowerShell's readings: the line as
// Git Bash reads it and, under Windows' rules, with its backslashes as
// characters.
func (g *dangerGuard) checkLiteral(line string, at place, project string) (finding, bool) {
	f, ok := g.checkReading(line, at, project)
	if ok && !f.ask || at.literal || !g.sys.IsWindows() || !strings.Contains(line, `\`) {
		return f, ok
	}
	lit := at
	lit.literal = true
	if f2, ok2 := g.checkReading(literalBackslashes(line), lit, project); ok2 && (!ok || !f2.ask) {
		return f2, true
	}
	return f, ok
}

// checkReading is checkAt for one reading of the line.
func (g *dangerGuard) checkReading(line string, at place, project string) (finding, bool) {
	cwd := at.cwd
	segs, err := g.shell.Parse(line)
	if err != nil {
		if f, ok := g.fallback(line); ok {
			return f, true
		}
		// bash runs the complete commands before a syntax error.
		if prefix := shell.RunnablePrefix(line); prefix != "" {
			return g.checkAt(prefix, at, project)
		}
		return finding{}, false
	}
	if f, ok := g.forkBomb(line, func(name string) bool {
		n := 0
		for _, s := range segs {
			if s.Name == name {
				n++
			}
		}
		return n >= 2
	}); ok {
		return f, true
	}
	if cwd != "" {
		cwd = g.sys.Normalize(cwd)
	}
	if project != "" {
		project = g.sys.Normalize(project)
	}
	var (
		asked finding
		ask   bool
		memo  placeMemo
	)
	start := [1]place{{cwd: cwd, depth: at.depth, project: project}}
	vars := g.lineVars(segs, start[0])
	for i, s := range segs {
		places, overflow := start[:], false
		if len(s.Dirs) > 0 {
			places, overflow = g.placesOf(&memo, s, start[0], vars)
		}
		for _, script := range g.scriptValues(s, vars, start[0].depth) {
			// eval "$s", bash -c "$s": the value is a script, read as
			// one (s='cd ~ && rm -rf *'), not as a command's words.
			for _, p := range places {
				if f, ok := g.nested(script, p, project); keep(&asked, &ask, f, ok) {
					return f, true
				}
			}
		}
		variants := g.varVariants(s, vars)
		for vi := -1; vi < len(variants); vi++ {
			v := s
			if vi >= 0 {
				v = variants[vi]
			}
			for _, p := range places {
				e := g.expandSegment(v, p)
				f, ok := g.segment(segs, i, e, p, project, vars)
				if !ok {
					f, ok = g.outsideProject(e, p.cwd, project)
				}
				if keep(&asked, &ask, f, ok) {
					return f, true
				}
			}
		}
		if !ask && len(vars[""]) > 0 {
			if why := unknownUse(s, vars); why != "" && !g.allowed(strings.Join(s.Argv, " ")) {
				asked, ask = finding{rule: ruleUnseen, cmd: strings.Join(s.Argv, " "), ask: true, why: why}, true
			}
		}
		if !ask {
			if f, ok := g.mayDelete(s, vars, places, project); ok {
				asked, ask = f, true
			}
		}
		if overflow && !ask && deletes(s) && !g.allowed(strings.Join(s.Argv, " ")) {
			asked, ask = finding{rule: ruleUnseen, cmd: strings.Join(s.Argv, " "), ask: true,
				why: "deletes files in a working directory the guard cannot follow (too many cd before it)"}, true
		}
	}
	return asked, ask
}

// mayDelete asks about an rm or a find that its words do not show to
// delete recursively but an expansion the guard cannot know may make so
// (rm $X ~, find ~ $(cat opts): $X may be -r, the substitution -delete),
// when it names what a recursive rm or find -delete must not touch.
func (g *dangerGuard) mayDelete(s shell.Segment, vars map[string][]string, places []place, project string) (finding, bool) {
	var targets []string
	switch {
	case s.Name == "rm" && !s.Flag("r", "R", "recursive"):
		targets = s.Argv[1:]
	case s.Name == "find" && !findDeletes(s.Argv, g.shell.name):
		targets = findStarts(s.Argv)
	default:
		return finding{}, false
	}
	unknown := ""
	for k, a := range s.Argv[1:] {
		if a == "--" && s.Name == "rm" {
			break // operands only after it: none is an option
		}
		if s.Name == "find" && findValued[s.Argv[k]] {
			continue // -name "$X": a pattern, not an action
		}
		if g.unknownWord(s, a, vars) {
			unknown = a
			break
		}
	}
	if unknown == "" || g.allowed(strings.Join(s.Argv, " ")) {
		return finding{}, false
	}
	for _, p := range places {
		e := g.expandSegment(s, p)
		for i, a := range targets {
			if i+1 < len(e.Argv) && s.Name == "rm" {
				a = e.Argv[i+1]
			}
			if g.unknownWord(s, a, vars) || s.Name == "rm" && (dotArg(a) || a == "--") {
				continue // rm refuses to remove . and ..
			}
			t := g.classifyIn(e, g.expandPlace(a, p), p.cwd)
			if allTargets.has(t.kind) || g.projectTarget(t, project) != "" {
				return finding{rule: ruleUnseen, cmd: strings.Join(s.Argv, " "), ask: true,
					why: s.Name + " of " + a + " with " + unknown + ", which the guard cannot know and may make it delete recursively"}, true
			}
		}
	}
	return finding{}, false
}

// findValued are find's tests and options whose value is the next word.
var findValued = map[string]bool{
	"-name": true, "-iname": true, "-path": true, "-ipath": true, "-wholename": true, "-iwholename": true,
	"-regex": true, "-iregex": true, "-lname": true, "-ilname": true, "-type": true, "-xtype": true,
	"-newer": true, "-anewer": true, "-cnewer": true, "-samefile": true, "-mtime": true, "-mmin": true,
	"-atime": true, "-amin": true, "-ctime": true, "-cmin": true, "-size": true, "-user": true, "-group": true,
	"-uid": true, "-gid": true, "-perm": true, "-maxdepth": true, "-mindepth": true, "-links": true,
	"-inum": true, "-fstype": true, "-printf": true, "-context": true,
}

// unknownWord reports whether a word of s holds an expansion the guard
// cannot know: a command substitution but one of echo (echoedWords), or
// a variable neither the line gives values to nor one the guard reads
// (HOME, PWD, OLDPWD, CLAUDE_PROJECT_DIR).
func (g *dangerGuard) unknownWord(s shell.Segment, a string, vars map[string][]string) bool {
	if !strings.ContainsAny(a, "$`") || s.Plain(a) {
		return false
	}
	if strings.Contains(a, "$(") || strings.IndexByte(a, '`') >= 0 {
		return echoedWords(a) == nil
	}
	for _, m := range varRefRe().FindAllStringSubmatch(a, -1) {
		switch name := m[1] + m[2]; name {
		case "HOME", "PWD", "OLDPWD", "CLAUDE_PROJECT_DIR":
		case "*":
			if len(vars["@"]) == 0 {
				return true
			}
		default:
			if len(vars[name]) == 0 {
				return true
			}
		}
	}
	return strings.Contains(a, "${!") || strings.Contains(a, "$((") || strings.Contains(a, "$'")
}

// unknownUse tells why s cannot be judged when it uses a variable the
// line gives more values than the guard tries: as its command name (or
// the line eval or bash -c runs), or in an rm or a find (whose options
// the variable may hold: c="-rf $HOME"; rm $c), or in a cd before an rm
// or a find that deletes. "" when it can be.
func unknownUse(s shell.Segment, vars map[string][]string) string {
	const more = " a variable the line gives more values than the guard tries"
	deleter := s.Name == "rm" || s.Name == "find" && deletes(s)
	switch place := unknownPlace(s, vars, deleter); {
	case place == "name":
		return "runs a command named by" + more
	case deleter && overflowedVar(s, vars):
		return "deletes files named by" + more
	case place == "dir" && deleter:
		return "deletes files in a directory named by" + more
	}
	return ""
}

// keep records a finding of a line's, if any (ok): the first ask is kept
// in *asked (*ask set); a deny decides the line, which keep reports.
func keep(asked *finding, ask *bool, f finding, ok bool) bool {
	switch {
	case !ok:
		return false
	case !f.ask:
		return true
	case !*ask:
		*asked, *ask = f, true
	}
	return false
}

// deletes reports whether a command deletes files recursively, as far as
// its name and flags tell.
func deletes(s shell.Segment) bool {
	switch s.Name {
	case "rm":
		return s.Flag("r", "R", "recursive")
	case "find":
		return slices.Contains(s.Argv, "-delete") || slices.Contains(s.Argv, "-exec") || slices.Contains(s.Argv, "-execdir")
	}
	return false
}

// outsideProject flags a recursive rm of a path outside the project
// directory (the temporary directories excepted), and a find that
// deletes (-delete, -exec rm) from a start point outside it, unless
// allowed.
func (g *dangerGuard) outsideProject(s shell.Segment, cwd, project string) (finding, bool) {
	if !g.outside || project == "" {
		return finding{}, false
	}
	var args []string
	verb := "recursively deletes "
	switch {
	case s.Name == "rm" && s.Flag("r", "R", "recursive"):
		args = s.Args()
	case s.Name == "find" && findDeletes(s.Argv, g.shell.name):
		args, verb = findStarts(s.Argv), "deletes files throughout "
	default:
		return finding{}, false
	}
	project = g.sys.Normalize(project)
	text := strings.Join(s.Argv, " ")
	for _, a := range args {
		out := g.outsideOf(g.classifyIn(s, a, cwd), project)
		if out == "" {
			continue
		}
		if g.allowed(text) {
			return finding{}, false
		}
		return finding{rule: ruleRmOutside, cmd: text, why: verb + out + ", outside the project " + project}, true
	}
	return finding{}, false
}

// tmpDirs lists the temporary directories of an environment: the usual
// ones and $TMPDIR (and the OS's, for the process's own environment).
func tmpDirs(getenv func(string) string, process bool) []string {
	dirs := []string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/folders", getenv("TMPDIR")}
	if process {
		dirs = append(dirs, os.TempDir())
	}
	var out []string
	for _, d := range dirs {
		if d != "" && d != "/" {
			out = append(out, paths.Normalize(d))
		}
	}
	return out
}

// temporary reports whether p is in a temporary directory.
func (g *dangerGuard) temporary(p string) bool {
	dirs := g.tmpDirs
	if dirs == nil {
		dirs = tmpDirs(os.Getenv, true)
	}
	for _, d := range dirs {
		if d != "/" && g.sys.Inside(p, d) {
			return true
		}
	}
	return false
}

// same reports whether two cleaned paths are one (regardless of case
// under Windows' rules).
func (g *dangerGuard) same(a, b string) bool {
	return g.sys.Equal(a, b)
}

// outsideOf returns the reading of a target (its path, or its other
// reading under paths.ArgForms) that is outside the project and the
// temporary directories, or "": the exemption holds only when it holds
// for every reading.
func (g *dangerGuard) outsideOf(t target, project string) string {
	for _, p := range []string{t.path, t.alt} {
		if p != "" && !g.sys.Inside(p, project) && !g.temporary(p) {
			return p
		}
	}
	return ""
}

// allowed reports whether an allow expression matches the command.
func (g *dangerGuard) allowed(text string) bool {
	for _, re := range g.allow {
		if re.MatchString(text) {
			return true
		}
	}
	return false
}

// segment applies the rules to one command (segs[i] is s), run in cwd.
func (g *dangerGuard) segment(segs []shell.Segment, i int, s shell.Segment, at place, project string, vars map[string][]string) (finding, bool) {
	cwd := at.cwd
	f, ok := g.rules(s, cwd, project)
	if !ok {
		f, ok = g.pipeline(segs, i, s, at, project, vars)
	}
	if !ok {
		f, ok = g.substitutedScript(s, at, project, vars)
	}
	if !ok {
		f, ok = g.redirects(s)
	}
	if !ok {
		f, ok = g.subscriptCode(s, at, project)
	}
	if !ok {
		f, ok = g.gitPrograms(s, at, project)
	}
	if !ok {
		f, ok = g.fed(segs, i, s, at, project, vars)
	}
	if !ok {
		f, ok = g.interpreter(segs, i, s, at, project)
	}
	if !ok && g.sys.IsWindows() {
		f, ok = g.windowsCommand(s, at, project)
	}
	if ok && g.allowed(strings.Join(s.Argv, " ")) {
		return finding{}, false
	}
	return f, ok
}

// rules applies the rules that look at one command's words.
func (g *dangerGuard) rules(s shell.Segment, cwd, project string) (finding, bool) {
	if len(s.Argv) == 0 {
		return finding{}, false // a bare redirection or assignment
	}
	text := strings.Join(s.Argv, " ")
	found := func(rule, why string) (finding, bool) {
		return finding{rule: rule, cmd: text, why: why}, true
	}
	switch name := s.Name; {
	case name == "rm":
		if s.Flag("r", "R", "recursive") {
			for _, a := range s.Args() {
				if t := g.classifyIn(s, a, cwd); allTargets.has(t.kind) {
					return found(ruleRmRecursive, "recursively deletes "+t.describe())
				}
			}
			for _, a := range s.Args() {
				if dotArg(a) {
					continue // rm refuses to remove . and ..
				}
				if what := g.projectTarget(g.classifyIn(s, a, cwd), project); what != "" {
					return found(ruleRmProject, "recursively deletes "+what)
				}
			}
			for _, a := range s.Args() {
				if hit := g.globHit(a, literalIn(s, a), cwd, project); hit != "" {
					return found(ruleRmRecursive, "recursively deletes "+hit+", which the pattern "+a+" matches")
				}
			}
			for _, a := range s.Args() {
				if !s.Plain(a) && unknownThenUp(a) {
					return finding{rule: ruleUnseen, cmd: text, ask: true,
						why: "recursively deletes " + a + ", where .. after a part the guard cannot know may lead anywhere"}, true
				}
			}
		}
	case strings.HasPrefix(s.Argv[0], "$") && s.Flag("r", "R", "recursive"):
		// $RM -rf ~: a command name the guard cannot know, aimed
		// recursively at what rm -r must never delete.
		for _, a := range s.Args() {
			t := g.classifyIn(s, a, cwd)
			if allTargets.has(t.kind) || g.projectTarget(t, project) != "" {
				return finding{rule: ruleUnseen, cmd: text, ask: true,
					why: "runs a command the guard cannot name recursively on " + a}, true
			}
		}
	case name == "chmod":
		if f, ok := g.chmod(s, cwd); ok {
			f.cmd = text
			return f, true
		}
	case name == "chown" || name == "chgrp":
		if s.Flag("R", "recursive") {
			args := s.Args()
			if !s.Flag("reference") && len(args) > 0 {
				args = args[1:] // the owner
			}
			for _, a := range args {
				if t := g.classifyIn(s, a, cwd); rootAndSystem.has(t.kind) {
					return found(ruleChown, "recursively changes the owner of "+t.describe())
				}
			}
		}
	case strings.HasPrefix(name, "mkfs") || name == "mke2fs" || name == "newfs":
		return found(ruleMkfs, "creates a filesystem, erasing everything on the device")
	case name == "wipefs":
		if s.Flag("a", "all") {
			return found(ruleMkfs, "erases filesystem signatures from the device")
		}
	case name == "diskutil" && len(s.Argv) > 1:
		// macOS: eraseDisk, eraseVolume, zeroDisk, randomDisk,
		// secureErase, reformat, partitionDisk.
		switch strings.ToLower(s.Argv[1]) {
		case "erasedisk", "erasevolume", "zerodisk", "randomdisk", "secureerase", "reformat", "partitiondisk", "apfs":
			if strings.EqualFold(s.Argv[1], "apfs") && (len(s.Argv) < 3 || !strings.HasPrefix(strings.ToLower(s.Argv[2]), "delete") && !strings.HasPrefix(strings.ToLower(s.Argv[2]), "erase")) {
				break
			}
			return found(ruleMkfs, "erases a disk or volume (diskutil "+s.Argv[1]+")")
		}
	case g.sys.IsWindows() && (name == "format" || name == "format-volume" || name == "clear-disk" || name == "initialize-disk" || name == "diskpart"):
		return found(ruleMkfs, "formats or erases a disk or volume ("+s.Argv[0]+")")
	case name == "dd":
		for _, a := range s.Argv[1:] {
			if dev, ok := strings.CutPrefix(a, "of="); ok && isDevice(dev) {
				return found(ruleDiskWrite, "writes raw data onto the device "+dev)
			}
		}
	case name == "tee" || name == "cp" || name == "shred":
		for _, a := range s.Args() {
			if isDisk(a) {
				return found(ruleDiskWrite, "writes onto the disk device "+a)
			}
		}
	case name == "find":
		if f, ok := g.find(s, cwd, project); ok {
			return f, true
		}
	case name == "git":
		if f, ok := g.git(s); ok {
			f.cmd = text
			return f, true
		}
	}
	if slices.Contains(s.Argv[1:], "--no-preserve-root") {
		switch s.Name {
		case "rm", "chmod", "chown", "chgrp":
			return found(ruleNoPreserveRoot, "disables the safeguard that keeps it from operating on /")
		}
	}
	if f, ok := g.substitutedDownload(s); ok {
		f.cmd = text
		return f, true
	}
	return finding{}, false
}

// chmod flags world-writable modes on /, system directories and, when
// recursive, home directories.
func (g *dangerGuard) chmod(s shell.Segment, cwd string) (finding, bool) {
	args := s.Args()
	if s.Flag("reference") || len(args) < 2 || !worldWritable(args[0]) {
		return finding{}, false
	}
	recursive := s.Flag("R", "recursive")
	want := rootAndSystem
	if recursive {
		want = allTargets
	}
	for _, a := range args[1:] {
		if t := g.classifyIn(s, a, cwd); want.has(t.kind) {
			how := "makes " + t.describe() + " writable by everyone"
			if recursive {
				how = "recursively " + how
			}
			return finding{rule: ruleChmod, why: how}, true
		}
	}
	return finding{}, false
}

// worldWritable reports whether a chmod mode grants write to others:
// 777, 0777, 666, a+rwx, o+w, ugo=rwx ...
func worldWritable(mode string) bool {
	if mode == "" {
		return false
	}
	if strings.Trim(mode, "01234567") == "" {
		return len(mode) >= 3 && (mode[len(mode)-1]-'0')&2 != 0
	}
	for clause := range strings.SplitSeq(mode, ",") {
		who := strings.TrimLeft(clause, "ugoa")
		whoPart := clause[:len(clause)-len(who)]
		if !strings.ContainsAny(whoPart, "oa") {
			continue
		}
		if len(who) > 1 && (who[0] == '+' || who[0] == '=') && strings.ContainsRune(who[1:], 'w') {
			return true
		}
	}
	return false
}

// find flags find -delete (or -exec rm) from /, ~ or system directories,
// and applies every rule to the commands find -exec runs.
func (g *dangerGuard) find(s shell.Segment, cwd, project string) (finding, bool) {
	starts := findStarts(s.Argv)
	deletes := slices.Contains(s.Argv, "-delete")
	argv := s.Argv
	for i := 0; i < len(argv); i++ {
		switch argv[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(argv) && argv[j] != ";" && argv[j] != "+" {
				j++
			}
			if j > i+1 {
				sub := shell.Segment{Argv: argv[i+1 : j], Name: g.shell.name(path.Base(argv[i+1]))}
				if len(s.Literal) > i+1 {
					sub.Literal = s.Literal[i+1 : min(j, len(s.Literal))]
				}
				if sub.Name == "rm" || (shells[sub.Name] && shell.HasCommand(shellCommand(sub), "rm")) {
					deletes = true
				}
				if f, ok := g.rules(sub, cwd, project); ok {
					return f, true
				}
			}
			i = j
		}
	}
	if !deletes {
		return finding{}, false
	}
	text := strings.Join(s.Argv, " ")
	for _, a := range starts {
		t := g.classifyIn(s, a, cwd)
		if allTargets.has(t.kind) {
			return finding{rule: ruleFindDelete, cmd: text, why: "deletes files throughout " + t.describe()}, true
		}
		if what := g.projectTarget(t, project); what != "" && (!g.same(t.path, project) || !findFilters(s.Argv)) {
			return finding{rule: ruleFindDelete, cmd: text, why: "deletes files throughout " + what}, true
		}
	}
	for _, a := range starts {
		if !s.Plain(a) {
			return finding{rule: ruleUnseen, cmd: text, ask: true,
				why: "deletes files under " + a + ", which the guard cannot see"}, true
		}
	}
	return finding{}, false
}

// findStarts returns the start points of a find command ("." when it
// names none), after the options that come before them (-H, -L, -P, -D
// DEBUGOPTS, -O LEVEL: find -L ~ -delete starts at ~).
func findStarts(argv []string) []string {
	var starts []string
	args := argv[1:]
	for len(args) > 0 {
		switch a := args[0]; {
		case a == "-H" || a == "-L" || a == "-P" || len(a) > 2 && strings.HasPrefix(a, "-O"):
			args = args[1:]
			continue
		case a == "-D" || a == "-O":
			args = args[min(2, len(args)):]
			continue
		}
		break
	}
	for _, a := range args {
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		starts = append(starts, a)
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	return starts
}

// findDeletes reports whether a find command deletes what it finds:
// -delete, or -exec (-execdir, -ok, -okdir) of rm or of a shell script
// that runs rm (a command's name read by name, as the system finds it:
// grm is rm under macOS' rules).
func findDeletes(argv []string, name func(string) string) bool {
	if slices.Contains(argv, "-delete") {
		return true
	}
	for i := 0; i < len(argv); i++ {
		switch argv[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			if i+1 < len(argv) {
				sub := shell.Segment{Argv: argv[i+1:], Name: name(path.Base(argv[i+1]))}
				if sub.Name == "rm" || (shells[sub.Name] && shell.HasCommand(shellCommand(sub), "rm")) {
					return true
				}
			}
		}
	}
	return false
}

// shellCommand returns the script a shell is given with -c, or "".
func shellCommand(s shell.Segment) string {
	for i, a := range s.Argv[1:] {
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'c') && i+2 < len(s.Argv) {
			return s.Argv[i+2]
		}
	}
	return ""
}

// findFilters reports whether a find expression has a test that selects
// files (-name, -type, -mtime ...), rather than deleting everything.
func findFilters(argv []string) bool {
	for _, a := range argv[1:] {
		switch a {
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
			"-type", "-xtype", "-newer", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin",
			"-size", "-empty", "-user", "-group", "-perm", "-links", "-inum", "-samefile", "-lname",
			"-ilname", "-used", "-nouser", "-nogroup", "-readable", "-writable", "-executable", "-prune",
			"-newermt", "-anewer", "-cnewer":
			return true
		}
	}
	return false
}

// unknownThenUp reports whether a word has a .. component after the
// component where its first expansion starts ("$X/../etc", "/tmp/$x/.."):
// whatever the guard knows of the rest, such a path may be anywhere.
func unknownThenUp(a string) bool {
	i := strings.IndexAny(a, "$`")
	if i < 0 {
		return false
	}
	rest := strings.ReplaceAll(a[i:], `\`, "/")
	_, rest, ok := strings.Cut(rest, "/")
	for ok {
		var comp string
		comp, rest, ok = strings.Cut(rest, "/")
		if comp == ".." {
			return true
		}
	}
	return false
}

// dotArg reports whether an rm operand names . or .. as its last
// component, which rm refuses to remove ("rm -rf ." does nothing).
func dotArg(a string) bool {
	a = strings.TrimRight(a, "/")
	base := a[strings.LastIndexByte(a, '/')+1:]
	return a != "" && (base == "." || base == "..")
}

// projectTarget says what a target is when it is the project directory
// or one of its parents ("" otherwise, and for the kinds classifyPath
// already names).
func (g *dangerGuard) projectTarget(t target, project string) string {
	what := g.projectTargetOf(t, project)
	if what == "" && t.alt != "" {
		// The argument's other reading (see paths.ArgForms).
		what = g.projectTargetOf(target{path: t.alt, all: t.all}, project)
	}
	return what
}

// projectTargetOf is projectTarget of one reading of an argument.
func (g *dangerGuard) projectTargetOf(t target, project string) string {
	if project == "" || t.path == "" || t.kind != kindNone {
		return ""
	}
	what := ""
	switch {
	case g.same(t.path, project) && t.all:
		return "" // emptying the project ("rm -rf *") is the agent's business
	case g.same(t.path, project):
		what = "the project directory " + project
	case g.sys.Inside(project, t.path):
		what = t.path + ", a parent of the project directory " + project
	default:
		return ""
	}
	if t.all {
		return "everything in " + what
	}
	return what
}

// git flags force pushes and, when enabled, commands that discard
// uncommitted work.
func (g *dangerGuard) git(s shell.Segment) (finding, bool) {
	call := parseGit(s.Argv)
	sub := call.seg()
	switch call.sub {
	case "push":
		if sub.Flag("force", "f") {
			return finding{rule: ruleForcePush, why: "is a force push: it overwrites the remote branch's history (use --force-with-lease)"}, true
		}
		for _, a := range sub.Args() {
			if strings.HasPrefix(a, "+") && len(a) > 1 {
				return finding{rule: ruleForcePush, why: "is a force push (refspec " + a + "): it overwrites the remote branch's history"}, true
			}
		}
	case "reset":
		if g.gitDestructive && sub.Flag("hard") {
			return finding{rule: ruleGitDiscard, why: "discards uncommitted work (git reset --hard)"}, true
		}
	case "clean":
		if g.gitDestructive && sub.Flag("f", "force") && !sub.Flag("n", "dry-run") {
			return finding{rule: ruleGitDiscard, why: "discards uncommitted work: it deletes untracked files (git clean -f)"}, true
		}
	}
	return finding{}, false
}

// downloaders fetch code from the network.
var downloaders = map[string]bool{"curl": true, "wget": true}

// shells run a script from standard input when given no script argument.
var shells = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true,
	"fish": true, "csh": true, "tcsh": true, "rbash": true, "yash": true, "posh": true, "busybox": false,
}

// interpreters run code from standard input unless told otherwise by the
// listed flags (python -c, perl -e, ...).
var interpreters = map[string][]string{
	"python": {"c", "m"}, "perl": {"e", "E"}, "ruby": {"e"}, "node": {"e", "p", "eval", "print"},
	"php": {"r"}, "deno": {}, "bun": {},
}

// interpreterFlags returns the code-giving flags of an interpreter, and
// whether name is one ("python3.12" counts as python).
func interpreterFlags(name string) ([]string, bool) {
	if f, ok := interpreters[name]; ok {
		return f, true
	}
	if n := len(name); n == 0 || (name[n-1] != '.' && (name[n-1] < '0' || name[n-1] > '9')) {
		return nil, false
	}
	f, ok := interpreters[strings.TrimRight(name, "0123456789.")]
	return f, ok
}

// runsStdin reports whether a shell or interpreter segment runs the code
// it reads on its standard input.
func runsStdin(s shell.Segment) bool {
	if scriptReader(s) {
		return true
	}
	flags, ok := interpreterFlags(s.Name)
	if !ok || (len(flags) > 0 && s.Flag(flags...)) {
		return false
	}
	args := s.Args()
	return len(args) == 0 || args[0] == "-"
}

// shellLike reports whether a segment runs a shell: one by name, the
// user's ($SHELL), or a program that runs one (su, sudo -s: shell.StdinShell).
func shellLike(s shell.Segment) bool {
	return shells[s.Name] || s.UserShell() || shell.StdinShell(s)
}

// cShell reports whether a segment is a shell, the user's, su or runuser
// given -c: what follows (from xargs, or the replace string) is a script.
func cShell(s shell.Segment) bool {
	return (shells[s.Name] || s.UserShell() || s.Name == "su" || s.Name == "runuser") && s.Flag("c")
}

// scriptReader reports whether a segment runs the shell script it reads
// on its standard input: a shell (by name, or $SHELL) given no script of
// its own, su or runuser without -c, sudo -s or -i and doas -s without a
// command, at, batch, script(1) without -c.
func scriptReader(s shell.Segment) bool {
	shellNamed := shells[s.Name]
	if !shellNamed && len(s.Argv) > 0 {
		// A command word given by an expansion the guard worked out
		// (${X:-sh}) keeps the name it was written with.
		shellNamed = shells[path.Base(s.Argv[0])]
	}
	if !shellNamed && !s.UserShell() && (len(s.Literal) > 0 && s.Literal[0] || !shell.UserShellWord(s.Name)) {
		return shell.StdinShell(s)
	}
	if s.Flag("s") {
		return true
	}
	// Its first operand is the script file, past the options and
	// their values (bash -o errexit, -O extglob, --rcfile x).
	for k := 1; k < len(s.Argv); k++ {
		switch a := s.Argv[k]; {
		case a == "--rcfile" || a == "--init-file" ||
			len(a) > 1 && (a[0] == '-' || a[0] == '+') && a[1] != '-' && strings.ContainsAny(a[1:], "oO"):
			k++ // -o errexit, -euo pipefail, -eO extglob: the value follows
		case a == "-":
			return true
		case a == "--":
			return k+1 >= len(s.Argv) || stdinPath(s.Argv[k+1])
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
		default:
			return stdinPath(a)
		}
	}
	return true
}

var downloadRe = lazyRegexp(`\b(curl|wget)\b`)

// pipeline flags a shell or interpreter fed by curl or wget through a
// pipe, anywhere upstream in the same pipeline, and a shell fed a
// dangerous script by echo or printf.
func (g *dangerGuard) pipeline(segs []shell.Segment, i int, s shell.Segment, at place, project string, vars map[string][]string) (finding, bool) {
	if (s.Op != "|" && s.Op != "|&") || !runsStdin(s) {
		return finding{}, false
	}
	if f, ok := g.echoedScript(segs, i, s, at, project, vars); ok {
		return f, true
	}
	cur := i
	for segs[cur].Op == "|" || segs[cur].Op == "|&" {
		j := cur - 1
		// Skip commands nested in substitutions of the upstream command.
		for j >= 0 && segs[j].Subshell && !segs[cur].Subshell {
			j--
		}
		if j < 0 {
			break
		}
		if downloaders[segs[j].Name] {
			return finding{rule: rulePipeToShell, cmd: strings.Join(segs[j].Argv, " ") + " | " + strings.Join(s.Argv, " "),
				why: "pipes code downloaded with " + segs[j].Name + " straight into " + s.Name}, true
		}
		cur = j
	}
	return finding{}, false
}

// gitPrograms applies every rule to the program a git option runs
// through a shell (git ls-remote --upload-pack='rm -rf ~' .).
func (g *dangerGuard) gitPrograms(s shell.Segment, at place, project string) (finding, bool) {
	if s.Name != "git" {
		return finding{}, false
	}
	for k, a := range s.Argv[1:] {
		name, value, eq := strings.Cut(a, "=")
		if !gitProgramOption(name) || name == "-u" && !slices.Contains(s.Argv, "ls-remote") {
			continue // -u is a program only to ls-remote (git push -u)
		}
		if !eq {
			if k+2 >= len(s.Argv) {
				continue
			}
			value = s.Argv[k+2]
		}
		if f, ok := g.nested(value, at, project); ok {
			f.cmd = truncate(strings.Join(s.Argv, " "), 200) + "` runs `" + f.cmd
			return f, true
		}
	}
	return finding{}, false
}

// gitProgramOption reports whether a git option names a program it runs
// through a shell: --upload-pack, --receive-pack, --exec, as git also
// takes them, by any prefix (--u), and ls-remote's -u.
func gitProgramOption(name string) bool {
	if name == "-u" {
		return true
	}
	if len(name) < 3 || !strings.HasPrefix(name, "--") {
		return false
	}
	for _, long := range []string{"--upload-pack", "--receive-pack", "--exec"} {
		if strings.HasPrefix(long, name) {
			return true
		}
	}
	return false
}

// subscriptBuiltins are the builtins that take a variable name, which
// may be an array element whose subscript bash evaluates, running a
// command substitution in it however the word was quoted (printf -v
// 'a[$(rm -rf ~)]' %s x).
var subscriptBuiltins = map[string]bool{
	"printf": true, "declare": true, "typeset": true, "local": true, "readonly": true, "export": true,
	"read": true, "let": true, "test": true, "[": true, "unset": true, "mapfile": true, "readarray": true, "getopts": true,
}

// subscriptCode applies every rule to the code in an array subscript of a
// builtin's argument.
func (g *dangerGuard) subscriptCode(s shell.Segment, at place, project string) (finding, bool) {
	if !subscriptBuiltins[s.Name] {
		return finding{}, false
	}
	for _, a := range s.Argv[1:] {
		i := strings.IndexByte(a, '[')
		if i < 0 {
			continue
		}
		for _, m := range subscriptSubstRe().FindAllStringSubmatch(a[i:], -1) {
			code := m[1] + m[2]
			if f, ok := g.nested(code, at, project); ok {
				f.cmd = truncate(strings.Join(s.Argv, " "), 200) + "` runs `" + f.cmd
				return f, true
			}
		}
	}
	return finding{}, false
}

var subscriptSubstRe = lazyRegexp("\\$\\(([^()]*)\\)|`([^`]*)`")

// withValues returns text and, in a line that is not itself a nested
// script, its versions with the values of the line's variables
// (c='rm -rf ~'; cat <<< "$c" | bash).
func (g *dangerGuard) withValues(text string, vars map[string][]string, at place) []string {
	out := []string{text}
	if at.depth > 0 || !strings.ContainsAny(text, "$`") {
		return out
	}
	pseudo := shell.Segment{Argv: []string{"\x00", text}, Name: "\x00"}
	for _, v := range g.varVariants(pseudo, vars) {
		if len(v.Argv) == 2 && !slices.Contains(out, v.Argv[1]) {
			out = append(out, v.Argv[1])
		}
	}
	return out
}

// stdinPath reports whether a file name is standard input (bash
// /dev/stdin reads its script there).
func stdinPath(name string) bool {
	switch name {
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	}
	return false
}

// pipeSource returns the index of the command whose output reaches
// segs[i]'s standard input through a pipe, past the commands nested in
// substitutions of it and past commands that pass their input on (tee,
// cat of standard input, dd without of=): echo x | tee /dev/null | bash
// is echo's; of a subshell, its last echo or printf ((echo 'rm -rf ~')
// | bash). -1 when there is none.
func pipeSource(segs []shell.Segment, i int) int {
	for {
		s := segs[i]
		if s.Op != "|" && s.Op != "|&" {
			return -1
		}
		j := i - 1
		for j >= 0 && segs[j].Subshell && !s.Subshell {
			if n := segs[j].Name; n == "echo" || n == "printf" {
				return j // (echo ...) | bash
			}
			j--
		}
		if j < 0 {
			return -1
		}
		if passesInput(segs[j]) && !hasHereInput(segs[j]) {
			i = j
			continue
		}
		return j
	}
}

// groupOutput returns what a subshell of echo and printf commands alone
// prints into the pipe to segs[i] ((echo 'rm -rf ~'; echo done) | bash:
// its commands' outputs in order), and false for anything else.
func groupOutput(segs []shell.Segment, i int) (string, bool) {
	s := segs[i]
	if s.Op != "|" && s.Op != "|&" || s.Subshell || i == 0 || !segs[i-1].Subshell {
		return "", false
	}
	k := i - 1
	for k > 0 && segs[k-1].Subshell && segs[k].Op != "" && segs[k].Op != "|" && segs[k].Op != "|&" {
		k--
	}
	var out strings.Builder
	for _, g := range segs[k:i] {
		switch g.Name {
		case "true", ":":
			continue
		case "echo", "printf":
		default:
			return "", false
		}
		argv := slices.Clone(g.Argv)
		argv[0] = g.Name
		text, ok := printed(argv)
		if !ok {
			return "", false
		}
		out.WriteString(text)
		if g.Name == "echo" && !slices.ContainsFunc(g.Argv[1:], func(a string) bool {
			return len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "neE") == "" && strings.Contains(a, "n")
		}) {
			out.WriteByte('\n')
		}
	}
	return out.String(), out.Len() > 0
}

// passesInput reports whether s writes what it reads on its standard
// input (tee, cat or head of it, dd without of=).
func passesInput(s shell.Segment) bool {
	args := s.Args()
	switch s.Name {
	case "tee":
		return true
	case "cat", "head", "tail":
		return len(args) == 0 || len(args) == 1 && stdinPath(args[0])
	case "dd":
		return !slices.ContainsFunc(s.Argv, func(a string) bool { return strings.HasPrefix(a, "of=") || strings.HasPrefix(a, "if=") })
	}
	return false
}

// hasHereInput reports whether s reads a here-document or here-string.
func hasHereInput(s shell.Segment) bool {
	return slices.ContainsFunc(s.Redirects, func(r shell.Redirect) bool {
		return (r.Fd == "" || r.Fd == "0") && (r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<")
	})
}

// hereText returns the text s reads on its standard input from a
// here-document or here-string (none from /dev/null), and whether it
// reads such a text: the last redirection of its input decides.
func hereText(s shell.Segment) (string, bool) {
	text, ok := "", false
	for _, r := range s.Redirects {
		if r.Fd != "" && r.Fd != "0" {
			continue
		}
		switch r.Op {
		case "<<<":
			text, ok = r.Target, true
		case "<<", "<<-":
			text, ok = r.Body, true
		case "<", "<>", "<&":
			text, ok = "", r.Target == "/dev/null"
		}
	}
	return text, ok
}

// echoedScript applies every rule to a script that echo or printf pipes
// straight into a shell: `echo "rm -rf ~" | bash`.
func (g *dangerGuard) echoedScript(segs []shell.Segment, i int, s shell.Segment, at place, project string, vars map[string][]string) (finding, bool) {
	if !scriptReader(s) {
		return finding{}, false
	}
	if text, ok := groupOutput(segs, i); ok {
		for _, script := range g.withValues(text, vars, at) {
			if f, ok := g.nested(script, at, project); ok {
				f.cmd = "(...) | " + s.Name + "` runs `" + f.cmd
				return f, true
			}
		}
	}
	j := pipeSource(segs, i)
	if j < 0 {
		return finding{}, false
	}
	if passesInput(segs[j]) {
		// cat <<EOF | bash, tee <<< "$c" | bash: the here-document or
		// here-string is the script, with the line's values.
		text, ok := hereText(segs[j])
		if !ok {
			return finding{}, false
		}
		for _, script := range g.withValues(text, vars, at) {
			if f, ok := g.nested(script, at, project); ok {
				f.cmd = truncate(strings.Join(segs[j].Argv, " ")+" | "+s.Name, 200) + "` runs `" + f.cmd
				return f, true
			}
		}
		return finding{}, false
	}
	if segs[j].Name != "echo" && segs[j].Name != "printf" {
		return finding{}, false
	}
	var asked finding
	ask := false
	if at.depth == 0 && overflowedVar(segs[j], vars) {
		// It prints what a variable given more values than the guard
		// tries holds: a script the guard cannot all see.
		asked, ask = finding{rule: ruleUnseen, cmd: truncate(strings.Join(segs[j].Argv, " ")+" | "+s.Name, 200), ask: true,
			why: "runs a script printed from a variable the line gives more values than the guard tries"}, true
	}
	scripts, unknown := g.echoScripts(segs[j], vars, at)
	if unknown && !ask {
		asked, ask = finding{rule: ruleUnseen, cmd: truncate(strings.Join(segs[j].Argv, " ")+" | "+s.Name, 200), ask: true,
			why: "runs a script printed in a way the guard cannot work out"}, true
	}
	for _, script := range scripts {
		f, ok := g.nested(script, at, project)
		if ok {
			f.cmd = truncate(strings.Join(segs[j].Argv, " ")+" | "+s.Name, 200) + "` runs `" + f.cmd
		}
		if keep(&asked, &ask, f, ok) {
			return f, true
		}
	}
	return asked, ask
}

// echoScripts returns the scripts an echo or printf segment prints: its
// words after echo's own options (echo rm -rf ~ prints rm -rf ~), with
// printf's and echo -e's \n and \t, once as written and once for each
// version of it with the values of the variables of line (c="rm -rf
// ~"; echo "$c"), in a line that is not itself such a script (at.depth
// 0: a version per variable value at every depth would multiply the
// scripts judged at each).
//
// unknown is set when the output of a version cannot be worked out
// (printed): a script the guard cannot see, which callers ask about or
// refuse; its words as written are still among the scripts.
func (g *dangerGuard) echoScripts(echo shell.Segment, vars map[string][]string, at place) (scripts []string, unknown bool) {
	versions := []shell.Segment{echo}
	if at.depth == 0 && slices.ContainsFunc(echo.Argv, func(a string) bool { return strings.ContainsAny(a, "$`") }) {
		versions = append(versions, g.varVariants(echo, vars)...)
	}
	for _, v := range versions {
		if len(v.Argv) == 0 || v.Name != echo.Name {
			continue
		}
		argv := slices.Clone(v.Argv)
		argv[0] = v.Name
		script, ok := printed(argv)
		if !ok {
			unknown = true
			script = strings.Join(v.Argv[1:], " ")
			if len(script) > maxPrinted {
				continue
			}
		}
		if strings.TrimSpace(script) != "" && !slices.Contains(scripts, script) {
			scripts = append(scripts, script)
		}
	}
	return scripts, unknown
}

// substitutedScript applies every rule to a script that a shell, source
// or . reads from a process substitution of echo or printf: `. <(echo
// "rm -rf ~")`, `bash < <(printf ...)`.
func (g *dangerGuard) substitutedScript(s shell.Segment, at place, project string, vars map[string][]string) (finding, bool) {
	if !shellLike(s) && s.Name != "source" && s.Name != "." {
		return finding{}, false
	}
	var subs []string
	if args := s.Args(); len(args) > 0 && !s.Flag("c") {
		subs = append(subs, args[0])
	}
	for _, r := range s.Redirects {
		if r.Op == "<" && (r.Fd == "" || r.Fd == "0") {
			subs = append(subs, r.Target)
		}
	}
	for _, sub := range subs {
		inner, ok := strings.CutPrefix(sub, "<(")
		if !ok || !strings.HasSuffix(inner, ")") {
			continue
		}
		segs, err := g.shell.Parse(strings.TrimSuffix(inner, ")"))
		if err != nil || len(segs) != 1 || (segs[0].Name != "echo" && segs[0].Name != "printf") {
			continue
		}
		scripts, unknown := g.echoScripts(segs[0], vars, at)
		if unknown {
			return finding{rule: ruleUnseen, cmd: truncate(s.Name+" "+sub, 200), ask: true,
				why: "runs a script printed in a way the guard cannot work out"}, true
		}
		for _, script := range scripts {
			if f, ok := g.nested(script, at, project); ok {
				f.cmd = truncate(s.Name+" "+sub, 200) + "` runs `" + f.cmd
				return f, true
			}
		}
	}
	return finding{}, false
}

// substitutedDownload flags code run from a substitution of curl or wget:
// `bash <(curl ...)`, `source <(curl ...)`, `python3 -c "$(curl ...)"`,
// and `sh -c "$(curl ...)"` or `eval "$(curl ...)"`, whose script the
// parser gives as a command named by the substitution.
func (g *dangerGuard) substitutedDownload(s shell.Segment) (finding, bool) {
	if len(s.Argv) == 0 {
		return finding{}, false
	}
	if a := s.Argv[0]; isSubst(a) && downloadRe().MatchString(a) {
		return finding{rule: rulePipeToShell, why: "runs code downloaded with " + downloadRe().FindString(a) + " as a command"}, true
	}
	_, interp := interpreterFlags(s.Name)
	if !shellLike(s) && !interp && s.Name != "source" && s.Name != "." {
		return finding{}, false
	}
	for _, a := range s.Argv[1:] {
		if isSubst(a) && downloadRe().MatchString(a) {
			return finding{rule: rulePipeToShell, why: "runs code downloaded with " + downloadRe().FindString(a) + " in " + s.Name}, true
		}
	}
	for _, r := range s.Redirects {
		if (r.Op == "<" || r.Op == "<<<") && isSubst(r.Target) && downloadRe().MatchString(r.Target) {
			return finding{rule: rulePipeToShell, why: "feeds code downloaded with " + downloadRe().FindString(r.Target) + " to " + s.Name}, true
		}
	}
	return finding{}, false
}

// isSubst reports whether a word is a command or process substitution.
func isSubst(w string) bool {
	return strings.HasPrefix(w, "$(") || strings.HasPrefix(w, "`") || strings.HasPrefix(w, "<(")
}

// redirects flags output redirections onto disk devices.
func (g *dangerGuard) redirects(s shell.Segment) (finding, bool) {
	for _, r := range s.Redirects {
		switch r.Op {
		case ">", ">>", ">|", "&>", "&>>", "<>", ">&":
			if isDisk(r.Target) {
				return finding{rule: ruleDiskWrite, cmd: strings.TrimSpace(strings.Join(s.Argv, " ") + " " + r.String()),
					why: "writes directly onto the disk device " + r.Target}, true
			}
		}
	}
	return finding{}, false
}

var diskRe = lazyRegexp(`^/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|disk/|rdisk\d|md\d|dm-\d|mapper/)`)

// isDisk reports whether p names a disk device.
func isDisk(p string) bool { return diskRe().MatchString(p) }

// isDevice reports whether p is a device dd must not write to: anything
// under /dev but the harmless sinks.
func isDevice(p string) bool {
	if !strings.HasPrefix(p, "/dev/") {
		return false
	}
	switch p {
	case "/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/random", "/dev/urandom":
		return false
	}
	return !strings.HasPrefix(p, "/dev/fd/") && !strings.HasPrefix(p, "/dev/pts/")
}

// funcDefRe finds shell function definitions whose body has no braces:
// "name() { ... }" and "function name { ... }".
var funcDefRe = lazyRegexp(`(?:\bfunction\s+([A-Za-z_:.][\w:.-]*)\s*(?:\(\s*\))?|([A-Za-z_:.][\w:.-]*)\s*\(\s*\))\s*\{([^{}]*)\}`)

// forkBomb flags a function that calls itself twice in the background,
// piped into itself (`:(){ :|:& };:`) or not (`f(){ f & f & }; f`). The
// definition is found in the raw line; called(name) must confirm that the
// parsed line really runs the function, so that quoted text never counts.
func (g *dangerGuard) forkBomb(line string, called func(name string) bool) (finding, bool) {
	if !strings.Contains(line, "{") {
		return finding{}, false
	}
	for _, m := range funcDefRe().FindAllStringSubmatch(line, -1) {
		name := m[1]
		if name == "" {
			name = m[2]
		}
		q := regexp.QuoteMeta(name)
		self := regexp.MustCompile(`(?:^|[\s;{(&|])` + q + `\s*(?:\|&?\s*` + q + `\s*&|&\s*` + q + `\s*&)`)
		if self.MatchString(m[3]) && called(name) {
			if g.allowed(line) {
				return finding{}, false
			}
			return finding{rule: ruleForkBomb, cmd: strings.TrimSpace(m[0]),
				why: "is a fork bomb: the function " + name + " keeps spawning copies of itself until the machine hangs"}, true
		}
	}
	return finding{}, false
}

// pipeShellRe is the raw-text form of curl|sh for lines that do not parse.
var pipeShellRe = lazyRegexp(`\b(curl|wget)\b[^|;&]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:ba|z|da|k)?sh\b`)

// fallback judges a line that is not valid bash with the rules that need
// only command names (and specific patterns of the raw text).
func (g *dangerGuard) fallback(line string) (finding, bool) {
	names := shell.Commands(line)
	if f, ok := g.forkBomb(line, func(name string) bool { return slices.Contains(names, name) }); ok {
		return f, true
	}
	for _, n := range names {
		if (strings.HasPrefix(n, "mkfs") || n == "mke2fs") && !g.allowed(line) {
			return finding{rule: ruleMkfs, cmd: line, why: "creates a filesystem, erasing everything on the device"}, true
		}
	}
	if m := pipeShellRe().FindString(line); m != "" && !g.allowed(line) {
		return finding{rule: rulePipeToShell, cmd: m, why: "pipes downloaded code straight into a shell"}, true
	}
	return finding{}, false
}

// literalBackslashes writes each backslash of line outside single quotes
// as an escaped backslash, so that a POSIX parser reads it as the
// character PowerShell and cmd see (within single quotes it already is).
func literalBackslashes(line string) string {
	var b strings.Builder
	b.Grow(len(line) + 8)
	single, double := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && !single:
			b.WriteString(`\\`)
			continue
		case c == '\'' && !double:
			single = !single
		case c == '"' && !single:
			double = !double
		}
		b.WriteByte(c)
	}
	return b.String()
}
