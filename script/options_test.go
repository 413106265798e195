package script_test

import (
	"errors"
	"testing"

	"github.com/hookctl/hookctl/script"
)

// TestStackLimitIsTheOneGiven: recursion 300 deep runs under the default
// limit and overflows under WithStackLimit(100).
func TestStackLimitIsTheOneGiven(t *testing.T) {
	body := `function f(n) { return n === 0 ? 0 : f(n - 1) + 1; } return { depth: f(300) };`
	res, err := run(t, inline(t, newPool(t, script.WithSize(1)), body), call(nil))
	if err != nil || res["depth"] != int64(300) {
		t.Fatalf("default limit: %v %v", res, err)
	}
	_, err = run(t, inline(t, newPool(t, script.WithSize(1), script.WithStackLimit(100)), body), call(nil))
	if !errors.Is(err, script.ErrStackOverflow) {
		t.Fatalf("limit 100: %v", err)
	}
}
