package builtin

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hookctl/hookctl/lib/shell"
)

// maxVarValues bounds the values remembered for one variable, and
// maxVariants the versions of one command checked with them. A variable
// given more values is listed under the name "" (see lineVars).
const (
	maxVarValues = 8
	maxVariants  = 16
	// maxVarLen bounds a value built from others (x=$y$y with y=$x$x
	// doubles at each step): a longer one lists its variable under "".
	maxVarLen = 1024
	// maxResolves bounds the substitutions resolveRefs makes for one
	// variable; past it, the variable is listed under "" (a budget of
	// its own: other variables cannot use it up).
	maxResolves = 64
)

// lineVars collects the values the line assigns to shell variables: bare
// assignments (D=..), export, declare, local, readonly and typeset, the
// assignments before commands, which scripts they run see, the items of
// for loops, the elements of arrays (a=(x y)), the positional parameters
// set by set -- or given to a function the line defines, and the words
// read reads from a here-string or here-document, printf -v, and the
// variable a nameref (declare -n) names. Every value is kept,
// whatever the order or branch, since the guard does not follow which one
// holds where: a command is checked with each. $(pwd) and the like in a
// value are expanded where the assignment runs. The names of variables
// given more than maxVarValues values are listed under "".
func (g *dangerGuard) lineVars(segs []shell.Segment, start place) map[string][]string {
	var (
		vars   map[string][]string
		places []place
		lists  []itemList // positional parameters and arrays, for "$*"
	)
	addValue := func(name, value string) {
		if vars == nil {
			vars = make(map[string][]string)
		}
		for _, p := range places {
			addRaw(vars, name, g.expandPlace(value, p))
		}
	}
	add := func(a string) {
		name, value, ok := strings.Cut(a, "=")
		name, appends := strings.CutSuffix(name, "+")
		if !ok || !varNameRe().MatchString(name) {
			return
		}
		if name == "BASH_ARGV0" {
			// bash: assigning BASH_ARGV0 sets $0 (how a -c script's
			// first word after it is bound).
			addValue("0", value)
		}
		if inner, ok := strings.CutPrefix(value, "("); ok {
			// An array: each element is a value.
			words, _ := shell.Words(strings.TrimSuffix(inner, ")"))
			for i, w := range words {
				if _, v, ok := strings.Cut(w, "]="); ok && strings.HasPrefix(w, "[") {
					words[i] = v
				}
			}
			// All of them, for an array that holds a command
			// ("${a[@]}" ~ with a=(rm -rf)), then each; a+=(x) adds
			// to the elements before (a=(-rf); a+=(~) is -rf ~).
			if i := slices.IndexFunc(lists, func(l itemList) bool { return l.name == name }); appends && i >= 0 {
				words = slices.Concat(lists[i].items, words)
			}
			lists = append(lists, itemList{name, words})
			if len(words) > 1 {
				addValue(name, strings.Join(words, " "))
			}
			for _, w := range words {
				addValue(name, w)
			}
			return
		}
		addValue(name, value)
	}
	// A line that shifts its positional parameters gives $N each later
	// argument too.
	shifts := slices.ContainsFunc(segs, func(s shell.Segment) bool { return s.Name == "shift" })
	positional := func(args []string) {
		lists = append(lists, itemList{"@", args})
		if len(args) > 1 {
			if len(vars["@"])+len(places) > maxVarValues {
				// This list whole may not be kept: "$@" as a word is
				// not all known either.
				notAllKnown(vars, atWhole)
			}
			// All of them, first, so that no cap drops it: "$@" as a
			// command (sh -c '"$@"' _ rm -rf ~) or as the arguments of
			// one (rm "$@" with -rf ~), split back into words where it is
			// a word of its own (varVariants).
			addValue("@", strings.Join(args, " "))
		}
		for i, a := range args {
			if i < maxPositional {
				addValue(strconv.Itoa(i+1), a)
				if shifts {
					for _, later := range args[i+1 : min(len(args), i+1+maxVarValues)] {
						addValue(strconv.Itoa(i+1), later)
					}
				}
			}
			addValue("@", a)
		}
	}
	for _, s := range segs {
		switch {
		case len(s.Assigns) > 0:
		case s.Func && len(s.Argv) > 1:
		case s.Name == "set" && len(s.Argv) > 1:
		case s.Name == "read" && len(s.Argv) > 1:
		case s.Name == "printf" && len(s.Argv) > 3 && s.Argv[1] == "-v":
		case len(s.Argv) > 1 && declNames[s.Name]:
		default:
			continue
		}
		places, _ = g.places(s, start, nil)
		for _, a := range s.Assigns {
			add(a)
		}
		switch {
		case declNames[s.Name]:
			nameref := s.Flag("n")
			for _, a := range s.Argv[1:] {
				if name, ref, ok := strings.Cut(a, "="); ok && nameref && varNameRe().MatchString(ref) {
					// declare -n r=HOME: $r is $HOME.
					a = name + "=${" + ref + "}"
				}
				add(a)
			}
		case s.Name == "printf":
			// printf -v X FORMAT ARGS: X gets the formatted text, as
			// printf prints it when that can be worked out, and each
			// argument, or the format alone.
			args := s.Argv[1:]
			if len(args) >= 3 && args[0] == "-v" && varNameRe().MatchString(args[1]) {
				if text, ok := printed(append([]string{"printf"}, args[2:]...)); ok {
					addValue(args[1], text)
				}
				if len(args) == 3 {
					addValue(args[1], args[2])
				}
				for _, a := range args[3:] {
					addValue(args[1], a)
				}
			}
		case s.Func:
			positional(s.Argv[1:])
		case s.Name == "set":
			args := s.Argv[1:]
			for len(args) > 0 && len(args[0]) > 1 && (args[0][0] == '-' || args[0][0] == '+') && args[0] != "--" {
				if strings.Trim(args[0], "-+") == "o" && len(args) > 1 {
					args = args[1:]
				}
				args = args[1:]
			}
			if len(args) > 0 && (args[0] == "--" || args[0] == "-") {
				args = args[1:]
				positional(args)
			} else if len(args) > 0 && !strings.HasPrefix(s.Argv[1], "-") && !strings.HasPrefix(s.Argv[1], "+") {
				positional(args)
			}
		case s.Name == "read":
			g.readVars(s, addValue)
		}
	}
	resolveRefs(vars)
	// "$*" and "${a[*]}" join their items with the first character of
	// IFS (IFS=/; set -- "" home; "$*" is /home): each IFS the line
	// gives. A join not kept makes "$@" whole not all known.
	joined := false
	for _, ifs := range vars["IFS"] {
		if strings.IndexByte(ifs, '$') >= 0 {
			continue
		}
		sep := ""
		if ifs != "" {
			_, n := utf8.DecodeRuneInString(ifs)
			sep = ifs[:n]
		}
		if sep == " " {
			continue
		}
		for _, l := range lists {
			if len(l.items) < 2 {
				continue
			}
			j := strings.Join(l.items, sep)
			if addRaw(vars, l.name, j); !slices.Contains(vars[l.name], j) {
				notAllKnown(vars, l.name)
				if l.name == "@" {
					notAllKnown(vars, atWhole)
				}
			}
			joined = true
		}
	}
	if joined {
		resolveRefs(vars)
	}
	return vars
}

