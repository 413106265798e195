package script

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsregexp"
)

var prefilterSeeds = []struct{ pattern, flags, input string }{
	{`^rm\s+-rf\s+/`, "", "rm -rf /"},
	{`^rm\s+-rf\s+/`, "", "rm -r build/cache"},
	{`\bsudo\b`, "", "sudo ls"},
	{`\bsudo\b`, "", "pseudocode"},
	{`curl[^|]*\|\s*(ba)?sh`, "", "curl https://x | bash"},
	{`SUDO`, "i", "sudo"},
	{`k`, "i", "\u212a"},
	{`s+x`, "i", "\u017fx"},
	{`(?:abc)+d`, "", "abcabcd"},
	{`a{2,}b`, "", "aab"},
	{`^\.env$`, "m", "x\n.env\ny"},
	{`a.b`, "s", "a\nb"},
	{`(foo|bar)baz`, "", "barbaz"},
	{`caf\u00e9`, "", "café"},
	{`x`, "", "é x"},
	{`x\d`, "", "é x1"},
	{`\.pem$`, "", "id.pem"},
	{`[`, "", "["},
	{`(a)\1`, "", "aa"},
}

// jsTest is RegExp.prototype.test as goja runs it, in a runtime of its
// own, and the Go program goja compiled the pattern into (nil when it has
// none).
func jsTest(t testing.TB, rt *goja.Runtime, pattern, flags, input string) (bool, *regexp.Regexp, bool) {
	t.Helper()
	if err := jsregexp.Check(); err != nil {
		t.Fatal(err)
	}
	rt.Set("p", pattern)
	rt.Set("f", flags)
	rt.Set("s", input)
	v, err := rt.RunString(`(function () { try { const re = new RegExp(p, f); return [re.test(s), re]; } catch (e) { return null; } })()`)
	if err != nil {
		t.Fatal(err)
	}
	if goja.IsNull(v) {
		return false, nil, false
	}
	arr := v.(*goja.Object)
	var prog *regexp.Regexp
	if pat, ok := jsregexp.Of(arr.Get("1").(*goja.Object)); ok && pat.Linear() && !pat.Global() && !pat.Sticky() {
		prog = pat.Regexp()
	}
	return arr.Get("0").ToBoolean(), prog, true
}

func checkPrefilter(t *testing.T, rt *goja.Runtime, pattern, flags, input string) {
	want, prog, ok := jsTest(t, rt, pattern, flags, input)
	if !ok || prog == nil {
		return
	}
	if got, decided := planOf(prog).test(prog, input, scanKind{}); decided && got != want {
		t.Fatalf("/%s/%s.test(%q): prefilter says %v, goja %v", pattern, flags, input, got, want)
	}
}

func TestPrefilterAgreesWithGoja(t *testing.T) {
	rt := goja.New()
	for _, s := range prefilterSeeds {
		checkPrefilter(t, rt, s.pattern, s.flags, s.input)
	}
	_, prog, _ := jsTest(t, rt, `^rm\s+-rf\s+/`, "", "")
	lits := planOf(prog).lits
	if len(lits) != 3 || lits[0].S != "rm" || lits[1].S != "-rf" || lits[2].S != "/" {
		t.Fatalf("literals %+v", lits)
	}
}

func FuzzRegexpPrefilter(f *testing.F) {
	for _, s := range prefilterSeeds {
		f.Add(s.pattern, s.flags, s.input)
	}
	rt := goja.New()
	f.Fuzz(func(t *testing.T, pattern, flags, input string) {
		if len(pattern) > 64 || len(input) > 256 {
			return
		}
		checkPrefilter(t, rt, pattern, flags, input)
	})
}

// TestQuickTestMatchesGoja runs the same tests, of literals and of built
// RegExps, with hostile lastIndex values and arguments, with the prefilter
// and without, and wants the same answers.
func TestQuickTestMatchesGoja(t *testing.T) {
	inputs := []string{"rm -rf /", "sudo ls", "pseudo", "curl x | sh", "SUDO", "\u212a", "café", "é sudo", "", "a\nb"}
	var body strings.Builder
	body.WriteString("const inputs = event.inputs; const out = [];\n")
	rt := goja.New()
	for _, s := range prefilterSeeds {
		if _, _, ok := jsTest(t, rt, s.pattern, s.flags, ""); !ok {
			continue
		}
		fmt.Fprintf(&body, "try { for (const s of inputs.concat([%q])) { for (let k = 0; k < 3; k++) { out.push(/%s/%s.test(s), new RegExp(%q, %q).test(s)); } } } catch (e) { out.push(String(e)); }\n",
			s.input, strings.ReplaceAll(s.pattern, "/", `\/`), s.flags, s.pattern, s.flags)
	}
	body.WriteString(`const re = /sudo/; const other = /zzz/; out.push(re.test.call(other, 'zzz'), re.test(12), re.test(), re.test({ toString() { return "sudo"; } }));
		let n = 0; re.lastIndex = { valueOf() { n++; return 0; } }; out.push(re.test("sudo"), n);
		try { re.lastIndex = Symbol(); re.test("sudo"); out.push("no throw"); } catch (e) { out.push(e.name); }
		re.lastIndex = 5; out.push(re.test("sudo"), re.lastIndex);
		return { out: out.map(String).join('|'), own: Object.keys(re).length };`)
	anyInputs := make([]any, len(inputs))
	for i, s := range inputs {
		anyInputs[i] = s
	}
	var results []engine.Result
	for _, off := range []fastPath{0, fastPrefilter} {
		p, err := NewPool(t.TempDir(), withoutFastPaths(off))
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		prog, err := p.CompileInline("hooks.hcl", body.String(), 1)
		if err != nil {
			t.Fatal(err)
		}
		call := &engine.Call{Event: "PreToolUse", Hook: "h", Payload: map[string]any{"inputs": anyInputs}, State: engine.NewState(nil), Timeout: 5 * time.Second}
		res, err := p.Handler(prog).Handle(t.Context(), call)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	if results[0]["out"] != results[1]["out"] || results[0]["own"] != results[1]["own"] {
		t.Fatalf("with the prefilter:\n%v\nwithout:\n%v", results[0], results[1])
	}
	if !strings.HasSuffix(results[0]["out"].(string), "|true|1|TypeError|true|5") {
		t.Fatalf("%v", results[0])
	}
}
