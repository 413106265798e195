package script

import (
	"reflect"
	"regexp"
	"regexp/syntax"
	"unsafe"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/internal/jsregexp"
	"github.com/hookctl/hookctl/internal/relit"
)

// Hook scripts test a handful of regular expressions against a command
// line or a path, and most of the time none of them matches.
// RegExp.prototype.test (wrapped for the deadline, regexp_deadline.go)
// answers such a test itself when it can give exactly the answer goja
// would: for a RegExp without the g or y flag that goja matches with Go's
// regexp (from index 0, lastIndex read but ignored), tested against a
// string. Then the strings every match must contain are worked out from
// the Go program goja compiled (the prefilter RE2 and ripgrep use, package
// relit): a string lacking one of them cannot match. An ASCII string that
// has them all is matched with that same Go program, without the match
// array goja would build and drop. Strings goja holds as UTF-16 that the
// literals do not rule out go to goja.
//
// Nothing here is shared between hooks but goja's compiled Go program,
// which is immutable: each evaluation of a regex literal is a new RegExp,
// as in JavaScript, and the plan belongs to the Go program, not to a
// RegExp, so a script changing its RegExp (lastIndex, own properties,
// compile, its prototype) changes only what its own RegExp matches.

// rePlan is the fast test of one compiled pattern: the literals every
// match contains (none: match directly).
type rePlan struct {
	lits []relit.Literal
	fold bool // a literal is case-folded
}

// planPending marks a pattern tested once: most patterns built per call
// (new RegExp(data)) are tested once, and planning them would cost more
// than it saves.
var planPending = &rePlan{}

// maxPlans bounds the plans a runtime keeps; past it, it starts over.
const maxPlans = 256

// planOf returns the plan of a Go program goja compiled.
func planOf(re *regexp.Regexp) *rePlan {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return &rePlan{}
	}
	p := &rePlan{lits: relit.Required(tree)}
	for _, l := range p.lits {
		p.fold = p.fold || l.Fold
	}
	return p
}

// test answers re.MatchString(s) as goja would answer test(s); decided is
// false when s is not ASCII and the literals could not rule a match out
// (goja then runs it on UTF-16). An ASCII literal is in the UTF-16 string
// exactly when it is in its UTF-8 form, so ruling out works on any string;
// case-folded literals rule out strings with no character that folds into
// ASCII (relit.FoldsLikeASCII: ASCII ones, and most others), and Unicode
// folding is otherwise the regex's business.
//
// kind says what s is made of; it is asked only when the answer is needed
// (case-folded literals, or a string the literals did not rule out).
func (p *rePlan) test(re *regexp.Regexp, s string, kind stringKind) (match, decided bool) {
	var k strKind
	if p.fold {
		k = kind.kindOf(s)
	}
	if relit.RulesOut(p.lits, s, p.fold && k.foldsLikeASCII) {
		return false, true
	}
	if !p.fold {
		k = kind.kindOf(s)
	}
	if !k.ascii {
		return false, false
	}
	return re.MatchString(s), true
}

// strKind is what a string is made of, for the prefilter: ASCII, or
// without a character that folds into ASCII (relit.FoldsLikeASCII). Each
// may be false of a string that is: goja then answers.
type strKind struct{ ascii, foldsLikeASCII bool }

// kindOf scans s.
func kindOf(s string) strKind {
	if relit.IsASCII(s) {
		return strKind{true, true}
	}
	return strKind{false, relit.FoldsLikeASCII(s)}
}

// stringKind says what a string is made of.
type stringKind interface{ kindOf(s string) strKind }

// scanKind scans the string every time.
type scanKind struct{}

func (scanKind) kindOf(s string) strKind { return kindOf(s) }

// utf16Kind is the kind of a string goja holds as UTF-16: not ASCII, so
// only whether it folds like ASCII is scanned.
type utf16Kind struct{}

func (utf16Kind) kindOf(s string) strKind { return strKind{false, relit.FoldsLikeASCII(s)} }

// kindMemo remembers, for the call in progress, what the big strings it
// was asked about are made of, so that a script testing one 10 MB string
// against many patterns scans it once, not once per test. A string is
// known by where its bytes are and its length: a Go string never changes,
// and the memo holds the string itself, so its memory cannot be freed and
// reused for another string while it is remembered. The memo belongs to
// one runtime and is emptied when each call ends (VM.end): nothing of one
// hook's strings is seen by another, nor kept alive past the call.
type kindMemo struct {
	s    [kindMemoSize]string
	kind [kindMemoSize]strKind
	next int
	// utf16 is the type of goja's UTF-16 strings (unknown: nil): their
	// String() is a new Go string each time, not worth remembering, and
	// never ASCII for the prefilter.
	utf16 reflect.Type
}

const (
	// kindMemoSize is how many strings the memo holds.
	kindMemoSize = 4
	// kindMemoMin is the length from which a string is remembered:
	// shorter ones are scanned faster than they are looked up.
	kindMemoMin = 256
)

func (m *kindMemo) kindOf(s string) strKind {
	if len(s) < kindMemoMin {
		return kindOf(s)
	}
	p := unsafe.StringData(s)
	for i := range m.s {
		if len(m.s[i]) == len(s) && unsafe.StringData(m.s[i]) == p {
			return m.kind[i]
		}
	}
	k := kindOf(s)
	m.s[m.next], m.kind[m.next] = s, k
	m.next = (m.next + 1) % kindMemoSize
	return k
}

// of returns what says the kind of the string value v.
func (m *kindMemo) of(v goja.Value) stringKind {
	if m.utf16 != nil && reflect.TypeOf(v) == m.utf16 {
		return utf16Kind{}
	}
	return m
}

// reset forgets every string.
func (m *kindMemo) reset() {
	t := m.utf16
	*m = kindMemo{utf16: t}
}