// itemList is a list of positional parameters ("@") or an array's
// elements, which "$*" and "${a[*]}" join with IFS.
type itemList struct {
	name  string
	items []string
}

// maxPositional bounds the positional parameters bound by number ($1 to
// ${4096}); "$@" holds every one.
const maxPositional = 4096

// resolveRefs gives a variable whose value names other variables the line
// gives (x=$1, a for loop over "$@", a function called with "$2", a chain
// w=$x x=$y y=$z) each of their values too, one level a round, until no
// round adds a value (at most maxVarValues rounds). A value that would
// grow past maxVarLen lists its variable under "", as one given too many
// values is.
func resolveRefs(vars map[string][]string) {
	defer unknownSpreads(vars)
	budget := map[string]int{}
	compiled := map[string]*regexp.Regexp{} // varUseRe of each name used, once
	overflow := func(name string) { notAllKnown(vars, name) }
	for range maxVarValues {
		added := false
		for _, name := range slices.Sorted(maps.Keys(vars)) {
			if name == "" {
				continue
			}
			for _, v := range vars[name] {
				if !strings.Contains(v, "$") {
					continue
				}
				seen := map[string]bool{}
				for _, m := range varRefRe().FindAllStringSubmatch(v, -1) {
					ref := m[1] + m[2]
					if ref == "*" {
						ref = "@"
					}
					if seen[ref] {
						continue
					}
					seen[ref] = true
					re, ok := compiled[ref]
					if !ok {
						re = varUseRe(ref)
						compiled[ref] = re
					}
					for _, rv := range vars[ref] {
						if ref == name && re.MatchString(rv) {
							continue // x=$x:y takes x's values without x
						}
						if budget[name]++; budget[name] > maxResolves {
							overflow(name) // not all known
							break
						}
						nv := re.ReplaceAllLiteralString(v, rv)
						if len(nv) > maxVarLen {
							overflow(name)
							continue
						}
						if !slices.Contains(vars[name], nv) {
							addRaw(vars, name, nv)
							added = true
						}
					}
				}
			}
		}
		if !added {
			return
		}
	}
}

