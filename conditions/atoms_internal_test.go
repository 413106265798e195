package conditions

import (
	"fmt"
	"testing"
)

// TestSharedAtomsEvaluateOnce: two conditions that share a sub-condition
// read its result from the Evaluator's memo for the same payload: poisoning
// the remembered result changes the second condition's answer, which shows
// it was read, not evaluated again. A new payload generation forgets it.
func TestSharedAtomsEvaluateOnce(t *testing.T) {
	c := NewCompiler()
	a, err := c.Compile(`tool_name == "Bash" && tool_input.command startsWith "rm"`)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Compile(`tool_name == "Bash" && !(session_id startsWith "test-")`)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Fast() || !b.Fast() {
		t.Fatal("the conditions are not on the fast path")
	}
	payload := map[string]any{"tool_name": "Bash", "session_id": "s1", "tool_input": map[string]any{"command": "rm -rf x"}}
	var e Evaluator
	e.Within(payload, 1)
	if ok, err := e.Eval(a, payload, nil); !ok || err != nil {
		t.Fatalf("a: %v %v", ok, err)
	}
	if e.sc.memoN != 1 || e.sc.memo[0].a.key != `tool_name == "Bash"` {
		t.Fatalf("remembered %d atoms (%v), want tool_name == \"Bash\"", e.sc.memoN, e.sc.memo[:e.sc.memoN])
	}
	e.sc.memo[0].b = false // poison
	if ok, _ := e.Eval(b, payload, nil); ok {
		t.Fatal("b evaluated the shared atom again instead of reading it")
	}
	e.Within(payload, 2) // the payload was rewritten
	if ok, _ := e.Eval(b, payload, nil); !ok {
		t.Fatal("b read a result remembered for an earlier payload")
	}
	// An Evaluator never told the payload remembers nothing.
	var plain Evaluator
	for range 2 {
		if ok, _ := plain.Eval(b, payload, nil); !ok || plain.sc.memoN != 0 {
			t.Fatalf("no Within: %v, %d remembered", ok, plain.sc.memoN)
		}
	}
	// Nor for a payload other than the one named.
	other := map[string]any{"tool_name": "Write"}
	e.Within(payload, 3)
	if ok, _ := e.Eval(a, payload, nil); !ok {
		t.Fatal("a")
	}
	if ok, _ := e.Eval(b, other, nil); ok {
		t.Fatal("b on another payload used the named payload's atom")
	}
}

// TestSharedAtomsAgree: over many payloads, conditions built from shared
// atoms give the same answers with the memo as one by one.
func TestSharedAtomsAgree(t *testing.T) {
	c := NewCompiler()
	atoms := []string{`tool_name == "Bash"`, `tool_input.command matches "^rm "`, `tool_input.command contains "sudo"`, `session_id startsWith "test-"`, `state.n > 1`, `tool_input.timeout > 100`}
	var progs []*Program
	for i := range atoms {
		for j := range atoms {
			if i == j {
				continue
			}
			for _, op := range []string{"&&", "||"} {
				p, err := c.Compile(fmt.Sprintf("%s %s !(%s)", atoms[i], op, atoms[j]))
				if err != nil {
					t.Fatal(err)
				}
				progs = append(progs, p)
			}
		}
	}
	var shared Evaluator
	gen := uint64(0)
	for _, name := range []any{"Bash", "Write", nil, 3} {
		for _, cmd := range []any{"rm -rf /", "sudo ls", "ls", nil, 7} {
			for _, sid := range []any{"test-1", "prod", nil} {
				for _, timeout := range []any{50, 500, "x", nil} {
					payload := map[string]any{"tool_name": name, "session_id": sid, "tool_input": map[string]any{"command": cmd, "timeout": timeout}}
					state := map[string]any{"n": 2}
					gen++
					shared.Within(payload, gen)
					for _, p := range progs {
						var fresh Evaluator
						want, werr := fresh.Eval(p, payload, state)
						got, gerr := shared.Eval(p, payload, state)
						if got != want || (werr == nil) != (gerr == nil) {
							t.Fatalf("%s on %v: shared %v %v, alone %v %v", p.Source(), payload, got, gerr, want, werr)
						}
					}
				}
			}
		}
	}
}
