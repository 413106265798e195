// Package jsregexp reaches the backtracking matcher inside goja's RegExp
// objects, which goja does not export, so that a caller can give each
// match a time limit.
//
// goja runs a JavaScript regular expression with Go's regexp package when
// the pattern allows it and with github.com/dlclark/regexp2 (a
// backtracking engine) when it does not (backreferences, lookaround), and
// also, created on first need, for any pattern matched from a lastIndex
// other than 0 or against a UTF-16 string. regexp2 stops a match after its
// Regexp's MatchTimeout and reports the timeout as an error, which goja
// drops: the match answers "no match". This package reads and replaces
// that Regexp, and nothing else, through reflection over goja's unexported
// fields. The layout it relies on is checked once, by Check, against goja's
// behaviour (TestLayout fails loudly when a goja upgrade changes it); every
// accessor refuses to work when the check failed.
package jsregexp

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sync"
	"unsafe"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"
)

var rxType = reflect.TypeOf((*regexp2.Regexp)(nil))

// layout is what reflection found, once.
type layout struct {
	selfOff     uintptr      // goja.Object.self (an interface)
	selfType    reflect.Type // its type: goja's objectImpl
	regexpObj   reflect.Type // *goja.regexpObject
	patternOff  uintptr      // regexpObject.pattern (*regexpPattern)
	standardOff uintptr      // regexpObject.standard
	srcOff      uintptr      // regexpPattern.src
	flagOff     [6]uintptr   // global, ignoreCase, multiline, dotAll, sticky, unicode
	re2Off      uintptr      // regexpPattern.regexpWrapper (pointer to a regexp.Regexp)
	wrapperOff  uintptr      // regexpPattern.regexp2Wrapper (pointer)
	wrapperType reflect.Type // regexp2Wrapper (the struct)
	rxOff       uintptr      // regexp2Wrapper.rx
	optionsOff  uintptr      // regexp2.Regexp.options
	iterObj     reflect.Type // *goja.regExpStringIterObject
	matcherOff  uintptr      // regExpStringIterObject.matcher
}

var (
	once   sync.Once
	lay    layout
	layErr error
)

// Check verifies, once, that goja's RegExp objects are laid out and behave
// as this package expects. The accessors do nothing useful until it
// returned nil.
func Check() error {
	once.Do(func() { lay, layErr = find() })
	return layErr
}

func field(t reflect.Type, name string, kind reflect.Kind) (reflect.StructField, error) {
	f, ok := t.FieldByName(name)
	if !ok || len(f.Index) != 1 || f.Type.Kind() != kind {
		return f, fmt.Errorf("jsregexp: goja's %s has no %s field %s", t, kind, name)
	}
	return f, nil
}

// selfOf returns the dynamic type and pointer of o's implementation.
func selfOf(o *goja.Object, l *layout) reflect.Value {
	return reflect.NewAt(l.selfType, unsafe.Add(unsafe.Pointer(o), l.selfOff)).Elem().Elem()
}

