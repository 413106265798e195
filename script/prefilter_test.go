package script

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
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

// jsTest is RegExp.prototype.test as goja runs it, on a regex that was not
// hoisted.
func jsTest(t testing.TB, rt *goja.Runtime, pattern, flags, input string) (bool, bool) {
	t.Helper()
	rt.Set("p", pattern)
	rt.Set("f", flags)
	rt.Set("s", input)
	v, err := rt.RunString(`(function () { try { return new RegExp(p, f).test(s); } catch (e) { return null; } })()`)
	if err != nil {
		t.Fatal(err)
	}
	if goja.IsNull(v) {
		return false, false
	}
	return v.ToBoolean(), true
}

func checkPrefilter(t *testing.T, rt *goja.Runtime, pattern, flags, input string) {
	plan := planRegexp(pattern, flags)
	if plan == nil {
		return
	}
	want, ok := jsTest(t, rt, pattern, flags, input)
	if !ok {
		t.Fatalf("/%s/%s has a plan but goja rejects it", pattern, flags)
	}
	if got, decided := plan.test(input); decided && got != want {
		t.Fatalf("/%s/%s.test(%q): prefilter says %v, goja %v", pattern, flags, input, got, want)
	}
}

func TestPrefilterAgreesWithGoja(t *testing.T) {
	rt := goja.New()
	for _, s := range prefilterSeeds {
		checkPrefilter(t, rt, s.pattern, s.flags, s.input)
	}
	if planRegexp(`\bsudo\b`, "") == nil || planRegexp(`(a)\1`, "") != nil || planRegexp(`a`, "g") != nil {
		t.Fatal("plans: want one for a plain literal, none for backreferences or g")
	}
	lits := planRegexp(`^rm\s+-rf\s+/`, "").lits
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

// TestHoistedTestMatchesPlainTest runs the same patterns hoisted (with
// the prefilter) and built with new RegExp (without) inside one runtime.
func TestHoistedTestMatchesPlainTest(t *testing.T) {
	p, err := NewPool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	inputs := []string{"rm -rf /", "sudo ls", "pseudo", "curl x | sh", "SUDO", "\u212a", "café", "é sudo", "", "a\nb"}
	var body strings.Builder
	body.WriteString("const inputs = event.inputs; const out = [];\n")
	for _, s := range prefilterSeeds {
		if planRegexp(s.pattern, s.flags) == nil {
			continue
		}
		fmt.Fprintf(&body, "for (const s of inputs.concat([%q])) { const a = /%s/%s.test(s), b = new RegExp(%q, %q).test(s); if (a !== b) out.push(%q + ' ' + s + ' ' + a); }\n",
			s.input, strings.ReplaceAll(s.pattern, "/", `\/`), s.flags, s.pattern, s.flags, s.pattern)
	}
	body.WriteString("const re = /sudo/; const other = /zzz/; out.push(String(re.test.call(other, 'zzz'))); out.push(String(re.test(12)));\n")
	body.WriteString("return { out: out.join('|'), own: Object.keys(re).length };")
	prog, err := p.CompileInline("hooks.hcl", body.String(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.code.plans) < 5 {
		t.Fatalf("%d literals got a prefilter", len(p.code.plans))
	}
	anyInputs := make([]any, len(inputs))
	for i, s := range inputs {
		anyInputs[i] = s
	}
	h := p.Handler(prog)
	call := &engine.Call{Event: "PreToolUse", Hook: "h", Payload: map[string]any{"inputs": anyInputs}, State: engine.NewState(nil), Timeout: time.Second}
	res, err := h.Handle(t.Context(), call)
	if err != nil {
		t.Fatal(err)
	}
	if res["out"] != "true|false" || res["own"] != int64(0) {
		t.Fatalf("%v", res)
	}
}
