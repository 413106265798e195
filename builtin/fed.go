package builtin

import (
	"path"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/lib/shell"
)

// fed checks a command that xargs or GNU parallel runs with arguments the
// command line does not show in its words: read from standard input, or
// given to parallel after :::. Arguments it can read (a here-string, a
// here-document, echo or printf piped in, parallel's ::: list) are checked
// like written ones; when a recursive delete gets arguments it cannot see
// (a pipe from ls or find, a file), it asks.
func (g *dangerGuard) fed(segs []shell.Segment, i int, s shell.Segment, at place, project string, vars map[string][]string) (finding, bool) {
	cwd := at.cwd
	var (
		sub   shell.Segment
		items []string
		seen  bool
		via   string
	)
	switch {
	case slices.Contains(s.Wrappers, "xargs"):
		sub, via = s, "xargs"
		items, seen = g.stdinWords(segs, i, s, at)
		for _, l := range s.Launchers {
			if path.Base(l[0]) == "xargs" && xargsReadsFile(l) {
				items, seen = nil, false
			}
		}
	case s.Name == "parallel":
		var (
			script string
			inputs bool
		)
		sub, script, items, seen, inputs = parseParallel(s)
		if !inputs {
			items, seen = g.stdinWords(segs, i, s, at)
		}
		if script != "" {
			return g.parallelScript(s, script, items, seen, at, project)
		}
		via = "parallel"
	default:
		return finding{}, false
	}
	if len(sub.Argv) == 0 {
		return finding{}, false
	}
	text := strings.Join(s.Argv, " ")
	if via == "xargs" {
		text = "xargs " + text
	}
	// xargs -I{} bash -c {}: the script, parsed, is the replace string
	// under a shell's -c after xargs ({}, or any word -I names: a lone
	// word there is taken for it, the read judged beside).
	replaced := len(s.Argv) == 1 && len(s.Wrappers) > 1 && strings.HasSuffix(s.Wrappers[len(s.Wrappers)-1], " -c")
	if len(items) > 0 && (replaced || cShell(sub) && (len(sub.Args()) == 0 || xargsReplaces(s, sub.Args()[0]))) {
		// xargs sh -c <<< "rm -rf ~": what xargs gives is the script
		// (one item with -0 or -d, the first word otherwise: all of
		// them, joined, are judged).
		script := strings.Join(items, " ")
		scripts := []string{script}
		if at.depth == 0 && strings.ContainsAny(script, "$`") {
			// xargs bash -c <<< "$s": with the line's values.
			pseudo := shell.Segment{Argv: []string{"\x00", script}, Name: "\x00"}
			for _, v := range g.varVariants(pseudo, vars) {
				if len(v.Argv) == 2 {
					scripts = append(scripts, v.Argv[1])
				}
			}
		}
		for _, sc := range scripts {
			if f, ok := g.nested(sc, at, project); ok {
				f.cmd = truncate(text, 150) + "` runs `" + f.cmd
				return f, true
			}
		}
	}
	if len(items) > 0 {
		full := sub
		if sub.Name == "find" {
			full.Argv = slices.Concat(sub.Argv[:1], items, sub.Argv[1:])
			full.Literal = nil // its words moved
		} else {
			full.Argv = slices.Concat(sub.Argv, items)
		}
		if f, ok := g.rules(full, cwd, project); ok {
			f.cmd = text
			f.why += " (" + truncate(strings.Join(items, " "), 100) + " given by " + via + ")"
			return f, true
		}
	}
	if !seen && deletes(sub) {
		return finding{rule: ruleUnseen, cmd: text, ask: true,
			why: "deletes recursively what " + via + " passes it, which the guard cannot see"}, true
	}
	return finding{}, false
}

// parallelScript checks the command string given to parallel
// ("parallel 'rm -rf {}' ::: a b"), which it runs with a shell, once per
// argument.
func (g *dangerGuard) parallelScript(s shell.Segment, script string, items []string, seen bool, at place, project string) (finding, bool) {
	lines := []string{script}
	if len(items) > 0 {
		lines = lines[:0]
		for _, it := range items {
			if strings.Contains(script, "{}") {
				lines = append(lines, strings.ReplaceAll(script, "{}", shellQuote(it)))
			} else {
				lines = append(lines, script+" "+shellQuote(it))
			}
		}
	}
	for _, l := range lines {
		if f, ok := g.nested(l, at, project); ok {
			f.cmd = truncate(strings.Join(s.Argv, " "), 150) + "` runs `" + f.cmd
			return f, true
		}
	}
	if !seen {
		if segs, err := g.shell.Parse(script); err == nil && slices.ContainsFunc(segs, deletes) {
			return finding{rule: ruleUnseen, cmd: strings.Join(s.Argv, " "), ask: true,
				why: "deletes recursively what parallel passes it, which the guard cannot see"}, true
		}
	}
	return finding{}, false
}