func find() (layout, error) {
	var l layout
	self, err := field(reflect.TypeOf(goja.Object{}), "self", reflect.Interface)
	if err != nil {
		return l, err
	}
	l.selfOff, l.selfType = self.Offset, self.Type
	rt := goja.New()
	sample, err := rt.RunString(`/(?=a)a/`)
	if err != nil {
		return l, err
	}
	impl := selfOf(sample.(*goja.Object), &l)
	if impl.Kind() != reflect.Pointer || impl.Type().Elem().Kind() != reflect.Struct {
		return l, errors.New("jsregexp: a goja RegExp is not a pointer to a struct")
	}
	l.regexpObj = impl.Type()
	pattern, err := field(impl.Type().Elem(), "pattern", reflect.Pointer)
	if err != nil {
		return l, err
	}
	l.patternOff = pattern.Offset
	standard, err := field(impl.Type().Elem(), "standard", reflect.Bool)
	if err != nil {
		return l, err
	}
	l.standardOff = standard.Offset
	pt := pattern.Type.Elem()
	src, err := field(pt, "src", reflect.String)
	if err != nil {
		return l, err
	}
	l.srcOff = src.Offset
	for i, name := range []string{"global", "ignoreCase", "multiline", "dotAll", "sticky", "unicode"} {
		f, err := field(pt, name, reflect.Bool)
		if err != nil {
			return l, err
		}
		l.flagOff[i] = f.Offset
	}
	re2, err := field(pt, "regexpWrapper", reflect.Pointer)
	if err != nil {
		return l, err
	}
	if !re2.Type.Elem().ConvertibleTo(reflect.TypeOf(regexp.Regexp{})) {
		return l, fmt.Errorf("jsregexp: goja's %s is not a regexp.Regexp", re2.Type.Elem())
	}
	l.re2Off = re2.Offset
	w, err := field(pt, "regexp2Wrapper", reflect.Pointer)
	if err != nil {
		return l, err
	}
	l.wrapperOff, l.wrapperType = w.Offset, w.Type.Elem()
	rx, err := field(l.wrapperType, "rx", reflect.Pointer)
	if err != nil || rx.Type != rxType {
		return l, fmt.Errorf("jsregexp: goja's %s has no rx field of type %s", l.wrapperType, rxType)
	}
	l.rxOff = rx.Offset
	opts, err := field(rxType.Elem(), "options", reflect.Int32)
	if err != nil || opts.Type != reflect.TypeOf(regexp2.RegexOptions(0)) {
		return l, errors.New("jsregexp: regexp2.Regexp has no options field")
	}
	l.optionsOff = opts.Offset
	iter, err := rt.RunString(`"a".matchAll(/a/g)`)
	if err != nil {
		return l, err
	}
	iterImpl := selfOf(iter.(*goja.Object), &l)
	if iterImpl.Kind() != reflect.Pointer || iterImpl.Type().Elem().Kind() != reflect.Struct {
		return l, errors.New("jsregexp: a goja RegExp string iterator is not a pointer to a struct")
	}
	l.iterObj = iterImpl.Type()
	matcher, err := field(iterImpl.Type().Elem(), "matcher", reflect.Pointer)
	if err != nil || matcher.Type != reflect.TypeOf((*goja.Object)(nil)) {
		return l, errors.New("jsregexp: goja's RegExp string iterator has no matcher object")
	}
	l.matcherOff = matcher.Offset
	return l, behaves(rt, &l)
}

// behaves checks the layout against what goja does: which patterns have a
// backtracker from the start, that goja creates one for a lastIndex past
// 0 with the options Options predicts, and that an iterator's matcher is
// the RegExp it matches with.
func behaves(rt *goja.Runtime, l *layout) error {
	get := func(src string) Pattern {
		v, err := rt.RunString(src)
		if err != nil {
			return Pattern{}
		}
		p, _ := of(v.(*goja.Object), l)
		return p
	}
	look := get(`/(?=a)a/im`)
	if look.p == nil || look.hasRE2(l) || look.backtracker(l) == nil || look.source(l) != "(?=a)a" || !look.flag(l, 1) || !look.flag(l, 2) || look.flag(l, 0) {
		return errors.New("jsregexp: goja's lookahead RegExp is not laid out as expected")
	}
	if got, want := optionsOf(look.backtracker(l), l), look.options(l); got != want {
		return fmt.Errorf("jsregexp: goja compiled /(?=a)a/im with options %#x, expected %#x", got, want)
	}
	if lin := get(`/a(b)c/i`); lin.p == nil || !lin.hasRE2(l) || !(*regexp.Regexp)(*(*unsafe.Pointer)(unsafe.Add(lin.p, l.re2Off))).MatchString("xABCx") {
		return errors.New("jsregexp: goja's Go regexp is not where expected")
	}
	v, err := rt.RunString(`const __re = /b(c)/gsu; __re.lastIndex = 1; __re.exec("abc"); __re`)
	if err != nil {
		return err
	}
	lazy, _ := of(v.(*goja.Object), l)
	if lazy.p == nil || !lazy.hasRE2(l) || lazy.backtracker(l) == nil || !lazy.flag(l, 0) || !lazy.flag(l, 3) || !lazy.flag(l, 5) {
		return errors.New("jsregexp: goja did not create a backtracker for a match from lastIndex 1")
	}
	if got, want := optionsOf(lazy.backtracker(l), l), lazy.options(l); got != want {
		return fmt.Errorf("jsregexp: goja compiled /b(c)/gsu with options %#x, expected %#x", got, want)
	}
	std, err := rt.RunString(`const __std = new RegExp("a"), __mod = new RegExp("a"); Object.defineProperty(__mod, "x", { value: 1 }); [__std, __mod]`)
	if err != nil {
		return err
	}
	if !standard(std.(*goja.Object).Get("0").(*goja.Object), l) || standard(std.(*goja.Object).Get("1").(*goja.Object), l) {
		return errors.New("jsregexp: goja's RegExp standard flag is not where expected")
	}
	it, err := rt.RunString(`const __it = "a".matchAll(__re); [__it, __it.next()]`)
	if err != nil {
		return err
	}
	m, ok := iteratorMatcher(it.(*goja.Object).Get("0").(*goja.Object), l)
	if mp, _ := of(m, l); !ok || mp.p == nil || mp.source(l) != "b(c)" {
		return errors.New("jsregexp: goja's RegExp string iterator is not laid out as expected")
	}
	return nil
}

