package builtin

import (
	"context"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/lib/shell"
)

// defaultReadOnlyTools are Claude Code's tools that never change anything.
var defaultReadOnlyTools = []string{"Read", "Glob", "Grep", "LS", "NotebookRead", "TodoRead"}

func readOnlySpec() Spec {
	return Spec{
		Name: "read-only-approver",
		Description: "Approves read-only actions without a prompt: read-only tools, and Bash lines in which every command " +
			"(after unwrapping && || ; | subshells and substitutions) only reads and nothing is redirected into a file. " +
			"Anything else gets no opinion.",
		Events:   []string{"PermissionRequest"},
		Priority: -50,
		Options: []OptionSpec{
			{Name: "commands", Type: TypeList, Doc: "extra command names to treat as read-only whatever their arguments"},
			{Name: "events", Type: TypeList, Doc: `events to approve on: "PermissionRequest" and/or "PreToolUse"`, Default: []string{"PermissionRequest"}},
			{Name: "tools", Type: TypeList, Doc: "extra tool names to approve, added to " + strings.Join(defaultReadOnlyTools, " ")},
		},
	}
}

func buildReadOnly(b *build) ([]engine.Hook, error) {
	events := b.opts.list("events")
	if len(events) == 0 {
		return nil, b.optErr("events", "must name at least one event")
	}
	for _, e := range events {
		if e != "PermissionRequest" && e != "PreToolUse" {
			return nil, b.optErr("events", "%q is not supported: use \"PermissionRequest\" or \"PreToolUse\"", e)
		}
	}
	ro := &readOnly{
		tools:    slices.Concat(defaultReadOnlyTools, b.opts.list("tools")),
		commands: b.opts.list("commands"),
		secrets:  newDefaultSecretChecker(b.home, b.shell, b.cfg.system),
		shell:    newParser(b.shell, b.cfg.system),
	}
	h := b.hook(engine.Hook{
		Events: slices.Compact(slices.Sorted(slices.Values(events))),
		Handler: cheap(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			// Approved only if read-only in every directory the call
			// may run in.
			in, dirs := shellCall(ro.secrets.sys, ro.secrets.home, c.Payload)
			var reason string
			for i := range dirs.len() {
				r, ok := ro.approve(toolOf(c.Payload), in, dirs.at(i))
				if !ok {
					return nil, nil
				}
				reason = r
			}
			return engine.Allow(reason), nil
		}),
	})
	return []engine.Hook{h}, nil
}

// readOnly decides what read-only-approver approves. It is immutable and
// safe for concurrent use.
type readOnly struct {
	shell    cmdParser
	tools    []string
	commands []string
	secrets  *secretChecker // never approve touching a secret file
}

// approve returns the reason to approve a tool call, or false for no
// opinion.
func (ro *readOnly) approve(tool string, in map[string]any, cwd string) (string, bool) {
	if _, secret := ro.secrets.checkTool(tool, in, cwd); secret {
		return "", false
	}
	if slices.Contains(ro.tools, tool) {
		return tool + " is a read-only tool (read-only-approver)", true
	}
	if tool != "Bash" {
		return "", false
	}
	names, ok := ro.commandReadOnly(str(in, "command"))
	if !ok {
		return "", false
	}
	return "every command in the line only reads (" + strings.Join(names, ", ") + ") (read-only-approver)", true
}

// commandReadOnly reports whether every command of a line is read-only,
// and returns their names. A line that does not parse is never read-only.
func (ro *readOnly) commandReadOnly(line string) ([]string, bool) {
	if strings.TrimSpace(line) == "" {
		return nil, false
	}
	if assignsInExpansion(line) {
		return nil, false
	}
	segs, err := ro.shell.Parse(line)
	if err != nil || len(segs) == 0 {
		return nil, false
	}
	var (
		names []string
		seen  readerInputs
	)
	for i, s := range segs {
		if !ro.segmentReadOnly(s) || !ro.expandedReadOnly(segs, s, &seen) {
			return nil, false
		}
		if ro.printsFiles(s.Name) && !ro.readerInputsSeen(segs, i, &seen) {
			return nil, false
		}
		for _, r := range s.Redirects {
			if (r.Op == "<" || r.Op == "<>") && !ro.wordSeen(segs, r.Target, &seen) {
				return nil, false // tr a a < $(echo .env)
			}
		}
		if s.Name != "" && !slices.Contains(names, s.Name) {
			names = append(names, s.Name)
		}
	}
	if len(names) == 0 {
		return nil, false
	}
	return names, true
}

