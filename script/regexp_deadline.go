package script

import (
	"math"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/internal/jsregexp"
)

// Regular expressions stop at the hook's deadline.
//
// goja checks for an interrupt between JavaScript instructions, so the
// deadline timer cannot stop a match in progress; Go's regexp, which runs
// most patterns, is linear, but a pattern with a backreference or a
// lookaround, and any pattern matched from a lastIndex past 0 or on a
// UTF-16 string, runs in regexp2, which backtracks, and /^(a+)+\1?$/ on 29
// characters takes minutes. regexp2 stops a match after its Regexp's
// MatchTimeout, which it reads when the match starts; goja then answers
// "no match" (it drops regexp2's error).
//
// So every method through which a script can reach a match is wrapped,
// before lockdown: RegExp.prototype.exec, test, [Symbol.match],
// [Symbol.replace], [Symbol.search], [Symbol.split], and the next method of
// matchAll's iterators (String.prototype.match, matchAll, replace,
// replaceAll, search and split call these; goja's generic algorithms call
// exec). Before it calls the original, the wrapper gives the RegExp's
// pattern a backtracker of this runtime's own (internal/jsregexp reaches
// it), compiled here when the pattern has none yet or when its own may be
// shared with other runtimes (a literal's is shared by every runtime
// running the program), and sets its MatchTimeout to the time left until
// the call's deadline plus regexpSlack. Only this runtime's goroutine
// touches that backtracker, so there is no race. A match that gives up has
// therefore run past the deadline: the wrapper then interrupts the
// runtime at once (the next instruction throws), and a call that returns
// after its deadline is a timeout whatever it answered (see run). Once the
// deadline has passed, the wrappers answer at once without matching.
//
// [Symbol.split] of a RegExp goja would not match directly builds its
// splitter first (see splitter), since goja would build one and match it
// out of the wrappers' reach.
//
// Setting exec on the prototype makes goja turn off its fast paths for
// every RegExp (the prototype's implementation is swapped for a plain
// one); the saved implementation is put back, since the wrapper matches
// exactly as the original does.
//
// regexpSlack covers the coarse clock regexp2 measures time with.
const regexpSlack = 50 * time.Millisecond

// maxOwnRegexps bounds the backtrackers a runtime keeps (patterns built
// from data could otherwise grow it without end); past it, it starts over.
const maxOwnRegexps = 256

// regexpGuard is a runtime's backtrackers, by pattern.
type regexpGuard struct {
	byKey map[jsregexp.Key]*regexp2.Regexp
	own   map[*regexp2.Regexp]bool
}

// utf16Type is the type of goja's UTF-16 string values, or nil if a
// string built by script code is not of a type named so (a later goja).
func utf16Type(rt *goja.Runtime) reflect.Type {
	v, err := rt.RunString(`String.fromCharCode(233, 120)`)
	if err != nil {
		return nil
	}
	if t := reflect.TypeOf(v); t.Name() == "unicodeString" && t.Kind() == reflect.Slice {
		return t
	}
	return nil
}