// shellQuote quotes a word for a shell, leaving ~ and globs at the start
// unquoted so that they keep their meaning.
func shellQuote(w string) string {
	if w == "" || strings.ContainsAny(w, " \t\n'\"\\;&|<>()$`") {
		return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return w
}

// xargsReplaces reports whether word is the replace string of the xargs
// that runs s (xargs -I{} bash -c {}: what xargs reads is the script).
func xargsReplaces(s shell.Segment, word string) bool {
	for _, l := range s.Launchers {
		if path.Base(l[0]) != "xargs" {
			continue
		}
		for k, w := range l[1:] {
			switch {
			case w == "-I" && k+2 < len(l) && l[k+2] == word:
				return true
			case strings.HasPrefix(w, "-I") && w[2:] == word && len(w) > 2:
				return true
			case (w == "-i" || w == "--replace") && word == "{}":
				return true
			case strings.HasPrefix(w, "--replace=") && w[len("--replace="):] == word:
				return true
			}
		}
	}
	return false
}

// xargsReadsFile reports whether xargs's options make it read its
// arguments from a file (-a FILE, --arg-file).
func xargsReadsFile(words []string) bool {
	for _, w := range words[1:] {
		if w == "--arg-file" || strings.HasPrefix(w, "--arg-file=") {
			return true
		}
		if len(w) > 1 && w[0] == '-' && w[1] != '-' {
			for _, c := range w[1:] {
				if c == 'a' {
					return true
				}
				if strings.ContainsRune("dEIJLnPRsS", c) {
					break // the rest is that option's value
				}
			}
		}
	}
	return false
}

// stdinWords returns the words a command reads on its standard input,
// split as xargs splits them, and whether the guard can see them all: a
// here-string, a here-document, or echo or printf piped in. Words with
// expansions the guard cannot evaluate make them unseen.
func (g *dangerGuard) stdinWords(segs []shell.Segment, i int, s shell.Segment, at place) ([]string, bool) {
	text, have := hereText(s)
	if !have && (s.Op == "|" || s.Op == "|&") {
		j := pipeSource(segs, i)
		if j < 0 || (segs[j].Name != "echo" && segs[j].Name != "printf") {
			return nil, false
		}
		e := g.expandSegment(segs[j], at)
		argv := slices.Clone(e.Argv)
		argv[0] = e.Name
		// What it prints, as it prints it (printf '%s/.aws/credentials'
		// ~, echo -e '\x2eenv'); unseen when that cannot be worked out.
		out, ok := printed(argv)
		if !ok {
			return nil, false
		}
		text, have = out, true
	}
	if !have {
		return nil, false
	}
	words, err := shell.Words(text)
	if err != nil {
		words = strings.Fields(text)
	}
	for _, w := range words {
		if strings.ContainsAny(w, "$`") {
			return words, false
		}
	}
	return words, true
}

// parallelValued are GNU parallel's options that take a value as the next
// word.
var parallelValued = map[string]bool{
	"-j": true, "-P": true, "-S": true, "-n": true, "-N": true, "-L": true, "-l": true, "-s": true,
	"-E": true, "-I": true, "-d": true, "-C": true, "-X": false, "--jobs": true, "--sshlogin": true,
	"--max-args": true, "--max-replace-args": true, "--max-lines": true, "--colsep": true,
	"--delimiter": true, "--joblog": true, "--results": true, "--res": true, "--tmpdir": true,
	"--workdir": true, "--wd": true, "--timeout": true, "--delay": true, "--retries": true,
	"--env": true, "--basefile": true, "--bf": true, "--tagstring": true, "--tag-string": true,
	"--load": true, "--memfree": true, "--halt": true, "--termseq": true, "--return": true,
	"--transferfile": true, "--tf": true, "--sshloginfile": true, "--slf": true, "--max-chars": true,
	"--shebang-wrap": false, "--sqlmaster": true, "--sqlworker": true, "--rpl": true, "-a": true, "--arg-file": true,
}

// parseParallel splits a GNU parallel command into the command it runs
// (or, when that is one word with blanks, the shell script it runs) and
// the arguments after :::, reporting whether those are all it gets, and
// whether it was given input sources at all (else it reads standard input).
func parseParallel(s shell.Segment) (sub shell.Segment, script string, items []string, seen, inputs bool) {
	argv := s.Argv[1:]
	i := 0
	fromFile := false
	for i < len(argv) {
		a := argv[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' || strings.HasPrefix(a, ":::") {
			break
		}
		if a == "-a" || a == "--arg-file" || strings.HasPrefix(a, "--arg-file=") {
			fromFile = true
		}
		i++
		if parallelValued[a] && i < len(argv) {
			i++
		}
	}
	j := i
	for j < len(argv) && !strings.HasPrefix(argv[j], ":::") {
		j++
	}
	cmd := argv[i:j]
	inputs = fromFile
	for k := j; k < len(argv); k++ {
		switch argv[k] {
		case ":::", ":::+":
			inputs = true
		case "::::", "::::+":
			inputs, fromFile = true, true
		default:
			items = append(items, argv[k])
		}
	}
	seen = inputs && !fromFile
	for _, it := range items {
		if strings.ContainsAny(it, "$`") {
			seen = false
		}
	}
	if len(cmd) == 1 && strings.ContainsAny(cmd[0], " \t;|&") {
		return shell.Segment{}, cmd[0], items, seen && !fromFile, inputs
	}
	if len(cmd) > 0 {
		sub = shell.Segment{Argv: cmd, Name: path.Base(cmd[0])}
	}
	if fromFile {
		seen = false
	}
	return sub, "", items, seen, inputs
}
