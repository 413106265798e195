package conditions_test

import (
	"errors"
	"maps"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/stdlib"
)

// fuzzMaxCondition bounds the conditions FuzzConditions tries: real ones
// are a line or two, and the tree is capped at DefaultMaxNodes anyway.
const fuzzMaxCondition = 2 << 10

// fuzzPayloads are the payloads of the differential test plus values
// that only Go embedders (not JSON) produce: int64, large ints, NaN,
// typed slices.
func fuzzPayloads() []map[string]any {
	ps := make([]map[string]any, 0, len(corpusPayloads)+1)
	for _, p := range corpusPayloads {
		ps = append(ps, deepCopy(p).(map[string]any))
	}
	return append(ps, map[string]any{
		"tool_name": "", "n": int64(1 << 60), "f": math.NaN(), "i64": int64(3), "neg": math.Copysign(0, -1),
		"tool_input": map[string]any{"command": "ÄÖ\u00ff rm -rf /", "n": int64(-1)},
		"list":       []string{"a", "b"}, "nested": map[string]any{"deep": map[string]any{}},
		"flag": "true", "session_id": 7,
	})
}

var fuzzStates = []map[string]any{nil, {"count": 2, "flag": true}, {"count": "x", "missing": []any{nil}}}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = deepCopy(e)
		}
		return l
	}
	return v
}

// FuzzConditions compiles hostile condition source, with and without the
// stdlib helper functions, and evaluates it against fixed payloads on the
// closure fast path and on the expr virtual machine. Nothing panics; a
// compile error carries a 1-based position; both paths agree on the
// result and on whether there is an error (as TestFastPathAgreesWithVM
// checks for the corpus); evaluating twice gives the same answer; and no
// evaluation changes the payload or the state.
func FuzzConditions(f *testing.F) {
	for _, src := range corpusConditions {
		f.Add(src)
	}
	for _, src := range []string{
		"", " ", "(", `"unterminated`, "tool_name ==", `'\s'`, "`raw",
		`tool_input.command matches "("`,
		`tool_input.command matches "\\bgit\\s+push\\b"`,
		"tool_input.command matches `(?i)^RM\\s`",
		`f != f`, `f == f`, `f < 1 || f >= 1`, `n == 1152921504606846976`, `n > 1e18`, `i64 == 3`, `i64 in [3]`,
		`neg == 0`, `list[1] == "b"`, `list[-3] == nil`, `"a" in list`, `n in 1..3`, `tool_name in {"a": 1}`,
		`state.missing[0] == nil`, `state == nil`, `state.count in [2, "x"]`,
		`glob(tool_input.file_path, "**/*.env")`, `hasCommand(tool_input.command, "rm")`,
		`len(tool_input) > 2`, `tool_input.command | upper() contains "RM"`,
		`all(list, # != "x")`, `map(1..3, # * 2)[0] == 2`, `let x = n; x > 1`,
		`tool_name ?? "none" == "none"`, `missing?.a?.b == nil`, `nested.deep["value"] == "v"`,
		`true ? n : f`, `not not flag`, `!!(tool_name == "Bash")`, `1 / 0 == 1`, `n % 0 == 1`,
		`"a" + 1 == "a1"`, `tool_input.command[0:2] == "su"`, `tool_input.command endsWith ""`,
		`session_id startsWith nil`, `nil contains nil`, `nil matches "x"`, `[] == []`, `{} == {}`,
	} {
		f.Add(src)
	}
	plain := conditions.NewCompiler()
	helpers := conditions.NewCompiler(conditions.WithFunctions(stdlib.ConditionFunctions()...))

	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > fuzzMaxCondition {
			t.Skip()
		}
		for _, c := range []*conditions.Compiler{plain, helpers} {
			p, err := c.Compile(src)
			if err != nil {
				checkCompileError(t, src, err)
				continue
			}
			if p.Source() != src {
				t.Fatalf("Source() = %q, want %q", p.Source(), src)
			}
			differential(t, p)
		}
	})
}

func checkCompileError(t *testing.T, src string, err error) {
	t.Helper()
	var ce *conditions.Error
	if !errors.As(err, &ce) {
		t.Fatalf("compile error is %T, not *conditions.Error: %v", err, err)
	}
	if ce.Line < 1 || ce.Column < 1 || ce.Message == "" {
		t.Fatalf("compile error without a 1-based position or message: %+v", ce)
	}
	if lines := strings.Count(src, "\n") + 1; ce.Line > lines {
		t.Fatalf("compile error on line %d of a %d-line condition: %v", ce.Line, lines, ce)
	}
	if ce.Source != src {
		t.Fatalf("compile error for %q names source %q", src, ce.Source)
	}
}

func differential(t *testing.T, p *conditions.Program) {
	t.Helper()
	payloads := fuzzPayloads()
	want := fuzzPayloads()
	for i, pl := range payloads {
		for j, st := range fuzzStates {
			stBefore := deepCopy(st)
			var ev conditions.Evaluator
			got, gerr := ev.Eval(p, pl, st)
			vm, verr := ev.EvalVM(p, pl, st)
			if got != vm || (gerr == nil) != (verr == nil) {
				t.Fatalf("%q on payload %d state %d (fast path %v): Eval=(%v, %v) EvalVM=(%v, %v)",
					p.Source(), i, j, p.Fast(), got, gerr, vm, verr)
			}
			again, aerr := ev.Eval(p, pl, st)
			if again != got || (aerr == nil) != (gerr == nil) {
				t.Fatalf("%q on payload %d state %d: a second Eval gave (%v, %v), the first (%v, %v)",
					p.Source(), i, j, again, aerr, got, gerr)
			}
			if gerr != nil {
				var re *conditions.RuntimeError
				if !errors.As(gerr, &re) {
					t.Fatalf("%q: runtime error is %T, not *conditions.RuntimeError: %v", p.Source(), gerr, gerr)
				}
			}
			if st != nil && !reflect.DeepEqual(map[string]any(st), stBefore) {
				t.Fatalf("%q changed state %d: %v", p.Source(), j, st)
			}
		}
		if !equalPayload(pl, want[i]) {
			t.Fatalf("%q changed payload %d: %v", p.Source(), i, pl)
		}
	}
}

// equalPayload is reflect.DeepEqual, except that NaN equals NaN.
func equalPayload(a, b map[string]any) bool {
	a, b = maps.Clone(a), maps.Clone(b)
	for k, v := range a {
		if f, ok := v.(float64); ok && math.IsNaN(f) {
			if g, ok := b[k].(float64); !ok || !math.IsNaN(g) {
				return false
			}
			delete(a, k)
			delete(b, k)
		}
	}
	return reflect.DeepEqual(a, b)
}