// planNow is the length of a string from which a pattern is planned the
// first time it is tested (not the second, planPending): planning costs
// microseconds, matching a big string with goja's regexp milliseconds.
const planNow = 4 << 10

// quickTest answers RegExp.prototype.test for re, whose pattern p goja
// matches with Go's regexp from index 0, when it can give exactly goja's
// answer with no script code run on the way: the argument is a string
// and lastIndex a number (goja converts it, running a valueOf). ok is
// false when goja must answer.
func (vm *VM) quickTest(re *goja.Object, p jsregexp.Pattern, c goja.FunctionCall) (answer goja.Value, ok bool) {
	if vm.pool.off&fastPrefilter != 0 || len(c.Arguments) == 0 || !goja.IsString(c.Arguments[0]) {
		return nil, false
	}
	if li := re.Get("lastIndex"); li == nil || !goja.IsNumber(li) {
		return nil, false
	}
	prog := p.Regexp()
	if prog == nil {
		return nil, false
	}
	arg := c.Arguments[0]
	s := arg.String()
	plan := vm.plans[prog]
	switch {
	case plan == nil && len(s) < planNow:
		if len(vm.plans) >= maxPlans {
			clear(vm.plans)
		}
		vm.plans[prog] = planPending
		return nil, false
	case plan == nil || plan == planPending:
		if plan == nil && len(vm.plans) >= maxPlans {
			clear(vm.plans)
		}
		plan = planOf(prog)
		vm.plans[prog] = plan
	}
	match, decided := plan.test(prog, s, vm.strs16.of(arg))
	if !decided {
		return nil, false
	}
	return vm.answers[boolIndex(match)], true
}

// testHelper is the function that makes, when a rewritten program is
// loaded, the test functions `/re/.test(s)` was rewritten into (package
// internal/jsrewrite): __hookctl_test(re) returns a function of s that
// answers re.test(s). re is a RegExp of the program's own, made by the
// factory from the literal and seen by nothing else; without the g or y
// flag its lastIndex stays 0. The function answers from the prefilter
// when it can, as quickTest does, and otherwise calls
// RegExp.prototype.test, deadline and all. Like resultHelper it is only a
// parameter of the factory.
const testHelper = "__hookctl_test"

// installTestHelper makes the test helper of vm's runtime.
func (vm *VM) installTestHelper() {
	rt := vm.rt
	vm.testFn = rt.ToValue(func(c goja.FunctionCall) goja.Value {
		re, ok := c.Argument(0).(*goja.Object)
		p, isRegExp := jsregexp.Of(re)
		if !ok || !isRegExp || p.Global() || p.Sticky() || vm.regexpTest == nil {
			panic(rt.NewTypeError("hookctl: not a regular expression literal"))
		}
		var prog *regexp.Regexp
		var plan *rePlan
		if p.Linear() && vm.pool.off&fastPrefilter == 0 {
			prog = p.Regexp()
			plan = planOf(prog)
		}
		test := vm.regexpTest
		fn := rt.ToValue(func(c goja.FunctionCall) goja.Value {
			if prog != nil && len(c.Arguments) > 0 && goja.IsString(c.Arguments[0]) {
				arg := c.Arguments[0]
				if match, decided := plan.test(prog, arg.String(), vm.strs16.of(arg)); decided {
					return vm.answers[boolIndex(match)]
				}
			}
			v, err := test(re, c.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		})
		// Frozen, as the helpers are: the function is the program's for
		// the life of the runtime, so a property a call left on it would
		// be there for the next call, another session's.
		vm.freezeFunc(fn)
		return fn
	})
}

// freezeFunc freezes a function object made for scripts and its prototype
// property, if it has one.
func (vm *VM) freezeFunc(fn goja.Value) {
	o, ok := fn.(*goja.Object)
	if !ok || vm.freeze == nil {
		return
	}
	if p, ok := o.Get("prototype").(*goja.Object); ok {
		_, _ = vm.freeze(goja.Undefined(), p)
	}
	_, _ = vm.freeze(goja.Undefined(), o)
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// guardCompile wraps RegExp.prototype.compile so that it throws before it
// changes anything when the RegExp's lastIndex is read-only (a frozen
// RegExp): goja, as the specification's steps do, would replace the
// pattern first and throw only when it resets lastIndex, leaving a frozen
// RegExp matching something else.
func (vm *VM) guardCompile() error {
	rt := vm.rt
	proto := rt.Get("RegExp").ToObject(rt).Get("prototype").ToObject(rt)
	orig, ok := goja.AssertFunction(proto.Get("compile"))
	if !ok {
		return errNoRegexpMethod("compile")
	}
	gopd, ok := goja.AssertFunction(rt.Get("Object").ToObject(rt).Get("getOwnPropertyDescriptor"))
	if !ok {
		return errNoRegexpMethod("compile")
	}
	lastIndex := rt.ToValue("lastIndex")
	f := rt.ToValue(func(c goja.FunctionCall) goja.Value {
		if o, isObj := c.This.(*goja.Object); isObj {
			if _, isRegExp := jsregexp.Of(o); isRegExp {
				d, err := gopd(goja.Undefined(), o, lastIndex)
				if err != nil {
					panic(err)
				}
				if do, ok := d.(*goja.Object); ok && !do.Get("writable").ToBoolean() {
					panic(rt.NewTypeError("Cannot assign to read only property 'lastIndex' of a RegExp: it cannot be recompiled"))
				}
			}
		}
		v, err := orig(c.This, c.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}).ToObject(rt)
	_ = f.DefineDataProperty("name", rt.ToValue("compile"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = f.DefineDataProperty("length", rt.ToValue(2), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return proto.DefineDataProperty("compile", f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}