// Standard reports whether goja takes its fast paths for the RegExp o
// (which then match o's pattern directly): o was not changed with
// Object.defineProperty, delete, setPrototypeOf or by setting exec or a
// symbol method, and its prototype is proto, RegExp.prototype, unchanged.
// It is false for anything but a RegExp.
func Standard(o, proto *goja.Object, protoImpl Impl) bool {
	if layErr != nil || lay.selfType == nil || o == nil {
		return false
	}
	return standard(o, &lay) && o.Prototype() == proto && protoImpl.Same(proto)
}

func standard(o *goja.Object, l *layout) bool {
	impl := selfOf(o, l)
	if !impl.IsValid() || impl.Type() != l.regexpObj || impl.IsNil() {
		return false
	}
	return *(*bool)(unsafe.Add(impl.UnsafePointer(), l.standardOff))
}

// Pattern is the compiled pattern of one goja RegExp (shared by RegExps
// that new RegExp(re) cloned from it, in the same runtime).
type Pattern struct{ p unsafe.Pointer }

// Of returns the pattern of o, false when o is not a RegExp.
func Of(o *goja.Object) (Pattern, bool) {
	if layErr != nil || lay.selfType == nil || o == nil {
		return Pattern{}, false
	}
	return of(o, &lay)
}

func of(o *goja.Object, l *layout) (Pattern, bool) {
	impl := selfOf(o, l)
	if !impl.IsValid() || impl.Type() != l.regexpObj || impl.IsNil() {
		return Pattern{}, false
	}
	p := *(*unsafe.Pointer)(unsafe.Add(impl.UnsafePointer(), l.patternOff))
	return Pattern{p}, p != nil
}

func (p Pattern) flag(l *layout, i int) bool { return *(*bool)(unsafe.Add(p.p, l.flagOff[i])) }
func (p Pattern) hasRE2(l *layout) bool {
	return *(*unsafe.Pointer)(unsafe.Add(p.p, l.re2Off)) != nil
}
func (p Pattern) source(l *layout) string { return *(*string)(unsafe.Add(p.p, l.srcOff)) }

func (p Pattern) wrapper(l *layout) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Add(p.p, l.wrapperOff))
}

func (p Pattern) backtracker(l *layout) *regexp2.Regexp {
	w := p.wrapper(l)
	if w == nil {
		return nil
	}
	return *(**regexp2.Regexp)(unsafe.Add(w, l.rxOff))
}

// options are the options goja compiles the pattern's backtracker with.
func (p Pattern) options(l *layout) regexp2.RegexOptions {
	o := regexp2.ECMAScript
	if p.flag(l, 2) {
		o |= regexp2.Multiline
	}
	if p.flag(l, 3) {
		o |= regexp2.Singleline
	}
	if p.flag(l, 1) {
		o |= regexp2.IgnoreCase
	}
	if p.flag(l, 5) {
		o |= regexp2.Unicode
	}
	return o
}

func optionsOf(rx *regexp2.Regexp, l *layout) regexp2.RegexOptions {
	return *(*regexp2.RegexOptions)(unsafe.Add(unsafe.Pointer(rx), l.optionsOff))
}

// Global and Sticky report the g and y flags.
func (p Pattern) Global() bool { return p.flag(&lay, 0) }

// Sticky reports the y flag.
func (p Pattern) Sticky() bool { return p.flag(&lay, 4) }