// unknownSpreads lists under "" every variable a value of which uses one
// listed there (x over "${a[@]}" with a given too many values): its
// values are not all known either.
func unknownSpreads(vars map[string][]string) {
	for changed := true; changed && len(vars[""]) > 0; {
		changed = false
		for name, values := range vars {
			if name == "" || slices.Contains(vars[""], name) {
				continue
			}
			if slices.ContainsFunc(values, func(v string) bool { return unknownIn(vars, v) }) {
				notAllKnown(vars, name)
				changed = true
			}
		}
	}
}

// addRaw adds value to name's values, as lineVars does.
func addRaw(vars map[string][]string, name, value string) {
	switch vs := vars[name]; {
	case slices.Contains(vs, value):
	case len(vs) < maxVarValues:
		vars[name] = append(vs, value)
	default:
		notAllKnown(vars, name)
	}
}

// notAllKnown lists name under "": a variable whose values the guards do
// not all know (they ask or refuse where it counts).
func notAllKnown(vars map[string][]string, name string) {
	if !slices.Contains(vars[""], name) {
		vars[""] = append(vars[""], name)
	}
}

// atWhole is listed under "" when a list of positional parameters whole
// (the first value given to "@", for "$@" as a word of its own) was not
// kept: without it, "$@" as a word is known even when its items are not
// all kept.
const atWhole = "@ whole"

// atWord reports whether a word is all of "$@" (or "$*") and nothing
// else: the arguments' words, where it stands.
func atWord(a string) bool { return a == "$@" || a == "${@}" || a == "$*" || a == "${*}" }

// readVars gives the names read reads into the words of the here-string
// or here-document on its standard input: each name every word and the
// whole text, since the guard does not split them as read does.
func (g *dangerGuard) readVars(s shell.Segment, addValue func(name, value string)) {
	var text string
	for _, r := range s.Redirects {
		switch {
		case r.Fd != "" && r.Fd != "0":
		case r.Op == "<<<":
			text = r.Target
		case r.Op == "<<" || r.Op == "<<-":
			text = r.Body
		}
	}
	if text == "" {
		return
	}
	words := strings.Fields(text)
	if len(words) > maxVarValues {
		words = words[:maxVarValues]
	}
	args := s.Argv[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) > 1 && a[0] == '-' {
			if strings.ContainsAny(a[len(a)-1:], "adinNptu") && a != "-r" && a != "-s" && a != "-e" {
				if strings.HasSuffix(a, "a") && i+1 < len(args) {
					// read -a NAME: an array of the words.
					for _, w := range words {
						addValue(args[i+1], w)
					}
				}
				i++
			}
			continue
		}
		if !varNameRe().MatchString(a) {
			continue
		}
		addValue(a, strings.TrimSpace(text))
		for _, w := range words {
			addValue(a, w)
		}
	}
}

// declNames are the builtins that assign variables given as NAME=VALUE.
var declNames = map[string]bool{"export": true, "declare": true, "typeset": true, "local": true, "readonly": true}

var (
	varNameRe = lazyRegexp(`^[A-Za-z_][A-Za-z0-9_]*$`)
	atSliceRe = lazyRegexp(`\$\{[@*]:[^}]*\}`)
	// indirectRe matches an indirection, ${!x} (not ${!x*}, ${!x[@]}).
	indirectRe = lazyRegexp(`\$\{!([A-Za-z_][A-Za-z0-9_]*|[0-9]+)\}`)
	varRefRe   = lazyRegexp(`\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])(?:\[[^\]]*\])?[}:#%/^,+=?-]|\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*])`)
)