// expandedReadOnly reports whether a command stays read-only whatever
// its expansions hold: a variable or a command substitution in its words
// may hold options (x=--output=y; git diff $x, sort $(echo -o ~/.bashrc),
// x="-exec rm {} +"; find . $x). A command whose options cannot write,
// run or read anything (anyArgs) may have any; another may have only
// variables the line gives values to (as varsKnown takes them), and is
// read-only in each version of it with their values, split or not
// (varVariants).
func (ro *readOnly) expandedReadOnly(segs []shell.Segment, s shell.Segment, in *readerInputs) bool {
	expands := false
	for i, a := range s.Argv {
		if (strings.IndexByte(a, '$') >= 0 || strings.IndexByte(a, '`') >= 0) && (i >= len(s.Literal) || !s.Literal[i]) {
			expands = true
			if i > 0 && !anyArgs[s.Name] && !slices.Contains(ro.commands, s.Name) && !ro.wordSeen(segs, a, in) {
				return false
			}
		}
	}
	if !expands || anyArgs[s.Name] || slices.Contains(ro.commands, s.Name) {
		return true
	}
	if !in.got {
		in.vars, in.got = ro.secrets.dirs.lineVars(segs, place{}), true
	}
	for _, v := range ro.secrets.dirs.varVariants(s, in.vars) {
		if !ro.segmentReadOnly(v) {
			return false
		}
	}
	// Versions past the limit make their variables not all known.
	return !unknownIn(in.vars, s.Argv...)
}

// anyArgs are read-only commands no option of which writes, runs a
// program or reads a file it is not given as an operand: what a variable
// or a substitution gives them cannot make them more than a read.
var anyArgs = map[string]bool{
	"ls": true, "pwd": true, "echo": true, "printf": true, "which": true, "type": true, "whereis": true,
	"stat": true, "df": true, "basename": true, "dirname": true, "realpath": true, "readlink": true,
	"true": true, "false": true, "test": true, "[": true, "whoami": true, "id": true, "groups": true,
	"uname": true, "tr": true, "seq": true, "printenv": true, "ps": true, "sleep": true,
	"cd": true, "pushd": true, "popd": true,
}

// printsFiles reports whether a command read-only-approver may approve
// prints the files it is given: a read-only secret-files reader, or,
// under Windows' rules, type.
func (ro *readOnly) printsFiles(name string) bool {
	if r, ok := readers[name]; ok {
		return r.ro
	}
	_, win := ro.secrets.winReader(name)
	return win
}

// readerInputs holds, for readerInputsSeen, the variables a line assigns,
// collected once.
type readerInputs struct {
	vars map[string][]string
	got  bool
}

// readerInputsSeen reports whether secret-files could see every file a
// read-only reader, segs[i], is given, none being a glob that may match a
// dotfile (globMayMatchDotfile). A word with a command substitution (cat
// $(echo .env)) or a variable the line does not assign (cat $X) names a
// file it cannot judge (wordSeen), and so does an xargs fed what it
// cannot read (ls -a | xargs cat, find . | xargs cat), unless a find
// feeds it names that cannot be dotfiles (find . -name '*.go' | xargs
// grep x). Such a line is not approved: it may read a secret file unseen.
func (ro *readOnly) readerInputsSeen(segs []shell.Segment, i int, in *readerInputs) bool {
	s := segs[i]
	win := ro.secrets.sys.IsWindows()
	for _, w := range s.Argv[1:] {
		if !ro.wordSeen(segs, w, in) || globMayMatchDotfile(w, win) {
			return false
		}
	}
	if !slices.Contains(s.Wrappers, "xargs") {
		return true
	}
	if _, seen := ro.secrets.dirs.stdinWords(segs, i, s, place{}); seen {
		return true
	}
	for _, l := range s.Launchers {
		if path.Base(l[0]) == "xargs" && xargsReadsFile(l) {
			return true // xargs -a FILE: secret-files judges FILE
		}
	}
	f := findSource(segs, i, &s)
	if f == nil {
		return false
	}
	names := findNames(*f)
	return len(names) > 0 && !slices.ContainsFunc(names, func(n string) bool {
		return n == "" || strings.Trim(n, "*?") == "" || n[0] == '.' || n[0] == '[' || n[0] == '{'
	}) && !slices.ContainsFunc(f.Argv, func(a string) bool { return a == "-o" || a == "-or" || a == "," })
}