// Linear reports whether goja has a Go regexp for the pattern, which it
// uses for every match from index 0 of a RegExp without the g or y flag.
func (p Pattern) Linear() bool { return p.hasRE2(&lay) }

// Regexp returns the Go regexp goja matches the pattern with from index 0
// (nil when it has none, see Linear). goja compiles it once per pattern
// source and shares it between the RegExps made from it, in every runtime;
// a regexp.Regexp is immutable, so it is safe to match with anywhere.
func (p Pattern) Regexp() *regexp.Regexp {
	return (*regexp.Regexp)(*(*unsafe.Pointer)(unsafe.Add(p.p, lay.re2Off)))
}

// Backtracker returns the regexp2 Regexp goja matches the pattern with, nil
// while it has none (the pattern runs with Go's regexp until goja needs
// one).
func (p Pattern) Backtracker() *regexp2.Regexp { return p.backtracker(&lay) }

// Key identifies the backtracker the pattern needs: its source and
// options. Two patterns with one key can share a backtracker.
type Key struct {
	Source  string
	Options regexp2.RegexOptions
}

// Key returns the key of the pattern's backtracker, the one it has or the
// one goja would create.
func (p Pattern) Key() Key {
	if rx := p.Backtracker(); rx != nil {
		return Key{rx.String(), optionsOf(rx, &lay)}
	}
	return Key{p.source(&lay), p.options(&lay)}
}

// Compile compiles the backtracker for k, as goja would.
func Compile(k Key) (*regexp2.Regexp, error) {
	return regexp2.Compile(k.Source, k.Options)
}

// SetBacktracker makes rx the pattern's backtracker, in place of the one it
// has or before goja creates one; rx must have been compiled for p.Key().
// It must be called on the goroutine running the pattern's runtime.
func (p Pattern) SetBacktracker(rx *regexp2.Regexp) {
	w := p.wrapper(&lay)
	if w == nil {
		nw := reflect.New(lay.wrapperType)
		w = nw.UnsafePointer()
		*(**regexp2.Regexp)(unsafe.Add(w, lay.rxOff)) = rx
		*(*unsafe.Pointer)(unsafe.Add(p.p, lay.wrapperOff)) = w
		return
	}
	*(**regexp2.Regexp)(unsafe.Add(w, lay.rxOff)) = rx
}

// IteratorMatcher returns the RegExp a RegExp string iterator
// (String.prototype.matchAll) matches with, false for any other object.
func IteratorMatcher(o *goja.Object) (*goja.Object, bool) {
	if layErr != nil || lay.selfType == nil || o == nil {
		return nil, false
	}
	return iteratorMatcher(o, &lay)
}

func iteratorMatcher(o *goja.Object, l *layout) (*goja.Object, bool) {
	impl := selfOf(o, l)
	if !impl.IsValid() || impl.Type() != l.iterObj || impl.IsNil() {
		return nil, false
	}
	m := *(**goja.Object)(unsafe.Add(impl.UnsafePointer(), l.matcherOff))
	return m, m != nil
}

// Impl is an object's implementation, as goja keeps it.
type Impl struct{ v reflect.Value }

// ImplOf returns o's implementation. Replacing a guarded property of
// RegExp.prototype (exec) makes goja swap the prototype's implementation
// for a plain one, which turns its fast paths off for every RegExp;
// putting the saved one back with SetImpl turns them on again.
func ImplOf(o *goja.Object) Impl {
	if layErr != nil || lay.selfType == nil {
		return Impl{}
	}
	v := reflect.New(lay.selfType).Elem()
	v.Set(reflect.NewAt(lay.selfType, unsafe.Add(unsafe.Pointer(o), lay.selfOff)).Elem())
	return Impl{v}
}

// SetImpl gives o back an implementation saved with ImplOf.
func SetImpl(o *goja.Object, i Impl) {
	if !i.v.IsValid() || layErr != nil || lay.selfType == nil {
		return
	}
	reflect.NewAt(lay.selfType, unsafe.Add(unsafe.Pointer(o), lay.selfOff)).Elem().Set(i.v)
}

// Same reports whether o's implementation is i.
func (i Impl) Same(o *goja.Object) bool {
	if !i.v.IsValid() {
		return false
	}
	return reflect.NewAt(lay.selfType, unsafe.Add(unsafe.Pointer(o), lay.selfOff)).Elem().Equal(i.v)
}