// varVariants returns the versions of s with the variables the line
// assigns replaced in its words by each of their values (s itself is not
// among them); their parameter expansions (${D:-build}) are evaluated. A
// command name that becomes "rm -rf" (x="rm -rf"; $x ~) is split into
// words, as the shell splits an unquoted expansion.
func (g *dangerGuard) varVariants(s shell.Segment, vars map[string][]string) []shell.Segment {
	if !slices.ContainsFunc(s.Argv, func(a string) bool { return strings.ContainsAny(a, "$`") }) {
		return nil
	}
	var out []shell.Segment
	bases := append([]shell.Segment{s}, echoedVersions(s)...)
	if d, ok := g.defaulted(s, vars); ok {
		bases = append(bases, d)
	}
	for i, b := range bases {
		if len(vars) == 0 {
			if i > 0 {
				out = append(out, g.renamedIf(s, b)...)
			}
			continue
		}
		indirect := g.indirections(b, vars)
		switch {
		case len(indirect) > 0:
			out = append(out, indirect...)
		case i > 0:
			out = append(out, g.renamedIf(s, b)...)
			indirect = []shell.Segment{b}
		default:
			indirect = []shell.Segment{b}
		}
		for _, v := range indirect {
			out = append(out, g.valueVariants(v, vars)...)
		}
	}
	if len(out) > maxVariants {
		for _, m := range indirectRe().FindAllStringSubmatch(strings.Join(s.Argv, " "), -1) {
			notAllKnown(vars, m[1])
		}
		out = out[:maxVariants]
	}
	return out
}

// optionLines returns, for a shell or a program that runs one (su,
// sudo, env...) given options by a variable the line sets (o=-c; bash
// $o 'rm -rf ~'), each version of it with the line's values that
// changes an option, as a line to judge whole: the script its -c, -s or
// input then gives is read as any line is (its cd, its variables, every
// command).
func (g *dangerGuard) optionLines(s shell.Segment, vars map[string][]string) []string {
	if !slices.ContainsFunc(s.Argv, func(a string) bool { return strings.ContainsAny(a, "$`") }) {
		return nil // nothing for a value or a default to change
	}
	var out []string
	add := func(v shell.Segment) {
		quoted := make([]string, len(v.Argv))
		for i, a := range v.Argv {
			quoted[i] = shellQuote(a)
		}
		if s.UserShell() && v.Argv[0] == s.Argv[0] {
			quoted[0] = v.Argv[0] // $SHELL, as the shell expands it
		}
		if line := strings.Join(quoted, " "); !slices.Contains(out, line) {
			out = append(out, line)
		}
	}
	// A command word with a default (${X:-eval} 'cd ~ && rm -rf *'):
	// the line its default makes.
	if d, ok := g.defaulted(s, vars); ok && len(d.Argv) > 0 && (len(d.Argv) != len(s.Argv) || d.Argv[0] != s.Argv[0]) {
		add(d)
	}
	if len(vars) == 0 || !shells[s.Name] && !s.UserShell() && !optionLaunchers[s.Name] {
		return out
	}
	for _, v := range g.valueVariants(s, vars) {
		if optionChanged(s.Argv, v.Argv) {
			add(v)
		}
	}
	return out
}

// optionLaunchers run a shell, or a command, with the options after
// them: a variable giving those options may make them run a script.
var optionLaunchers = map[string]bool{"su": true, "runuser": true, "sudo": true, "doas": true, "env": true}

// optionChanged reports whether the version v of the words a gives an
// option where a did not: a word past the command that starts with "-".
func optionChanged(a, v []string) bool {
	for i := 1; i < len(v); i++ {
		if strings.HasPrefix(v[i], "-") && (i >= len(a) || a[i] != v[i]) {
			return true
		}
	}
	return false
}

