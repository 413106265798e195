package script_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
)

// evil is an input on which the catastrophic patterns below backtrack for
// minutes: 28 a's and a character that makes every attempt fail.
const evil = "aaaaaaaaaaaaaaaaaaaaaaaaaaaa!"

// catastrophic reaches regexp2's backtracking through every way a script
// can run a regular expression.
var catastrophic = map[string]string{
	"backreference literal test":  `return { m: /^(a+)+\1?$/.test(s) };`,
	"lookahead literal test":      `return { m: /^(?=(a+)+$)/.test(s) };`,
	"new RegExp exec":             `return { m: new RegExp("^(a+)+\\1?$").exec(s) };`,
	"RegExp() call":               `return { m: RegExp("^(?=(a+)+$)", "i").test(s) };`,
	"String match with a string":  `return { m: s.match("^(a+)+\\1?$") };`,
	"String search with a string": `return { m: s.search("^(?=(a+)+$)") };`,
	"String matchAll":             `return { m: [...s.matchAll(/(a+)+\1?$/g)].length };`,
	"String matchAll of a string": `return { m: [...s.matchAll("(a+)+\\1?$")].length };`,
	"String replace":              `return { m: s.replace(/^(a+)+\1?$/, "x") };`,
	"String replaceAll":           `return { m: s.replaceAll(/(a+)+\1?$/g, "x") };`,
	"String split":                `return { m: s.split(/(a+)+\1?$/) };`,
	"global from lastIndex":       `const re = /(a+)+$/g; re.lastIndex = 1; return { m: re.exec(s) };`,
	"sticky from lastIndex":       `const re = /(a+)+$/y; re.lastIndex = 1; return { m: re.test(s) };`,
	"RE2 pattern on UTF-16":       `return { m: ("é" + s).replace(/(a+)+$/g, "x") };`,
	"RE2 pattern split on UTF-16": `return { m: ("é" + s).split(/(a+)+$/) };`,
	"hoisted literal in a loop":   `let n = 0; for (let i = 0; i < 3; i++) if (/^(a+)+\1?$/.test(s)) n++; return { m: n };`,
	"subclass species split":      `class R extends RegExp {}; return { m: s.split(new R("(a+)+\\1?$")) };`,
	"own exec shadowed":           `const re = /(a+)+\1?$/g; return { m: [...s.matchAll(re)].length };`,
	"compile":                     `const re = new RegExp("x"); re.compile("^(a+)+\\1?$"); return { m: re.test(s) };`,
	"iterator with a null exec": `class N extends RegExp { constructor(p, f) { super(p, f); Object.defineProperty(this, "exec", { value: null }); } }
		return { m: [...s.matchAll(new N("(a+)+\\1?$", "g"))].length };`,
	"changed RegExp split":     `const re = new RegExp("(a+)+$"); Object.defineProperty(re, "x", { value: 1 }); return { m: ("é" + s).split(re) };`,
	"species returning RegExp": `class R extends RegExp { static get [Symbol.species]() { return RegExp; } }; return { m: ("é" + s).split(new R("(a+)+$")) };`,
	"frozen RegExp replace":    `const re = Object.freeze(new RegExp("(a+)+$", "g")); return { m: ("é" + s).replace(re, "") };`,
	"caught and retried":       `let n = 0; for (;;) { try { /^(a+)+\1?$/.test(s); n++; } catch (e) { n--; } } return { m: n };`,
}

// TestCatastrophicRegexpTimesOut: a 200 ms hook running a catastrophic
// pattern ends as a timeout well within a second of its deadline, never
// with an answer, and the pool serves the next call.
func TestCatastrophicRegexpTimesOut(t *testing.T) {
	p := newPool(t, script.WithSize(2))
	ok := inline(t, p, `return { m: /^(a+)+\1?$/.test("aaaa") && /(?<=a)b/.test("ab") };`)
	for name, body := range catastrophic {
		t.Run(name, func(t *testing.T) {
			h := inline(t, p, `const s = event.s;`+"\n"+body)
			c := call(map[string]any{"s": evil})
			c.Timeout = 200 * time.Millisecond
			c.Deadline = time.Now().Add(c.Timeout)
			start := time.Now()
			res, err := run(t, h, c)
			took := time.Since(start)
			if !errors.Is(err, script.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("got %v %v after %s, want a timeout", res, err, took)
			}
			if took > 2*time.Second {
				t.Fatalf("the hook timed out after %s (deadline 200ms)", took)
			}
			if res, err := run(t, ok, call(nil)); err != nil || res["m"] != true {
				t.Fatalf("the next call: %v %v", res, err)
			}
		})
	}
}

// TestCatastrophicRegexpBlocks: through the engine, a hook with
// on_error = "block" whose regular expression runs out of time blocks.
func TestCatastrophicRegexpBlocks(t *testing.T) {
	p := newPool(t)
	e, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	guard := inline(t, p, `if (!/^(a+)+\1?$/.test(event.tool_input.command)) return; return { decision: "allow" };`)
	if err := e.Register(engine.Hook{ID: "guard", Event: "PreToolUse", Timeout: 200 * time.Millisecond,
		OnError: engine.OnError{Policy: engine.ErrorBlock}, Handler: guard}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": evil}}})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("answered after %s", d)
	}
	tr, _ := out.Hook("guard")
	if out.Decision != "deny" || tr.Status != engine.StatusTimeout {
		t.Fatalf("decision %q, status %s: %+v", out.Decision, tr.Status, tr)
	}
}