// installRegexpDeadlines wraps the matching methods of RegExp.prototype
// and of matchAll's iterators.
func (vm *VM) installRegexpDeadlines() error {
	if err := jsregexp.Check(); err != nil {
		return err
	}
	rt := vm.rt
	vm.rx = regexpGuard{byKey: map[jsregexp.Key]*regexp2.Regexp{}, own: map[*regexp2.Regexp]bool{}}
	vm.plans = map[*regexp.Regexp]*rePlan{}
	vm.answers = [2]goja.Value{rt.ToValue(false), rt.ToValue(true)}
	vm.strs16 = kindMemo{utf16: utf16Type(rt)}
	proto := rt.Get("RegExp").ToObject(rt).Get("prototype").ToObject(rt)
	impl := jsregexp.ImplOf(proto)
	// wrap returns the guarded method; late is its answer once the
	// deadline has passed (the script never sees it: the runtime is
	// interrupted).
	// exec and test match a RegExp without the g or y flag from index 0,
	// with Go's regexp when goja has one for the pattern.
	wrap := func(get func() goja.Value, name string, length int, late goja.Value, matcher func(goja.Value) *goja.Object) (goja.Value, error) {
		orig, ok := get().Export().(func(goja.FunctionCall) goja.Value)
		if !ok {
			return nil, errNoRegexpMethod(name)
		}
		fromStart := name == "exec" || name == "test"
		test := name == "test"
		f := rt.ToValue(func(c goja.FunctionCall) goja.Value {
			if re := matcher(c.This); re != nil {
				if p, ok := jsregexp.Of(re); ok {
					if fromStart && p.Linear() && !p.Global() && !p.Sticky() {
						if test {
							if v, ok := vm.quickTest(re, p, c); ok {
								return v
							}
						}
						return orig(c)
					}
					if !vm.armRegexp(p) {
						return late
					}
					defer vm.regexpDone()
				}
			}
			return orig(c)
		}).ToObject(rt)
		_ = f.DefineDataProperty("name", rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = f.DefineDataProperty("length", rt.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		return f, nil
	}
	self := func(this goja.Value) *goja.Object {
		o, _ := this.(*goja.Object)
		return o
	}
	for _, m := range []struct {
		name   string
		length int
	}{{"exec", 1}, {"test", 1}} {
		late := goja.Null()
		if m.name == "test" {
			late = rt.ToValue(false)
		}
		f, err := wrap(func() goja.Value { return proto.Get(m.name) }, m.name, m.length, late, self)
		if err != nil {
			return err
		}
		if err := proto.DefineDataProperty(m.name, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			return err
		}
	}
	for _, m := range []struct {
		sym    *goja.Symbol
		name   string
		length int
	}{{goja.SymMatch, "[Symbol.match]", 1}, {goja.SymReplace, "[Symbol.replace]", 2}, {goja.SymSearch, "[Symbol.search]", 1}, {goja.SymSplit, "[Symbol.split]", 2}} {
		get := func() goja.Value { return proto.GetSymbol(m.sym) }
		if m.sym == goja.SymSplit {
			orig, ok := get().Export().(func(goja.FunctionCall) goja.Value)
			if !ok {
				return errNoRegexpMethod(m.name)
			}
			split := vm.splitter(proto, impl, orig)
			get = func() goja.Value { return rt.ToValue(split) }
		}
		f, err := wrap(get, m.name, m.length, goja.Null(), self)
		if err != nil {
			return err
		}
		if err := proto.DefineDataPropertySymbol(m.sym, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			return err
		}
	}
	if err := vm.guardCompile(); err != nil {
		return err
	}
	vm.regexpTest, _ = goja.AssertFunction(proto.Get("test"))
	vm.installTestHelper()
	jsregexp.SetImpl(proto, impl)
	// matchAll's iterators match with a RegExp of their own.
	it, err := rt.RunString(`Object.getPrototypeOf("".matchAll(/(?:)/g))`)
	if err != nil {
		return err
	}
	iterProto := it.ToObject(rt)
	done := rt.NewObject()
	_ = done.Set("done", true)
	next, err := wrap(func() goja.Value { return iterProto.Get("next") }, "next", 0, done, func(this goja.Value) *goja.Object {
		if o, ok := this.(*goja.Object); ok {
			if m, ok := jsregexp.IteratorMatcher(o); ok {
				return m
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := iterProto.DefineDataProperty("next", next, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}
	return nil
}

// splitter returns RegExp.prototype[Symbol.split] for a RegExp goja would
// not match directly. For such a RegExp, goja's split builds the splitter
// the specification asks for (new C(rx, flags + "y"), C the species
// constructor) and, when that one is an ordinary RegExp, matches its
// pattern directly, out of the wrappers' reach. So here the splitter is
// built first, as the specification says (the string converted first,
// then the species constructor, the flags, the construction, each once),
// armed, and split with: goja then matches it directly or, when it is no
// ordinary RegExp, through its exec. Only then, when the splitter is not
// an ordinary RegExp, does goja construct another one from it.
func (vm *VM) splitter(proto *goja.Object, protoImpl jsregexp.Impl, orig func(goja.FunctionCall) goja.Value) func(goja.FunctionCall) goja.Value {
	rt := vm.rt
	ctor := rt.Get("RegExp")
	return func(c goja.FunctionCall) goja.Value {
		rx, ok := c.This.(*goja.Object)
		if !ok || jsregexp.Standard(rx, proto, protoImpl) {
			return orig(c)
		}
		if _, isRegExp := jsregexp.Of(rx); !isRegExp {
			return orig(c)
		}
		s := c.Argument(0).ToString()
		C := ctor
		if k := rx.Get("constructor"); k != nil && !goja.IsUndefined(k) {
			ko, isObj := k.(*goja.Object)
			if !isObj {
				panic(rt.NewTypeError("object.constructor is not an object"))
			}
			if sp := ko.GetSymbol(goja.SymSpecies); sp != nil && !goja.IsUndefined(sp) && !goja.IsNull(sp) {
				C = sp
			}
		}
		construct, isCtor := goja.AssertConstructor(C)
		if !isCtor {
			panic(rt.NewTypeError("object.constructor[Symbol.species] is not a constructor"))
		}
		flags := rx.Get("flags")
		if flags == nil {
			flags = goja.Undefined()
		}
		f := flags.String()
		if !strings.Contains(f, "y") {
			f += "y"
		}
		sp, err := construct(nil, rx, rt.ToValue(f))
		if err != nil {
			panic(err)
		}
		if p, ok := jsregexp.Of(sp); ok && !vm.armRegexp(p) {
			return goja.Null()
		}
		return orig(goja.FunctionCall{This: sp, Arguments: append([]goja.Value{s}, c.Arguments[min(1, len(c.Arguments)):]...)})
	}
}

type errNoRegexpMethod string

func (e errNoRegexpMethod) Error() string {
	return "script: RegExp method " + string(e) + " is not a native function"
}

// armRegexp readies the pattern p for a match in the call in progress:
// its own backtracker, with the time left. It returns false when the
// deadline has passed: the runtime is interrupted and the match must not
// run.
func (vm *VM) armRegexp(p jsregexp.Pattern) bool {
	vm.matched = true
	timeout := time.Duration(math.MaxInt64) // no deadline: no limit
	if !vm.deadline.IsZero() {
		left := time.Until(vm.deadline)
		if left <= 0 {
			vm.interrupt(ErrTimeout)
			return false
		}
		timeout = left + regexpSlack
	}
	rx := p.Backtracker()
	if rx == nil || !vm.rx.own[rx] {
		key := p.Key()
		own := vm.rx.byKey[key]
		if own == nil {
			var err error
			if own, err = jsregexp.Compile(key); err != nil {
				return true // goja compiled it; it will report its own way
			}
			if len(vm.rx.own) >= maxOwnRegexps {
				clear(vm.rx.byKey)
				clear(vm.rx.own)
			}
			vm.rx.byKey[key], vm.rx.own[own] = own, true
		}
		p.SetBacktracker(own)
		rx = own
	}
	rx.MatchTimeout = timeout
	return true
}

// regexpDone interrupts the runtime when a match ended past the deadline,
// so that the script cannot act on an answer a timeout gave, even before
// the deadline timer's goroutine has run.
func (vm *VM) regexpDone() {
	if vm.expired() {
		vm.interrupt(ErrTimeout)
	}
}