// scriptValues returns the scripts s runs when it is the script of eval,
// trap, a shell's -c or a shell reading a here-string, given by an
// expansion the guard can work out: a variable the line gives values to
// (eval "$s", eval -- "${s:-x}", eval "$a $b", bash <<< "$s"), an echo
// or printf substitution (eval "$(echo 'cd ~ && rm -rf *')"). Each is
// parsed as a script, as the shell does, not read as one command's
// words. Only in a line that is not itself such a script (depth 0): a
// script per value at every level would multiply the scripts judged at
// each.
func (g *dangerGuard) scriptValues(s shell.Segment, vars map[string][]string, depth int) []string {
	if depth > 0 || len(s.Argv) == 0 {
		return nil
	}
	if lines := g.optionLines(s, vars); len(lines) > 0 {
		return lines
	}
	if len(s.Wrappers) == 0 {
		return nil
	}
	last := s.Wrappers[len(s.Wrappers)-1]
	eval := last == "eval"
	if !eval && last != "trap" && !strings.HasSuffix(last, " -c") && !strings.HasSuffix(last, " -s") {
		return nil
	}
	argv, literal := s.Argv, s.Literal
	if (eval || last == "trap") && argv[0] == "--" && len(argv) > 1 {
		argv = argv[1:]
		if len(literal) > 0 {
			literal = literal[1:]
		}
	}
	if !strings.ContainsAny(argv[0], "$`") || len(literal) > 0 && literal[0] {
		return nil
	}
	text := argv[0]
	if eval {
		text = strings.Join(argv, " ") // eval joins its words
	}
	// The words' versions, each whole: a segment of one word whose name
	// no version changes.
	pseudo := shell.Segment{Argv: []string{"\x00", text}, Name: "\x00"}
	var out []string
	for _, v := range g.varVariants(pseudo, vars) {
		if len(v.Argv) == 2 && v.Argv[0] == pseudo.Argv[0] && v.Argv[1] != text &&
			strings.TrimSpace(v.Argv[1]) != "" && !slices.Contains(out, v.Argv[1]) {
			out = append(out, v.Argv[1])
		}
	}
	return out
}

// renamedIf returns v, or the commands it runs when its command name is
// not s's (renamed).
func (g *dangerGuard) renamedIf(s, v shell.Segment) []shell.Segment {
	if len(v.Argv) == 0 {
		return nil
	}
	if v.Argv[0] != s.Argv[0] {
		return g.renamed(v, blanks)
	}
	return []shell.Segment{v}
}

// defaultRe matches a parameter expansion with a default:
// ${NAME:-DEFAULT}, ${NAME-DEFAULT}, ${NAME:=DEFAULT}, ${NAME=DEFAULT}.
var defaultRe = lazyRegexp(`\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*]):?[-=][^{}\x60]*\}`)

// defaulted returns s with each expansion of a variable the line does
// not set that has a default (${X:-rm}, ${F-.env}, ${X:-"rm"}) replaced
// by its value as expandParams works it out: what runs when the
// variable is unset, a version judged beside the line as written; false
// when s has none.
func (g *dangerGuard) defaulted(s shell.Segment, vars map[string][]string) (shell.Segment, bool) {
	var argv []string
	for i, a := range s.Argv {
		if i < len(s.Literal) && s.Literal[i] || !strings.Contains(a, "${") {
			continue
		}
		b := defaultRe().ReplaceAllStringFunc(a, func(m string) string {
			if len(vars[defaultRe().FindStringSubmatch(m)[1]]) > 0 {
				return m // the line sets it: its values are tried
			}
			return g.expandParams(m, place{}, nil)
		})
		if b != a {
			if argv == nil {
				argv = slices.Clone(s.Argv)
			}
			argv[i] = b
		}
	}
	if argv == nil {
		return s, false
	}
	if argv[0] == "" {
		argv = argv[1:] // ${X:-} rm -rf ~: an empty command word is no word
		if len(argv) == 0 {
			return s, false
		}
	}
	s.Argv = argv
	return s, true
}

// echoedVersions returns the versions of s with each word that is an
// echo or printf substitution of plain words ($(echo -rf ~), `echo /`)
// replaced by what it prints: one word, as quoted, and split into its
// words, as unquoted; nil when s has none.
func echoedVersions(s shell.Segment) []shell.Segment {
	var (
		whole, split shell.Segment
		found        bool
	)
	split.Argv = make([]string, 0, len(s.Argv))
	for i, a := range s.Argv {
		lit := i < len(s.Literal) && s.Literal[i]
		var words []string
		if !lit && isSubst(a) {
			words = echoedWords(a)
		}
		if words == nil {
			split.Argv = append(split.Argv, a)
			if lit {
				split.Literal = append(split.Literal, make([]bool, len(split.Argv)-len(split.Literal))...)
				split.Literal[len(split.Argv)-1] = true
			}
			continue
		}
		if !found {
			whole = s
			whole.Argv = slices.Clone(s.Argv)
			found = true
		}
		whole.Argv[i] = strings.Join(words, " ")
		split.Argv = append(split.Argv, words...)
	}
	if !found {
		return nil
	}
	argv, literal := split.Argv, split.Literal
	split = s
	split.Argv, split.Literal = argv, literal
	if slices.Equal(whole.Argv, split.Argv) {
		return []shell.Segment{whole}
	}
	return []shell.Segment{whole, split}
}