// TestSlowRegexpIsNotCutShort: a match that backtracks for a while but
// ends before the deadline gives its real answer (a time limit shorter than
// the deadline would answer "no match").
func TestSlowRegexpIsNotCutShort(t *testing.T) {
	p := newPool(t)
	// Every start inside the run of a's fails after backtracking; the
	// match is the "ab" at the end.
	h := inline(t, p, `const t0 = Date.now(); const m = /(a+)+b(?!c)/.exec(event.s); return { m: m && m[0], ms: Date.now() - t0 };`)
	for n := 14; ; n += 2 {
		c := call(map[string]any{"s": strings.Repeat("a", n) + "!ab"})
		c.Timeout = 30 * time.Second
		c.Deadline = time.Now().Add(c.Timeout)
		res, err := run(t, h, c)
		if err != nil || res["m"] != "ab" {
			t.Fatalf("n=%d: %v %v", n, res, err)
		}
		if ms, _ := res["ms"].(int64); ms >= 400 || n >= 40 {
			t.Logf("n=%d: %d ms", n, ms)
			break
		}
	}
}

// TestRegexpsStillMatch: the wrapped methods give the answers goja gives,
// lookaround and backreferences included, global loops with lastIndex
// included.
func TestRegexpsStillMatch(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	for body, want := range map[string]any{
		`return { v: /^(a+)\1$/.test("aaaa") };`:                                           true,
		`return { v: /(?<=\$)\d+/.exec("cost $42")[0] };`:                                  "42",
		`return { v: /\b(\w+) \1\b/i.exec("say Hello hello now")[1] };`:                    "Hello",
		`return { v: "a1b22c333".match(/\d+/g).join(",") };`:                               "1,22,333",
		`return { v: "x-y_z".split(/[-_]/).join("|") };`:                                   "x|y|z",
		`return { v: "é-a-b".split(/-(?=b)/).join("|") };`:                                 "é-a|b",
		`return { v: "éaXaX".replace(/a(?=X)/g, "_") };`:                                   "é_X_X",
		`return { v: "aXbX".replaceAll(/X/g, (m) => m.toLowerCase()) };`:                   "axbx",
		`return { v: "find the needle".search(/ne+d/) };`:                                  9,
		`return { v: "find the needle".search("(?=needle)") };`:                            9,
		`return { v: [..."k1=v1 k2=v2".matchAll(/(\w+)=(\w+)/g)].map(m => m[2]).join() };`: "v1,v2",
		`const re = /(\w)\1/g; const out = []; let m; while ((m = re.exec("aabbcdd")) !== null) out.push(m[0] + re.lastIndex); return { v: out.join() };`: "aa2,bb4,dd7",
		`const re = /o/y; re.lastIndex = 1; return { v: [re.test("foo"), re.lastIndex, re.test("foo"), re.test("foo"), re.lastIndex].join() };`:           "true,2,true,false,0",
		`const re = /a/g; return { v: [re.test("aa"), re.test("aa"), re.test("aa")].join() };`:                                                            "true,true,false",
		`return { v: new RegExp(/(?=a)a/g).flags + new RegExp(/x/, "i").source + RegExp.prototype.exec.name + RegExp.prototype[Symbol.split].length };`:   "gxexec2",
		`class R extends RegExp {}; return { v: "a,b".split(new R(",")).length + (new R("x") instanceof RegExp ? 1 : 0) };`:                               int64(3),
		`const re = new RegExp("x"); re.compile("(?<=a)b", "g"); return { v: "abab".replace(re, "c") };`:                                                  "acac",
		`const re = Object.freeze(new RegExp("(?<=,)")); return { v: "é,a,b".split(re).join("|") };`:                                                      "é,|a,|b",
		`class R extends RegExp { static get [Symbol.species]() { return RegExp; } }; return { v: "é1a22b".split(new R("\\d+", "g")).join("|") };`:        "é|a|b",
	} {
		res, err := run(t, inline(t, p, body), call(nil))
		if err != nil || res["v"] != want {
			if n, isInt := want.(int); isInt && res["v"] == int64(n) {
				continue
			}
			t.Errorf("%s: %v %v, want %v", body, res, err, want)
		}
	}
}

// TestRegexpLiteralsAcrossRuntimes: a literal's backtracker is shared by
// every runtime running the program; the runtimes' time limits never touch
// it at once (go test -race checks).
func TestRegexpLiteralsAcrossRuntimes(t *testing.T) {
	p := newPool(t, script.WithSize(4))
	h := inline(t, p, `const g = /(\w)\1/g; let n = 0; while (g.exec(event.s)) n++; return { v: /^(?=.*(\w)\1)/.test(event.s), n, s: event.s.split(/(?<=,)/).length };`)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 10 {
				s := fmt.Sprintf("aa,bb,%c%c", 'c'+i, 'k'+j)
				res, err := run(t, h, call(map[string]any{"s": s}))
				if err != nil || res["v"] != true || res["n"] != int64(2) || res["s"] != int64(3) {
					t.Errorf("%v %v", res, err)
					return
				}
			}
		})
	}
	wg.Wait()
}
