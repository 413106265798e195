package script

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/hookctl/hookctl/internal/relit"
)

// Hook scripts test a handful of regular expressions against a command
// line or a path, and most of the time none of them matches. Hoisted
// literals (see internal/jsrewrite) get a literal prefilter, the technique RE2 and
// ripgrep use: the strings every match must contain are worked out once,
// at load, and test() answers false without running the regex when one of
// them is absent. When they are all present the same RE2 program goja
// would build runs directly. The answer is the one RegExp.prototype.test
// gives; strings goja holds as UTF-16 fall back to it.

// regexpHelper is the global, read-only, through which hoisted literals get
// their prefilter.
const regexpHelper = "__hookctl_regexp"

// rePlan is the fast test of one regex literal.
type rePlan struct {
	pattern, flags string // the literal's
	lits           []relit.Literal
	// re is the RE2 program goja compiles for the pattern, compiled the
	// first time a string gets past the literals: most never do.
	re func() *regexp.Regexp
}

// planRegexp returns the prefilter of /pattern/flags, or nil when there is
// none: flags other than i, m and s, a pattern goja runs with regexp2
// (backreferences, lookaround), non-ASCII patterns, or no required
// literal.
func planRegexp(pattern, flags string) *rePlan {
	if !relit.IsASCII(pattern) || strings.Trim(flags, "ims") != "" {
		return nil
	}
	var multiline, dotAll, ignoreCase bool
	for _, f := range flags {
		switch f {
		case 'm':
			if multiline {
				return nil
			}
			multiline = true
		case 's':
			if dotAll {
				return nil
			}
			dotAll = true
		case 'i':
			if ignoreCase {
				return nil
			}
			ignoreCase = true
		}
	}
	// As goja compiles it (builtin_regexp.go, compileRegexp).
	re2, err := parser.TransformRegExp(pattern, dotAll, false)
	if err != nil {
		return nil
	}
	mode := ""
	if multiline {
		mode += "m"
	}
	if dotAll {
		mode += "s"
	}
	if ignoreCase {
		mode += "i"
	}
	if mode != "" {
		re2 = "(?" + mode + ":" + re2 + ")"
	}
	tree, err := syntax.Parse(re2, syntax.Perl)
	if err != nil {
		return nil
	}
	if _, err := syntax.Compile(tree.Simplify()); err != nil {
		return nil // goja falls back to regexp2 for it
	}
	lits := relit.Required(tree)
	if len(lits) == 0 {
		return nil
	}
	return &rePlan{pattern: pattern, flags: flags, lits: lits, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(re2) })}
}

// test answers re.test(s); decided is false when s is not ASCII and the
// prefilter could not rule a match out (goja then runs it on UTF-16).
// An ASCII literal is in the UTF-16 string exactly when it is in its UTF-8
// form, so ruling out works on any string.
func (p *rePlan) test(s string) (match, decided bool) {
	ascii := relit.IsASCII(s)
	if relit.RulesOut(p.lits, s, ascii) {
		return false, true
	}
	if !ascii {
		return false, false
	}
	return p.re().MatchString(s), true
}

// installRegexpHelper defines the read-only global hoisted literals call:
// __hookctl_regexp(plan) returns the runtime's RegExp for the plan's
// pattern, with an own test method running the prefilter. All the hooks of
// a runtime that use one pattern share one object, so a pattern is
// compiled once per runtime however many hooks test it; the object is
// frozen, so no hook can change what another sees (a RegExp without the g
// or y flag never writes its lastIndex).
func (vm *VM) installRegexpHelper() {
	rt := vm.rt
	ctor, _ := goja.AssertConstructor(rt.Get("RegExp"))
	proto := rt.Get("RegExp").ToObject(rt).Get("prototype").ToObject(rt)
	orig, _ := goja.AssertFunction(proto.Get("test"))
	freeze, _ := goja.AssertFunction(rt.Get("Object").ToObject(rt).Get("freeze"))
	cache := map[int]*goja.Object{}
	answer := [2]goja.Value{rt.ToValue(false), rt.ToValue(true)}
	helper := func(c goja.FunctionCall) goja.Value {
		idx := int(c.Argument(0).ToInteger())
		if re, ok := cache[idx]; ok {
			return re
		}
		plan := vm.pool.code.plan(idx)
		if plan == nil || ctor == nil || orig == nil || freeze == nil {
			panic(rt.NewTypeError("hookctl: no regular expression %d", idx))
		}
		re, err := ctor(nil, rt.ToValue(plan.pattern), rt.ToValue(plan.flags))
		if err != nil {
			panic(err)
		}
		test := func(c goja.FunctionCall) goja.Value {
			if this, ok := c.This.(*goja.Object); ok && this == re && len(c.Arguments) > 0 && goja.IsString(c.Arguments[0]) {
				if match, decided := plan.test(c.Arguments[0].String()); decided {
					if match {
						return answer[1]
					}
					return answer[0]
				}
			}
			v, err := orig(c.This, c.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		}
		fn := rt.ToValue(test).ToObject(rt)
		_ = fn.DefineDataProperty("name", rt.ToValue("test"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = re.DefineDataProperty("test", fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		if _, err := freeze(goja.Undefined(), re); err != nil {
			panic(err)
		}
		_, _ = freeze(goja.Undefined(), fn)
		cache[idx] = re
		return re
	}
	_ = rt.GlobalObject().DefineDataProperty(regexpHelper, rt.ToValue(helper), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
}
