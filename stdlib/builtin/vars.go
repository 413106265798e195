package builtin

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/stdlib/shell"
)

// maxVarValues bounds the values remembered for one variable, and
// maxVariants the versions of one command checked with them.
const (
	maxVarValues = 4
	maxVariants  = 8
)

// lineVars collects the values the line assigns to shell variables: bare
// assignments (D=..), export, declare, local, readonly and typeset, and
// the assignments before commands, which scripts they run see. Every
// value is kept, whatever the order or branch, since the guard does not
// follow which one holds where: a command is checked with each. $(pwd)
// and the like in a value are expanded where the assignment runs.
func (g *dangerGuard) lineVars(segs []shell.Segment, start place) map[string][]string {
	var (
		vars   map[string][]string
		places []place
	)
	add := func(a string) {
		name, value, ok := strings.Cut(a, "=")
		if !ok || !varNameRe().MatchString(name) || strings.HasPrefix(value, "(") {
			return
		}
		if vars == nil {
			vars = make(map[string][]string)
		}
		for _, p := range places {
			v := g.expandPlace(value, p)
			if vs := vars[name]; len(vs) < maxVarValues && !slices.Contains(vs, v) {
				vars[name] = append(vs, v)
			}
		}
	}
	for _, s := range segs {
		if len(s.Assigns) == 0 && (len(s.Argv) < 2 || !declNames[s.Name]) {
			continue
		}
		places, _ = g.places(s, start)
		for _, a := range s.Assigns {
			add(a)
		}
		if declNames[s.Name] {
			for _, a := range s.Argv[1:] {
				add(a)
			}
		}
	}
	return vars
}

// declNames are the builtins that assign variables given as NAME=VALUE.
var declNames = map[string]bool{"export": true, "declare": true, "typeset": true, "local": true, "readonly": true}

var (
	varNameRe = lazyRegexp(`^[A-Za-z_][A-Za-z0-9_]*$`)
	varRefRe  = lazyRegexp(`\$\{([A-Za-z_][A-Za-z0-9_]*)[}:#%/^,+=?-]|\$([A-Za-z_][A-Za-z0-9_]*)`)
)

// varVariants returns the versions of s with the variables the line
// assigns replaced in its words by each of their values (s itself is not
// among them); their parameter expansions (${D:-build}) are evaluated. A
// command name that becomes "rm -rf" (x="rm -rf"; $x ~) is split into
// words, as the shell splits an unquoted expansion.
func (g *dangerGuard) varVariants(s shell.Segment, vars map[string][]string) []shell.Segment {
	if len(vars) == 0 || !slices.ContainsFunc(s.Argv, func(a string) bool { return strings.Contains(a, "$") }) {
		return nil
	}
	out := []shell.Segment{s}
	var names []string
	for _, m := range varRefRe().FindAllStringSubmatch(strings.Join(s.Argv, " "), -1) {
		if name := m[1] + m[2]; len(vars[name]) > 0 && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		values := vars[name]
		re := regexp.MustCompile(`\$\{` + name + `\}|\$` + name + `\b`)
		var next []shell.Segment
		for _, v := range out {
			for _, val := range values {
				w := v
				w.Argv = slices.Clone(v.Argv)
				for i, a := range w.Argv {
					if strings.Contains(a, "${"+name) {
						a = g.expandParams(a, place{}, map[string]string{name: val})
					}
					w.Argv[i] = re.ReplaceAllLiteralString(a, val)
				}
				if w.Argv[0] != v.Argv[0] {
					if f := strings.Fields(w.Argv[0]); len(f) > 1 {
						w.Argv = append(f, w.Argv[1:]...)
					}
					w.Name = path.Base(w.Argv[0])
				}
				next = append(next, w)
			}
		}
		out = append(out[:1], next...)
		if len(out) > maxVariants {
			return out[1:maxVariants]
		}
	}
	return out[1:]
}