// indirections returns the versions of s with each indirection ${!x}
// replaced by ${NAME} for each value NAME of x that names a variable
// (x=HOME; rm -rf "${!x}" is rm -rf "${HOME}"), or nil when s has none
// the line gives a value to.
func (g *dangerGuard) indirections(s shell.Segment, vars map[string][]string) []shell.Segment {
	if !slices.ContainsFunc(s.Argv, func(a string) bool { return strings.Contains(a, "${!") }) {
		return nil
	}
	out := []shell.Segment{s}
	for _, m := range indirectRe().FindAllStringSubmatch(strings.Join(s.Argv, " "), -1) {
		use := m[0]
		var next []shell.Segment
		for _, v := range out {
			for _, name := range vars[m[1]] {
				if name != "@" && name != "*" && !varNameRe().MatchString(name) && strings.Trim(name, "0123456789") != "" {
					continue
				}
				w := v
				w.Argv = slices.Clone(v.Argv)
				for i, a := range w.Argv {
					if i >= len(w.Literal) || !w.Literal[i] {
						w.Argv[i] = strings.ReplaceAll(a, use, "${"+name+"}")
					}
				}
				next = append(next, w)
			}
		}
		if len(next) > 0 {
			out = next
		}
		if len(out) > maxVariants {
			notAllKnown(vars, m[1])
			out = out[:maxVariants]
		}
	}
	if len(out) == 1 && slices.Equal(out[0].Argv, s.Argv) {
		return nil
	}
	return out
}

// valueVariants is varVariants for a segment whose indirections have
// been replaced.
func (g *dangerGuard) valueVariants(s shell.Segment, vars map[string][]string) []shell.Segment {
	out := []shell.Segment{s}
	ifs := ifsChars(vars)
	var names []string
	for _, m := range varRefRe().FindAllStringSubmatch(strings.Join(s.Argv, " "), -1) {
		name := m[1] + m[2]
		if name == "*" {
			name = "@"
		}
		if len(vars[name]) > 0 && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		re := varUseRe(name)
		var next []shell.Segment
		for _, v := range out {
			next = g.substitute(next, v, name, vars[name], re, ifs)
		}
		out = append(out[:1], next...)
		if len(out) > maxVariants {
			// Not every combination is tried: the variables it uses
			// count as not all known (the guards ask or refuse). Each
			// value of each variable is still tried once, the others
			// as written, so that a dangerous value is judged (git
			// push $o $r with --force among o's values).
			for _, n := range names {
				notAllKnown(vars, n)
			}
			var once []shell.Segment
			for _, n := range names {
				if once = g.substitute(once, s, n, vars[n], varUseRe(n), ifs); len(once) >= maxOnce {
					return once[:maxOnce]
				}
			}
			return once
		}
	}
	return out[1:]
}

// maxOnce bounds the versions of a command tried with each value of its
// variables once, when their combinations are too many.
const maxOnce = 4 * maxVariants

// substitute appends to out the versions of v with name (whose uses re
// matches) replaced by each of values: whole, and split at the
// characters of ifs where a word holding the value would be.
func (g *dangerGuard) substitute(out []shell.Segment, v shell.Segment, name string, values []string, re *regexp.Regexp, ifs []string) []shell.Segment {
	for _, val := range values {
		w := v
		w.Argv = slices.Clone(v.Argv)
		split := false
		for i, a := range w.Argv {
			if i < len(w.Literal) && w.Literal[i] {
				continue // '$x' is no use of x
			}
			switch {
			case name == "@" && atWord(a):
				// A word of its own: the arguments' words (rm "$@"
				// with -rf ~ is rm -rf ~).
				split = true
			case name == "@" && (strings.Contains(a, "${@:") || strings.Contains(a, "${*:")):
				// A slice of them (${@:2}, ${@: -1}): any of the
				// values, whole.
				a = atSliceRe().ReplaceAllLiteralString(a, val)
			case strings.Contains(a, "${"+name):
				a = g.expandParams(a, place{}, map[string]string{name: val})
			}
			w.Argv[i] = re.ReplaceAllLiteralString(a, val)
		}
		versions := []shell.Segment{w}
		if split {
			versions[0] = splitWords(v, w, blanks, func(i int) bool { return atWord(v.Argv[i]) })
		}
		for _, set := range ifs {
			// Unquoted, a word holding the value is split at the
			// characters of IFS (c="-rf $HOME"; rm $c; "/tmp/$@" with
			// two arguments is two words; IFS=, c="-rf,$HOME"): the
			// guard cannot tell quoted from unquoted, nor which IFS a
			// command has, so each is tried.
			splits := func(i int) bool { return w.Argv[i] != v.Argv[i] && strings.ContainsAny(w.Argv[i], set) }
			if !anyIndex(len(w.Argv), splits) {
				continue
			}
			sv := splitWords(v, w, set, splits)
			if !slices.ContainsFunc(versions, func(x shell.Segment) bool { return slices.Equal(x.Argv, sv.Argv) }) {
				versions = append(versions, sv)
			}
		}
		for _, w := range versions {
			switch {
			case len(w.Argv) == 0:
			case w.Argv[0] != v.Argv[0]:
				for _, set := range ifs {
					out = append(out, g.renamed(w, set)...)
				}
			default:
				out = append(out, w)
			}
		}
	}
	return out
}

