package jsregexp

import (
	"testing"
	"time"

	"github.com/dop251/goja"
)

// TestLayout fails when a goja upgrade changes what this package reads:
// the check itself, then what goja does with a backtracker set from here.
func TestLayout(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatalf("goja's RegExp layout changed: %v", err)
	}
	rt := goja.New()
	v, err := rt.RunString(`/^(a+)+\1?$/`)
	if err != nil {
		t.Fatal(err)
	}
	re := v.(*goja.Object)
	p, ok := Of(re)
	if !ok || p.Backtracker() == nil || p.Global() || p.Sticky() || p.Linear() {
		t.Fatalf("Of: %v %v", ok, p)
	}
	// Every evaluation of a literal is a new RegExp with the same Go
	// program.
	pair, err := rt.RunString(`function f() { return /\bsudo\b/i; } [f(), f()]`)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Of(pair.(*goja.Object).Get("0").(*goja.Object))
	b, _ := Of(pair.(*goja.Object).Get("1").(*goja.Object))
	if a.p == b.p || a.Regexp() == nil || a.Regexp() != b.Regexp() || !a.Regexp().MatchString("x SUDO y") {
		t.Fatalf("Regexp: %p %p", a.Regexp(), b.Regexp())
	}
	if _, ok := Of(rt.NewObject()); ok {
		t.Fatal("Of of a plain object")
	}
	// A backtracker set here is the one goja matches with.
	rx, err := Compile(p.Key())
	if err != nil {
		t.Fatal(err)
	}
	rx.MatchTimeout = 50 * time.Millisecond
	p.SetBacktracker(rx)
	if p.Backtracker() != rx {
		t.Fatal("SetBacktracker")
	}
	start := time.Now()
	test, _ := goja.AssertFunction(re.Get("test"))
	m, err := test(re, rt.ToValue("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"))
	if err != nil || m.ToBoolean() {
		t.Fatalf("%v %v", m, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the match ran %s with a 50ms limit: goja did not use the backtracker set", d)
	}
	// A pattern without one gets one before goja would make its own.
	v, _ = rt.RunString(`/b(c)/g`)
	q, _ := Of(v.(*goja.Object))
	if q.Backtracker() != nil || !q.Global() || !q.Linear() {
		t.Fatal("an RE2 pattern has a backtracker")
	}
	rx2, err := Compile(q.Key())
	if err != nil {
		t.Fatal(err)
	}
	q.SetBacktracker(rx2)
	rt.Set("re", v)
	if r, err := rt.RunString(`re.lastIndex = 1; const m = re.exec("abcbc"); m[1] + m.index + re.lastIndex`); err != nil || r.String() != "c13" {
		t.Fatalf("%v %v", r, err)
	}
	if q.Backtracker() != rx2 {
		t.Fatal("goja replaced the backtracker")
	}
	// The iterator of matchAll.
	it, _ := rt.RunString(`"abc".matchAll(re)`)
	if m, ok := IteratorMatcher(it.(*goja.Object)); !ok || m == nil {
		t.Fatal("IteratorMatcher")
	}
}

// TestImplRestore: replacing exec on RegExp.prototype swaps the
// prototype's implementation; SetImpl puts the saved one back.
func TestImplRestore(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	proto := rt.Get("RegExp").ToObject(rt).Get("prototype").ToObject(rt)
	saved := ImplOf(proto)
	if !saved.Same(proto) {
		t.Fatal("Same")
	}
	exec := proto.Get("exec")
	if err := proto.Set("exec", exec); err != nil {
		t.Fatal(err)
	}
	if saved.Same(proto) {
		t.Skip("goja no longer swaps the prototype's implementation when exec is set")
	}
	SetImpl(proto, saved)
	if !saved.Same(proto) {
		t.Fatal("SetImpl")
	}
	if r, err := rt.RunString(`"a,b".split(/,/).join("|") + "a1b2".replace(/\d/g, "") `); err != nil || r.String() != "a|bab" {
		t.Fatalf("%v %v", r, err)
	}
}
