package builtin

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// paramExpRe finds braced parameter expansions without nested braces:
// ${PWD%/*}, ${X:-~}, ${HOME:0:9}, ${a[@]}.
var paramExpRe = lazyRegexp(`\$\{[^{}` + "`" + `]*\}`)

// expandParams evaluates, in a word, the braced parameter expansions with
// an operator (${PWD%/*}, ${PWD/shop/}, ${PWD:0:9}, ${X:-~}) whose value
// the guard knows: PWD, OLDPWD, HOME and CLAUDE_PROJECT_DIR at p, and the
// variables in vars. A variable it does not know is taken as unset only
// where that gives a value that does not depend on it (the default of
// ${X:-~} and ${X:=~}); other expansions of it, and any expansion whose
// operand uses one, are left as written.
func (g *dangerGuard) expandParams(a string, p place, vars map[string]string) string {
	return paramExpRe().ReplaceAllStringFunc(a, func(m string) string {
		word, err := syntax.NewParser().Document(strings.NewReader(m))
		if err != nil || len(word.Parts) != 1 {
			return m
		}
		pe, ok := word.Parts[0].(*syntax.ParamExp)
		if !ok || pe.Param == nil || pe.Excl || pe.Length || pe.Width || pe.Index != nil || pe.Names != 0 {
			return m
		}
		env := map[string]string{"PWD": p.cwd, "OLDPWD": p.old, "HOME": g.home, "CLAUDE_PROJECT_DIR": p.project}
		for k, v := range vars {
			env[k] = v
		}
		name := pe.Param.Value
		for _, ref := range varRefRe().FindAllStringSubmatch(m[2:], -1) {
			if env[ref[1]+ref[2]] == "" {
				return m // the value depends on a variable the guard does not know
			}
		}
		v, known := env[name]
		known = known && v != ""
		if pe.Exp == nil && pe.Slice == nil && pe.Repl == nil {
			return m // ${NAME}: replaced where the guard replaces $NAME
		}
		if !known {
			if pe.Exp == nil {
				return m
			}
			switch pe.Exp.Op {
			case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
			default:
				return m
			}
		}
		if pe.Exp != nil {
			// The value an assignment gives is the default's.
			switch pe.Exp.Op {
			case syntax.AssignUnset:
				pe.Exp.Op = syntax.DefaultUnset
			case syntax.AssignUnsetOrNull:
				pe.Exp.Op = syntax.DefaultUnsetOrNull
			}
		}
		var pairs []string
		for k, v := range env {
			if v != "" {
				pairs = append(pairs, k+"="+v)
			}
		}
		cfg := &expand.Config{Env: expand.ListEnviron(pairs...)}
		out, err := expand.Literal(cfg, word)
		if err != nil || strings.ContainsAny(out, "$`") {
			return m
		}
		return out
	})
}
