package conditions_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/conditions"
)

// TestConditionsThatCannotWorkDoNotCompile: a call of a function nobody
// registered and a method call on a payload value compiled before and
// failed at every fire (a fail-open for a guard); now they are compile
// errors with the position. len(nil) written as such stays an error.
func TestConditionsThatCannotWorkDoNotCompile(t *testing.T) {
	for src, want := range map[string]struct {
		line, col int
		msg       string
	}{
		`fooBar(tool_name)`:                                                {1, 1, "unknown function fooBar"},
		`tool_name == "Bash" and isSafe(tool_input)`:                       {1, 25, "unknown function isSafe"},
		`tool_input.command.includes('rm')`:                                {1, 20, "includes(...) is a method call"},
		"tool_name == \"Bash\" and\n  tool_input.command.startsWith('rm')": {2, 22, "startsWith(...) is a method call"},
		`len(nil) > 0`: {1, 1, "invalid argument for len"},
	} {
		_, err := conditions.NewCompiler().Compile(src)
		var ce *conditions.Error
		if !errors.As(err, &ce) || ce.Line != want.line || ce.Column != want.col || !strings.Contains(ce.Message, want.msg) {
			t.Errorf("%q: %v (want %d:%d %q)", src, err, want.line, want.col, want.msg)
		}
	}
	// Registered functions and expr's own compile.
	c := conditions.NewCompiler(conditions.WithFunctions(conditions.Function{Name: "isSafe", Fn: func(...any) (any, error) { return true, nil }}))
	for _, src := range []string{`isSafe(tool_input)`, `lower(tool_name) == "bash"`, `all(tags, {# != ""})`, `len(tags) == 1`} {
		if _, err := c.Compile(src); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// TestMissingFieldsAreNilAtFireTime: len of a missing field is 0, never
// an error of the hook.
func TestMissingFieldsAreNilAtFireTime(t *testing.T) {
	var ev conditions.Evaluator
	for src, want := range map[string]bool{
		`len(tool_input.missing) == 0`:  true,
		`len(tool_input.command) == 2`:  true,
		`len(missing.deeper.still) > 0`: false,
		`len(tags) == 2`:                true,
	} {
		p, err := conditions.Compile(src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		got, err := ev.Eval(p, map[string]any{"tool_input": map[string]any{"command": "ls"}, "tags": []any{"a", "b"}}, nil)
		if err != nil || got != want {
			t.Errorf("%q = %v, %v; want %v", src, got, err, want)
		}
	}
}