// blanks are the characters of the default IFS.
const blanks = " \t\n"

// maxIFS bounds the IFS values of a line a split is tried with.
const maxIFS = 3

// ifsChars returns the sets of characters the shell may split an
// unquoted expansion at: the default IFS's, and each IFS the line gives
// (IFS=/ true before IFS=, ... : which one a command has is not
// followed, so each is tried on its own; a union would split a value at
// characters no IFS has at once).
func ifsChars(vars map[string][]string) []string {
	out := []string{blanks}
	for _, v := range vars["IFS"] {
		if v == "" || strings.IndexByte(v, '$') >= 0 || slices.Contains(out, v) {
			continue // no splitting; $s before it is resolved
		}
		if len(out) > maxIFS {
			break
		}
		out = append(out, v)
	}
	return out
}

// anyIndex reports whether f holds for one of 0..n-1.
func anyIndex(n int, f func(int) bool) bool {
	for i := range n {
		if f(i) {
			return true
		}
	}
	return false
}

// splitWords returns w with each of its words i for which split is true
// split at blanks, as the shell splits an unquoted expansion (an empty
// one is no word at all); w.Argv is s.Argv with values substituted, word
// for word.
func splitWords(s, w shell.Segment, ifs string, split func(i int) bool) shell.Segment {
	argv := make([]string, 0, len(w.Argv))
	var literal []bool
	for i, a := range w.Argv {
		lit := i < len(s.Literal) && s.Literal[i]
		n := len(argv)
		if lit || !split(i) {
			argv = append(argv, a)
		} else {
			argv = append(argv, strings.FieldsFunc(a, func(r rune) bool { return strings.ContainsRune(ifs, r) })...)
		}
		if lit {
			literal = append(literal, make([]bool, len(argv)-len(literal))...)
			literal[n] = true
		}
	}
	w.Argv, w.Literal = argv, literal
	return w
}

// renamed returns the commands that s runs once its command name has been
// replaced by a variable's value: the value is split into words, as the
// shell splits an unquoted expansion ("rm -rf"), and the command is parsed
// again, so that a launcher or shell it names is unwrapped (x=sudo; $x rm
// -rf ~, x=bash; $x -c '...').
func (g *dangerGuard) renamed(s shell.Segment, ifs string) []shell.Segment {
	words := strings.FieldsFunc(s.Argv[0], func(r rune) bool { return strings.ContainsRune(ifs, r) })
	if len(words) == 0 {
		return nil
	}
	argv := append(words, s.Argv[1:]...)
	s.Argv, s.Name, s.Literal = argv, path.Base(argv[0]), nil
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = shellQuote(a)
	}
	segs, err := g.shell.Parse(strings.Join(quoted, " "))
	if err != nil || len(segs) == 0 {
		return []shell.Segment{s}
	}
	out := make([]shell.Segment, 0, len(segs))
	for _, p := range segs {
		p.Literal = nil // every word was quoted, expansions too
		p.Op = s.Op
		p.Subshell = p.Subshell || s.Subshell
		p.Assigns = slices.Concat(s.Assigns, p.Assigns)
		p.Redirects = slices.Concat(s.Redirects, p.Redirects)
		p.Dirs = s.Dirs
		out = append(out, p)
	}
	return out
}

