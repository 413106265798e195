package stdlib

import (
	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/lib/paths"
	"github.com/hookctl/hookctl/lib/secrets"
	"github.com/hookctl/hookctl/lib/shell"
)

// ConditionFunctions returns the helper functions of `when` conditions:
//
//	glob(path, pattern)          path matches a glob (** across directories; no slash = base name)
//	globAny(path, [patterns])    any of the globs
//	inside(path, root)           path is root or under it (lexically, after cleaning)
//	resolve(path, cwd)           path made absolute against cwd, ~ expanded
//	expand(path)                 ~ and $HOME expanded
//	basename(path), dirname(path), ext(path)
//	commands(cmdline)            the command names of a shell line, unwrapped (sudo, bash -c, ...)
//	hasCommand(cmdline, name...) any of those names is run
//	hasSecret(text)              text holds a credential
//	permissionRule(tool_name, tool_input, "Bash(git push:*)")
//	                             the call matches a Claude Code permission rule
//
// A missing (nil) argument makes a predicate false and a string function
// return "". The functions are pure and safe for concurrent use. They are
// marked Standard: a configuration's function block cannot declare them.
func ConditionFunctions() []conditions.Function {
	str := func(v any) (string, bool) { s, ok := v.(string); return s, ok }
	pred2 := func(name string, f func(a, b string) bool) conditions.Function {
		return conditions.Function{Name: name, Fn: func(p ...any) (any, error) {
			a, ok1 := str(p[0])
			b, ok2 := str(p[1])
			return ok1 && ok2 && f(a, b), nil
		}, Types: []any{new(func(string, string) bool)}}
	}
	str1 := func(name string, f func(string) string) conditions.Function {
		return conditions.Function{Name: name, Fn: func(p ...any) (any, error) {
			a, _ := str(p[0])
			if a == "" {
				return "", nil
			}
			return f(a), nil
		}, Types: []any{new(func(string) string)}}
	}
	fns := []conditions.Function{
		pred2("glob", func(p, pattern string) bool { return paths.Match(pattern, p) }),
		{Name: "globAny", Fn: func(p ...any) (any, error) {
			s, ok := str(p[0])
			return ok && paths.MatchAny(stringList(p[1]), s), nil
		}, Types: []any{new(func(string, []any) bool)}},
		pred2("inside", paths.Inside),
		{Name: "resolve", Fn: func(p ...any) (any, error) {
			a, _ := str(p[0])
			cwd, _ := str(p[1])
			if a == "" {
				return "", nil
			}
			return paths.Resolve(a, cwd, ""), nil
		}, Types: []any{new(func(string, string) string)}},
		str1("expand", func(s string) string { return paths.Expand(s, "") }),
		str1("basename", paths.Base),
		str1("dirname", paths.Dir),
		str1("ext", paths.Ext),
		{Name: "commands", Fn: func(p ...any) (any, error) {
			s, _ := str(p[0])
			return toAny(shell.Commands(s)), nil
		}, Types: []any{new(func(string) []any)}},
		{Name: "hasCommand", Fn: func(p ...any) (any, error) {
			s, ok := str(p[0])
			if !ok {
				return false, nil
			}
			var names []string
			for _, n := range p[1:] {
				names = append(names, stringList(n)...)
			}
			return shell.HasCommand(s, names...), nil
		}},
		{Name: "permissionRule", Fn: func(p ...any) (any, error) {
			tool, _ := str(p[0])
			input, _ := p[1].(map[string]any)
			rule, _ := str(p[2])
			return PermissionRule(tool, input, rule), nil
		}},
		{Name: "hasSecret", Fn: func(p ...any) (any, error) {
			s, ok := str(p[0])
			return ok && secrets.Contains(s), nil
		}, Types: []any{new(func(string) bool)}},
	}
	for i := range fns {
		fns[i].Standard = true // a configuration cannot declare them
	}
	return fns
}
