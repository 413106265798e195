package script

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
)

// TestUTF16TypeFound: the prefilter knows goja's UTF-16 strings by type,
// and only them.
func TestUTF16TypeFound(t *testing.T) {
	rt := goja.New()
	uni := utf16Type(rt)
	if uni == nil {
		t.Fatal("no UTF-16 string type found")
	}
	m := kindMemo{utf16: uni}
	for _, c := range []struct {
		js    string
		ascii bool
	}{{`"x".repeat(300)`, true}, {`"\u00e9".repeat(300)`, false}, {`"\u00e9x".slice(1).repeat(300)`, true}} {
		v, err := rt.RunString(c.js)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.of(v).kindOf(v.String()).ascii; got && !c.ascii {
			t.Errorf("%s: said ASCII", c.js)
		}
	}
	big := rt.ToValue(string(make([]byte, 1000)))
	if _, isMemo := m.of(big).(*kindMemo); !isMemo {
		t.Errorf("an imported Go string (%T) is taken for UTF-16", big)
	}
}

// genTestStrings are strings of every kind: ASCII, non-ASCII, mixed,
// with the characters that fold into ASCII (ſ, K), short and past the
// lengths from which the prefilter remembers a string's kind and plans a
// pattern on first use; made from a fixed seed.
func genTestStrings(n int) []string {
	rng := rand.New(rand.NewPCG(28, 3))
	alphabet := []string{"rm", " -rf ", "/", "sudo", "SUDO", "SuDo", "curl x", " | sh", "k", "K", "s", "\u212a", "\u017f", "é", "日本", "\U0001F600", "password = 'hunter22'", "AKIAABCDEFGHIJKLMNOP", "\n", "x"}
	out := make([]string, 0, n)
	for i := range n {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		if i%5 == 0 {
			// Big: the literals far from the start.
			pad := strings.Repeat("pad pad ", kindMemoMin+planNow/8)
			b.WriteString(pad)
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		out = append(out, b.String())
	}
	return out
}

// TestPrefilterMatchesGojaOnGeneratedStrings: with the prefilter (and its
// memo of each big string's kind) and without it, the same regexes give
// the same answers on generated strings, each tested by many patterns in
// turn and more than once, as literals and built with new RegExp.
func TestPrefilterMatchesGojaOnGeneratedStrings(t *testing.T) {
	pats := [][2]string{{`^rm\s+-rf\s+\/`, ""}, {`\bsudo\b`, ""}, {`sudo`, "i"}, {`k`, "i"}, {`s+x`, "i"}, {`password\s*=\s*'[^']{8,}'`, "i"},
		{`AKIA[0-9A-Z]{16}`, ""}, {`caf\u00e9`, ""}, {`curl[^|]*\|\s*(ba)?sh`, ""}, {`pad x`, ""}, {`PAD\s+K`, "i"}, {`.\u017f`, "i"}}
	var body strings.Builder
	body.WriteString("const out = [];\nfor (const s of event.inputs) {\n")
	for _, p := range pats {
		fmt.Fprintf(&body, "\tout.push(/%s/%s.test(s), new RegExp(%q, %q).test(s), /%s/%s.test(s));\n", p[0], p[1], p[0], p[1], p[0], p[1])
	}
	body.WriteString("}\nreturn { out: out.map(Number).join('') };")
	inputs := genTestStrings(300)
	anyInputs := make([]any, len(inputs))
	for i, s := range inputs {
		anyInputs[i] = s
	}
	var got []string
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
		for range 2 { // plans made on the first call are used on the second
			call := &engine.Call{Event: "PreToolUse", Hook: "h", Payload: map[string]any{"inputs": anyInputs}, State: engine.NewState(nil), Timeout: time.Minute}
			res, err := p.Handler(prog).Handle(t.Context(), call)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, res["out"].(string))
		}
	}
	if got[0] != got[2] || got[1] != got[3] {
		for i := range got[0] {
			if got[0][i] != got[2][i] {
				s := inputs[i/(3*len(pats))]
				t.Fatalf("/%s/: prefilter %c, goja %c on %q", pats[i/3%len(pats)][0], got[0][i], got[2][i], s[:min(len(s), 80)])
			}
		}
		t.Fatal("the answers differ on the second call")
	}
	if !strings.Contains(got[0], "1") {
		t.Fatal("nothing matched: the strings test nothing")
	}
}

// TestKindMemoEndsWithTheCall: the memo of string kinds is empty once a
// call ended, so no string of one hook's call is remembered (or kept
// alive) into the next call of the runtime, another hook's maybe.
func TestKindMemoEndsWithTheCall(t *testing.T) {
	p, err := NewPool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	prog, err := p.CompileInline("hooks.hcl", `return { m: /zzz/.test(event.s) || /zzz/i.test(event.s) };`, 1)
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("a", planNow*2)
	call := &engine.Call{Event: "PreToolUse", Hook: "h", Payload: map[string]any{"s": big}, State: engine.NewState(nil), Timeout: time.Minute}
	if _, err := p.Handler(prog).Handle(t.Context(), call); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, vm := range p.idle {
		for _, s := range vm.strs16.s {
			if s != "" {
				t.Fatalf("a runtime remembers a string of %d bytes after the call", len(s))
			}
		}
	}
	if len(p.idle) == 0 {
		t.Fatal("no idle runtime to look at")
	}
}
