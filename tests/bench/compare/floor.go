package main

import (
	"slices"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
)

// peerCondition is the condition of every hook of
// testdata/peers/declarative.hcl.
const peerCondition = `tool_name in ["Bash","Shell"] && (tool_input.command matches "^rm " || tool_input.command contains "sudo") && !(session_id startsWith "test-") && !(tool_input.command matches "^rm\\s+-rf\\s+/")`

// exprFloor is what the conditions of 10 hooks cost in expr-lang alone,
// per event: one expr.Run per hook (perHook), and one shared by all
// (shared). Declarative hooks cannot be cheaper than running their
// conditions.
type exprFloor struct{ perHook, shared time.Duration }

// measureExprFloor runs the peers' condition on payload n times per hook
// (ten programs compiled from it, as ten hooks have), and once per event.
func measureExprFloor(payload map[string]any, n int) (exprFloor, error) {
	n = max(n, 1000)
	progs := make([]*vm.Program, 10)
	for i := range progs {
		p, err := expr.Compile(peerCondition, expr.AsBool())
		if err != nil {
			return exprFloor{}, err
		}
		progs[i] = p
	}
	var out exprFloor
	start := time.Now()
	for range n {
		for _, p := range progs {
			if _, err := expr.Run(p, payload); err != nil {
				return exprFloor{}, err
			}
		}
	}
	out.perHook = time.Since(start) / time.Duration(n)
	start = time.Now()
	for range n {
		if _, err := expr.Run(progs[0], payload); err != nil {
			return exprFloor{}, err
		}
	}
	out.shared = time.Since(start) / time.Duration(n)
	return out, nil
}

// medianFloor is the median of the rounds' floors, each figure apart.
func medianFloor(fs []exprFloor) exprFloor {
	per, shared := make([]time.Duration, len(fs)), make([]time.Duration, len(fs))
	for i, f := range fs {
		per[i], shared[i] = f.perHook, f.shared
	}
	slices.Sort(per)
	slices.Sort(shared)
	return exprFloor{per[len(per)/2], shared[len(shared)/2]}
}