// wordSeen reports whether secret-files can read the file a word names:
// no command substitution, and only variables varsKnown accepts.
func (ro *readOnly) wordSeen(segs []shell.Segment, w string, in *readerInputs) bool {
	if strings.IndexByte(w, '$') < 0 && strings.IndexByte(w, '`') < 0 {
		return true
	}
	if strings.IndexByte(w, '`') >= 0 || strings.Contains(w, "$(") {
		return false
	}
	if !in.got {
		in.vars, in.got = ro.secrets.dirs.lineVars(segs, place{}), true
	}
	return varsKnown(w, in.vars)
}

// varsKnown reports whether every variable a word expands is one the line
// assigns (vars) or HOME, PWD or OLDPWD, which secret-files reads, and
// none of them one given more values than secret-files tries.
func varsKnown(w string, vars map[string][]string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] != '$' {
			continue
		}
		j := i + 1
		if j < len(w) && w[j] == '{' {
			j++
		}
		k := j
		for k < len(w) && (w[k] == '_' || 'a' <= w[k] && w[k] <= 'z' || 'A' <= w[k] && w[k] <= 'Z' || k > j && '0' <= w[k] && w[k] <= '9') {
			k++
		}
		name := w[j:k]
		if name == "" {
			return false // $1, $@, $'...'
		}
		if _, ok := vars[name]; !ok && name != "HOME" && name != "PWD" && name != "OLDPWD" {
			return false
		}
		if slices.Contains(vars[""], name) {
			return false // more values than secret-files tries
		}
		i = k - 1
	}
	return true
}

// safeWrappers are the launchers a read-only command may run under; sudo,
// doas, chroot, watch, flock and exec are not among them.
var safeWrappers = map[string]bool{
	"time": true, "nice": true, "timeout": true, "command": true, "env": true, "xargs": true,
	"stdbuf": true, "nohup": true, "ionice": true, "builtin": true, "eval": true,
}

// safeEnv are variables that may be set for a read-only command besides
// lower-case shell variables.
var safeEnv = map[string]bool{
	"LANG": true, "LANGUAGE": true, "TZ": true, "NO_COLOR": true, "TERM": true, "COLUMNS": true,
	"LINES": true, "CLICOLOR": true, "CLICOLOR_FORCE": true, "FORCE_COLOR": true, "GREP_COLOR": true,
	"GREP_COLORS": true, "LS_COLORS": true, "TIME_STYLE": true, "POSIXLY_CORRECT": true,
}

// arithmeticWithNames reports whether a word holds an arithmetic
// expansion ($((...)), $[...]) that names a variable or assigns one:
// $((PATH=0)) sets PATH, and $((x)) runs what x holds when it is an array
// subscript with a command substitution. One of numbers alone is read
// only.
func arithmeticWithNames(w string) bool {
	for _, open := range []string{"$((", "$["} {
		for rest := w; ; {
			i := strings.Index(rest, open)
			if i < 0 {
				break
			}
			rest = rest[i+len(open):]
			end := strings.IndexAny(rest, ")]")
			if end < 0 {
				end = len(rest)
			}
			if strings.ContainsFunc(rest[:end], func(r rune) bool { return r == '=' || r == '_' || r == '$' || unicode.IsLetter(r) }) {
				return true
			}
		}
	}
	return false
}

