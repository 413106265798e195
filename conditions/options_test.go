package conditions_test

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/conditions"
)

// TestMaxNodesBoundsTheCondition: a condition larger than the compiler's
// node bound is refused at compile time; the default bound admits it.
func TestMaxNodesBoundsTheCondition(t *testing.T) {
	src := strings.Repeat(`tool_name == "Bash" || `, 20) + `tool_name == "Bash"`
	if _, err := conditions.NewCompiler().Compile(src); err != nil {
		t.Fatalf("default bound: %v", err)
	}
	if _, err := conditions.NewCompiler(conditions.WithMaxNodes(10)).Compile(src); err == nil {
		t.Fatal("a 100-node condition compiled under a 10-node bound")
	}
	if _, err := conditions.NewCompiler(conditions.WithMaxNodes(10)).Compile(`tool_name == "Bash"`); err != nil {
		t.Fatalf("a small condition under a 10-node bound: %v", err)
	}
}
