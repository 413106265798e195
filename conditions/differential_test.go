package conditions_test

import (
	"fmt"
	"testing"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/internal/fastpath"
)

// corpusConditions and corpusPayloads drive a differential test: the
// closure fast path must agree with the expr virtual machine on every
// result and on whether there is an error.
var corpusConditions = []string{
	`tool_name == "Bash"`,
	`tool_name != "Bash"`,
	`tool_name in ["Bash", "Shell"]`,
	`tool_name not in ["Bash", "Shell"]`,
	`n in [1, 2, 3]`,
	`tool_input.command matches "^rm "`,
	`tool_input.command matches "rm -rf"`,
	`tool_input.command matches "sh$"`,
	"tool_input.command matches `\\brm\\s+-rf\\b`",
	`tool_input.command matches "(?i)SUDO"`,
	`tool_input.command contains "sudo"`,
	`tool_input.command startsWith "rm"`,
	`tool_input.command endsWith "/"`,
	`n > 1`, `n >= 2`, `n < 3.5`, `n <= 2`, `f > 1`, `n == 2.0`, `f == 2`,
	`tool_name == "Bash" and n > 1`,
	`tool_name == "Bash" && (tool_input.command contains "sudo" || n < 0)`,
	`!(session_id startsWith "test-")`,
	`not flag`,
	`flag or tool_name == "x"`,
	`missing == nil`, `missing != nil`, `missing.a.b == nil`,
	`missing contains "x"`, `missing matches "x"`, `missing in ["a"]`,
	`list[0] == "a"`, `list[5] == nil`, `list[-1] == "c"`,
	`tool_input["command"] startsWith "rm"`,
	`state.count > 1`, `state.flag == true`, `state.missing == nil`,
	`tool_name`, `n`, `missing`, `flag`,
	`tool_name and true`, `n contains "x"`, `tool_name > 1`, `tool_name < "C"`,
	`n matches "x"`, `list contains "a"`, `"a" in list`, `tool_input.n.x == 1`,
	// Repeated field paths (read once per evaluation) and prefiltered
	// regexes.
	"tool_name in [\"Bash\",\"Shell\"] && (tool_input.command matches \"^rm \" || tool_input.command contains \"sudo\") && !(session_id startsWith \"test-\") && !(tool_input.command matches `^rm\\s+-rf\\s+/`)",
	`tool_input.n == 1 || tool_input.n == 2 || tool_input.n.x == 3`,
	`list[0] == "a" && list[0] != "b" && list[1] == list[1]`,
	`state.count > 1 || state.count == nil || state.count < 0`,
	`missing.a == nil && missing.a.b == nil && missing.a == nil`,
	"tool_input.command matches `curl[^|]*\\|\\s*(ba)?sh` || tool_input.command matches `(?i)\\bSUDO\\b`",
	`nested.deep.value == "v"`, `nested.deep.list[1] == 2`,
	// The whole environment is the payload (and state), not a field.
	`$env.tool_name == "Bash"`, `$env["tool_input"].command contains "sudo"`, `$env.state == nil`,
	// The regexp reads an invalid byte as U+FFFD.
	`tool_input.command matches "\uFFFD"`, `tool_input.command matches "^\uFFFD"`, `tool_input.command matches "x\uFFFD$"`,
}

var corpusPayloads = []map[string]any{
	{"tool_name": "Bash", "session_id": "s1", "n": 2, "f": 2.0, "flag": true,
		"tool_input": map[string]any{"command": "sudo rm -rf /", "n": 3},
		"list":       []any{"a", "b", "c"}, "nested": map[string]any{"deep": map[string]any{"value": "v", "list": []any{1, 2}}}},
	{"tool_name": "Write", "session_id": "test-1", "n": -1, "f": 0.5, "flag": false,
		"tool_input": map[string]any{"command": "ls /"}},
	{"tool_name": "Shell", "n": 2.5, "tool_input": map[string]any{"command": 42}, "list": []any{}},
	{"tool_name": nil, "tool_input": "not a map", "list": "x", "nested": []any{1}},
	{"tool_name": "Bash", "tool_input": map[string]any{"command": "\xff\xfe x\xff"}},
	{},
}

func TestFastPathAgreesWithVM(t *testing.T) {
	states := []map[string]any{nil, {"count": 2, "flag": true}, {"count": "x"}}
	fast := 0
	for _, src := range corpusConditions {
		p, err := conditions.Compile(src)
		if err != nil {
			continue // not a valid condition: nothing to compare
		}
		if p.Fast() {
			fast++
		}
		for i, pl := range corpusPayloads {
			for j, st := range states {
				var ev conditions.Evaluator
				got, gerr := ev.Eval(p, pl, st)
				want, werr := ev.EvalVM(p, pl, st)
				if got != want || (gerr == nil) != (werr == nil) {
					t.Errorf("%s on payload %d state %d: fast=(%v, %v) vm=(%v, %v)", src, i, j, got, gerr, want, werr)
				}
			}
		}
	}
	if fast < len(corpusConditions)/2 {
		t.Fatalf("only %d of %d conditions take the fast path", fast, len(corpusConditions))
	}
}

func ExampleProgram_Fast() {
	for _, src := range []string{`tool_name in ["Bash", "Shell"] and tool_input.command matches "^rm "`, `len(tool_input) > 2`} {
		p, _ := conditions.Compile(src)
		fmt.Println(p.Fast())
	}
	// Output:
	// true
	// false
}

// TestSwitchesAgree: every corpus condition gives the same result, and an
// error alike, with each of the conditions' fast paths off and all off, on
// compilers that share sub-conditions between the corpus' conditions, with
// one Evaluator per compiler remembering shared sub-conditions per payload.
func TestSwitchesAgree(t *testing.T) {
	sets := []fastpath.Set{0, fastpath.CondClosures, fastpath.CondFieldCache, fastpath.CondLiterals,
		fastpath.CondPrefilter, fastpath.CondSharedAtoms, fastpath.CondCompileCache, fastpath.All}
	states := []map[string]any{nil, {"count": 2, "flag": true}}
	type res struct {
		b   bool
		err bool
	}
	var want [][]res // per payload and state, in corpus order
	for si, off := range sets {
		c := conditions.NewCompiler(conditions.WithoutFastPaths(off))
		var progs []*conditions.Program
		for _, src := range corpusConditions {
			if p, err := c.Compile(src); err == nil {
				progs = append(progs, p)
			}
		}
		var ev conditions.Evaluator
		row := 0
		for i, pl := range corpusPayloads {
			for j, st := range states {
				ev.Within(pl, uint64(row+1))
				var got []res
				for _, p := range progs {
					b, err := ev.Eval(p, pl, st)
					got = append(got, res{b, err != nil})
				}
				if si == 0 {
					want = append(want, got)
				} else {
					for k := range got {
						if got[k] != want[row][k] {
							t.Errorf("%s on payload %d state %d, fast paths off %#x: %v, with them on %v", progs[k].Source(), i, j, off, got[k], want[row][k])
						}
					}
				}
				row++
			}
		}
	}
}