// assignsInExpansion reports whether a line may assign a variable inside
// an arithmetic or a parameter expansion, a test or a let: ((PATH=0)),
// ${HOME:PATH=0}, ${a[PATH=0]}, [[ PATH=0 -eq 0 ]], ${x:=y}, let x=1 —
// PATH=0 there makes the next command run ./0/ls. Any = in such a span
// that is not a comparison counts.
func assignsInExpansion(line string) bool {
	if strings.Contains(line, "let ") {
		return true
	}
	for _, open := range []string{"((", "[[", "${", "$["} {
		for rest := line; ; {
			i := strings.Index(rest, open)
			if i < 0 {
				break
			}
			rest = rest[i+len(open):]
			end := len(rest)
			if k := strings.IndexAny(rest, ")]}"); k >= 0 {
				end = k
			}
			span := rest[:end]
			for k := 0; k < len(span); k++ {
				if span[k] != '=' {
					continue
				}
				prev, next := byte(0), byte(0)
				if k > 0 {
					prev = span[k-1]
				}
				if k+1 < len(span) {
					next = span[k+1]
				}
				if next != '=' && next != '~' && prev != '=' && prev != '!' && prev != '<' && prev != '>' {
					return true
				}
			}
		}
	}
	return false
}

// safeVar reports whether a read-only line may set a variable: a
// lower-case one, the locale's or a colour or display setting (not PATH,
// BASH_ENV, GIT_PAGER..., which make later commands run other programs).
func safeVar(name string) bool {
	return safeEnv[name] || strings.HasPrefix(name, "LC_") || strings.ToLower(name) == name
}

// printfVar returns the variable printf -v NAME (or -vNAME) assigns, or
// "" for none.
func printfVar(s shell.Segment) string {
	for i := 1; i < len(s.Argv); i++ {
		switch a := s.Argv[i]; {
		case a == "--" || !strings.HasPrefix(a, "-"):
			return ""
		case a == "-v" && i+1 < len(s.Argv):
			return s.Argv[i+1]
		case strings.HasPrefix(a, "-v"):
			return a[2:]
		}
	}
	return ""
}

// segmentReadOnly reports whether one command is read-only: a known
// read-only command with safe arguments, run under harmless launchers,
// setting only harmless variables, and redirecting output nowhere but
// /dev/null or another descriptor.
func (ro *readOnly) segmentReadOnly(s shell.Segment) bool {
	for _, w := range s.Wrappers {
		name, flag, _ := strings.Cut(w, " ")
		if !safeWrappers[w] && !(shells[name] && (flag == "-c" || flag == "-s")) {
			return false
		}
	}
	for _, a := range s.Assigns {
		name, value, _ := strings.Cut(a, "=")
		name = strings.TrimSuffix(name, "+")
		if !safeVar(name) {
			return false
		}
		if strings.Contains(value, "$(") || strings.IndexByte(value, '`') >= 0 {
			// x='$(rm -rf ~)' runs once a prompt expansion (${x@P}) or
			// an arithmetic context ($((x)), ${PWD:x}) evaluates it.
			return false
		}
	}
	for _, w := range s.Argv {
		if strings.Contains(w, "@P}") || strings.Contains(w, "@E}") || arithmeticWithNames(w) ||
			subscriptBuiltins[s.Name] && strings.Contains(w, "[") && strings.ContainsAny(w, "$`") {
			// test -v 'a[`rm -rf ~`]' runs the code in the subscript.
			return false
		}
	}
	for _, r := range s.Redirects {
		if !readOnlyRedirect(r) {
			return false
		}
	}
	if s.Name == "" {
		return len(s.Assigns) > 0 // a bare assignment; a bare redirection writes
	}
	if ro.secrets.sys.IsWindows() && slices.ContainsFunc(s.Argv[1:], psCode) {
		return false
	}
	if slices.Contains(ro.commands, s.Name) {
		return true
	}
	if s.Name == "printf" && printfVar(s) != "" {
		// printf -v assigns what its escapes spell: PATH (printf -v
		// PATH %s .; ls runs ./ls), an array subscript or a value an
		// arithmetic context runs (printf -v x 'a[\x24(rm -rf ~)]';
		// echo $((x))).
		return false
	}
	if r, ok := readers[s.Name]; ok {
		return r.ro && (r.roCheck == nil || r.roCheck(s))
	}
	check, ok := readOnlyCommands[s.Name]
	return ok && (check == nil || check(s))
}