// varUseRe matches the plain uses of a variable: $NAME, ${NAME} and, for
// an array, ${NAME[...]}; for "@", $@, $*, ${@} and ${*}.
func varUseRe(name string) *regexp.Regexp {
	switch {
	case name == "@":
		return regexp.MustCompile(`\$\{[@*]\}|\$[@*]`)
	case len(name) == 1 && name[0] >= '0' && name[0] <= '9':
		return regexp.MustCompile(`\$\{` + name + `\}|\$` + name)
	case strings.Trim(name, "0123456789") == "":
		return regexp.MustCompile(`\$\{` + name + `\}`) // $10 is $1 then 0
	}
	return regexp.MustCompile(`\$\{` + name + `(?:\[[^\]]*\])?\}|\$` + name + `\b`)
}

// overflowedVar reports whether s uses, in its words, a variable that the
// line gives more values than the guard tries.
func overflowedVar(s shell.Segment, vars map[string][]string) bool {
	if len(vars[""]) == 0 {
		return false
	}
	for i, a := range s.Argv {
		if (i >= len(s.Literal) || !s.Literal[i]) && unknownIn(vars, a) {
			return true // '$x' is no use of x
		}
	}
	return false
}

// unknownIn reports whether one of words uses a variable that the line
// gives more values than the guard tries.
func unknownIn(vars map[string][]string, words ...string) bool {
	if len(vars[""]) == 0 {
		return false
	}
	for _, a := range words {
		if strings.IndexByte(a, '$') < 0 {
			continue
		}
		for _, name := range vars[""] {
			switch {
			case name == atWhole:
			case name == "@" && atWord(a) && !slices.Contains(vars[""], atWhole):
				// "$@" whole: every list of them was kept whole.
			case usesVar(a, name), strings.Contains(a, "${!"+name+"}"):
				return true
			}
		}
	}
	return false
}

// usesVar reports whether a word uses a variable: $NAME (not $NAMEX),
// ${NAME}, ${NAME[...]} and its parameter expansions (${NAME:-x},
// ${NAME#x}...); $@, $*, ${@}, ${*} for "@"; $1 and ${1}, but ${10} only.
func usesVar(a, name string) bool {
	if name == "@" {
		return strings.Contains(a, "$@") || strings.Contains(a, "$*") || strings.Contains(a, "${@") || strings.Contains(a, "${*")
	}
	digits := strings.Trim(name, "0123456789") == ""
	for i := 0; i < len(a); i++ {
		j := strings.IndexByte(a[i:], '$')
		if j < 0 {
			return false
		}
		i += j
		rest := a[i+1:]
		if r, ok := strings.CutPrefix(rest, "{"+name); ok && r != "" && strings.IndexByte("}[:#%/^,+=?-@", r[0]) >= 0 {
			return true // ${x}, ${x[1]}, ${x:-y}, ${x#y}...
		}
		if r, ok := strings.CutPrefix(rest, name); ok && (!digits || len(name) == 1) {
			if r == "" || digits || !isWordByte(r[0]) {
				return true
			}
		}
	}
	return false
}

// isWordByte reports whether b is a letter, a digit or _, as \w.
func isWordByte(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// unknownPlace tells where s uses a variable the line gives more values
// than the guard tries, outside its arguments: "name" for its command
// name (which eval, bash -c, sudo and xargs unwrap to), "dir" for a cd
// before it (looked at only when dirs is true), "input" for a file it
// reads from a redirection (or the names xargs reads from a here-string
// or here-document), or "".
func unknownPlace(s shell.Segment, vars map[string][]string, dirs bool) string {
	if len(vars[""]) == 0 {
		return ""
	}
	if len(s.Argv) > 0 && unknownIn(vars, s.Argv[0]) {
		return "name"
	}
	for _, c := range s.Dirs {
		if dirs && unknownIn(vars, c.Argv...) {
			return "dir"
		}
	}
	fed := slices.Contains(s.Wrappers, "xargs")
	for _, r := range s.Redirects {
		switch {
		case r.Op == "<" || r.Op == "<>":
		case fed && r.Op == "<<<": // the names xargs gives the command
		case fed && (r.Op == "<<" || r.Op == "<<-") && !r.Literal:
		default:
			continue
		}
		if unknownIn(vars, r.Target, r.Body) {
			return "input"
		}
	}
	return ""
}