// psCode reports whether a word may hold PowerShell code that runs
// where the line is PowerShell's (a Windows host's shell): a script block
// ({ ... }, which sort, where and select run per item), a subexpression
// or array subexpression ($( ... ), @( ... ), ( ... )), a hash table
// (@{ ... }, whose values are expressions), a method call ($f.Delete()),
// alone or in a parameter's value (-Property:{ ... }). The line's quoting
// is not PowerShell's, so any brace or parenthesis counts.
func psCode(w string) bool { return strings.ContainsAny(w, "{(") }

// globMayMatchDotfile reports whether a reader's word is a glob that may
// match a dotfile, a hidden file that may hold a secret secret-files does
// not list (.[!.]*, ~/.?sh/*, src/.e*): a component with a wildcard that
// starts with a dot, a bracket or a brace. Under Windows' rules, where
// PowerShell's * matches a leading dot, any glob.
func globMayMatchDotfile(w string, win bool) bool {
	if !hasGlob(w) {
		return false
	}
	if win {
		return true
	}
	for _, c := range strings.FieldsFunc(w, func(r rune) bool { return r == '/' }) {
		if hasGlob(c) && (c[0] == '.' || c[0] == '[' || c[0] == '{') {
			return true
		}
	}
	return false
}

// readOnlyRedirect reports whether a redirection writes no file.
func readOnlyRedirect(r shell.Redirect) bool {
	switch r.Op {
	case "<", "<<", "<<-", "<<<":
		return true
	case ">&", "<&":
		if r.Target == "-" || strings.Trim(r.Target, "0123456789") == "" {
			return true // 2>&1, >&2, 2>&-
		}
	}
	switch r.Target {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty":
		return true
	}
	return false
}

// readOnlyCommands are the commands that only read and print no file's
// bytes (names, sizes, hashes, metadata, their own output), with a check
// of their arguments where some options write or run other programs (nil:
// any arguments). The read-only commands that print what a file holds
// (cat, grep, diff, date -f...) are secret-files' readers, marked ro in
// its table, readers: one table says both that read-only-approver may
// approve them and which of their words secret-files judges.
var readOnlyCommands = map[string]func(shell.Segment) bool{
	"ls": nil, "wc": nil,
	"pwd": nil, "echo": nil, "printf": nil, "which": nil, "type": nil, "whereis": nil, "stat": nil,
	"du": nil, "df": nil, "basename": nil, "dirname": nil, "realpath": nil, "readlink": nil,
	"true": nil, "false": nil, "test": nil, "[": nil, "whoami": nil, "id": nil, "groups": nil, "uname": nil,
	"tr": nil, "seq": nil, "sha256sum": nil, "sha1sum": nil, "sha512sum": nil, "md5sum": nil, "cksum": nil,
	"printenv": nil, "env": nil, "ps": nil, "sleep": nil, "cd": nil, "pushd": nil, "popd": nil, "xargs": nil,
	"find": func(s shell.Segment) bool {
		return !slices.ContainsFunc(s.Argv[1:], func(a string) bool {
			switch a {
			case "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls":
				return true
			}
			return false
		})
	},
	"tree":     func(s shell.Segment) bool { return !s.Flag("o", "fromfile") },
	"file":     func(s shell.Segment) bool { return !s.Flag("C", "compile", "f", "files-from", "m", "magic-file") },
	"hostname": func(s shell.Segment) bool { return len(s.Argv) == 1 },
	"command":  func(s shell.Segment) bool { return s.Flag("v", "V") },
	"git":      gitReadOnly,
	"go":       goReadOnly,
}

// sortReadOnly reports whether a sort command only reads: no -o/--output
// file, and no --compress-program, which runs a program.
func sortReadOnly(s shell.Segment) bool {
	return !s.Flag("o", "output", "compress-program")
}

// gitReadOnlySubs are git subcommands that only read, whatever their
// arguments (except the output-writing options gitReadOnly rejects).
var gitReadOnlySubs = map[string]bool{
	"status": true, "log": true, "diff": true, "show": true, "rev-parse": true, "ls-files": true,
	"blame": true, "annotate": true, "describe": true, "shortlog": true, "ls-tree": true, "cat-file": true,
	"show-ref": true, "rev-list": true, "merge-base": true, "name-rev": true, "grep": true,
	"whatchanged": true, "count-objects": true, "ls-remote": true, "check-ignore": true,
	"show-branch": true, "cherry": true, "for-each-ref": true, "version": true, "help": true, "var": true,
}

// gitReadOnly reports whether a git command only reads.
func gitReadOnly(s shell.Segment) bool {
	g := parseGit(s.Argv)
	for _, o := range g.global {
		if o == "-c" || strings.HasPrefix(o, "--exec-path") || strings.HasPrefix(o, "--config-env") {
			return false // can make git run arbitrary programs
		}
	}
	sub := g.seg()
	if sub.Flag("output", "ext-diff") || slices.ContainsFunc(sub.Argv[1:], func(a string) bool {
		name, _, _ := strings.Cut(a, "=")
		return gitProgramOption(name) && (name != "-u" || g.sub == "ls-remote")
	}) ||
		sub.Flag("O", "open-files-in-pager") && g.sub == "grep" ||
		g.sub == "help" && sub.Flag("w", "web", "m", "man", "i", "info") ||
		g.sub == "cat-file" && gitBatch(s) {
		// Writes a file, runs a configured diff program, browser or
		// viewer or a program it is given (git ls-remote
		// --upload-pack='rm -rf ~' . runs it through a shell), or prints
		// objects named on standard input.
		return false
	}
	args := sub.Args()
	switch g.sub {
	case "":
		return len(g.global) > 0 // git --version
	case "branch":
		if sub.Flag("d", "D", "m", "M", "c", "C", "delete", "move", "copy", "force", "f",
			"set-upstream-to", "u", "unset-upstream", "edit-description", "track", "t", "set-upstream") {
			return false
		}
		return len(args) == 0 || sub.Flag("l", "list", "contains", "no-contains", "merged", "no-merged", "points-at")
	case "remote":
		return len(args) == 0 || args[0] == "show" || args[0] == "get-url"
	case "tag":
		if sub.Flag("d", "delete", "a", "annotate", "s", "sign", "f", "force", "m", "message", "F", "file", "u", "local-user") {
			return false
		}
		return len(sub.Argv) == 1 || sub.Flag("l", "list", "v", "verify")
	case "stash", "worktree":
		return len(args) > 0 && (args[0] == "list" || g.sub == "stash" && args[0] == "show")
	case "reflog":
		return len(args) == 0 || args[0] == "show"
	case "config":
		if sub.Flag("add", "unset", "unset-all", "replace-all", "rename-section", "remove-section", "e", "edit") {
			return false
		}
		return sub.Flag("get", "get-all", "get-regexp", "get-urlmatch", "l", "list") ||
			len(args) > 0 && (args[0] == "get" || args[0] == "list")
	}
	return gitReadOnlySubs[g.sub]
}

// goReadOnly reports whether a go command only reads: go version, go env
// (not -w or -u), go list (not -toolexec or -exec), go doc.
func goReadOnly(s shell.Segment) bool {
	if len(s.Argv) < 2 {
		return false
	}
	for _, a := range s.Argv[2:] {
		for _, bad := range []string{"-toolexec", "--toolexec", "-exec", "--exec", "-overlay", "--overlay"} {
			if a == bad || strings.HasPrefix(a, bad+"=") {
				return false
			}
		}
	}
	switch s.Argv[1] {
	case "version", "doc", "list":
		return true
	case "env":
		// go's flags take one dash or two: --w writes as -w does.
		return !slices.ContainsFunc(s.Argv[2:], func(a string) bool {
			name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			return strings.HasPrefix(a, "-") && (name == "w" || name == "u")
		})
	}
	return false
}
