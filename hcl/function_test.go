package hcl_test

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/hcl"
)

// A function block declares a condition function: hooks calling it
// compile, the declaration is on the Config.
func TestFunctionBlock(t *testing.T) {
	cfg := hcl.ParseSource("hooks.hcl", []byte(`
function "isOnCall" {
  params      = ["string"]
  result      = "bool"
  description = "the user is on call"
}
function "score" {
  params = ["map", "list", "int", "float", "any"]
  result = "float"
}
function "tick" {
  result = "int"
}
hook "oncall" {
  event    = "PreToolUse"
  when     = "isOnCall(session_id) && score(tool_input, [1], 2, 2.5, nil) > 0.5 && tick() > 0"
  decision = "deny"
}
`), ".")
	if d := cfg.Diagnostics(); d.HasErrors() {
		t.Fatal(d)
	}
	var got []string
	for _, f := range cfg.Functions {
		got = append(got, f.String())
	}
	if s := strings.Join(got, "; "); s != "isOnCall(string) bool; score(map, list, int, float, any) float; tick() int" {
		t.Fatal(s)
	}
	if f := cfg.Functions[0]; f.Description != "the user is on call" || f.Range.Start.Line != 2 {
		t.Fatalf("%+v", f)
	}
}

// Mistakes in function blocks are diagnostics at their position, with
// their codes.
func TestFunctionBlockDiagnostics(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"unknown type", `function "f" {
  params = ["string", "str"]
  result = "bool"
}`, "hooks.hcl:2:23: error[HK1221]: Unknown type"},
		{"unknown result", `function "f" {
  result = "boolean"
}`, "hooks.hcl:2:12: error[HK1221]: Unknown type"},
		{"type not a string", `function "f" {
  params = [1]
  result = "bool"
}`, "hooks.hcl:2:13: error[HK1221]: Unknown type"},
		{"params not a list", `function "f" {
  params = "string"
  result = "bool"
}`, "hooks.hcl:2:12: error[HK1102]: Invalid list"},
		{"no result", `function "f" {
  params = []
}`, "error[HK1105]: Missing required argument"},
		{"duplicate", `function "f" {
  result = "bool"
}
function "f" {
  result = "int"
}`, "hooks.hcl:4:10: error[HK1222]: Duplicate function"},
		{"expr built-in", `function "upper" {
  params = ["string"]
  result = "string"
}`, "hooks.hcl:1:10: error[HK1223]: Function name taken"},
		{"standard", `function "glob" {
  params = ["string", "string"]
  result = "bool"
}`, "hooks.hcl:1:10: error[HK1223]: Function name taken"},
		{"not an identifier", `function "is-on-call" {
  result = "bool"
}`, "hooks.hcl:1:10: error[HK1223]: Function name taken"},
		{"unknown attribute", `function "f" {
  result = "bool"
  returns = "bool"
}`, "hooks.hcl:3:3: error[HK1202]: Unsupported argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			std := conditions.NewCompiler(conditions.WithFunctions(conditions.Function{Name: "glob", Standard: true,
				Fn: func(...any) (any, error) { return false, nil }, Types: []any{new(func(string, string) bool)}}))
			cfg := hcl.ParseSource("hooks.hcl", []byte(tc.src), ".", hcl.WithConditions(std))
			var b strings.Builder
			cfg.Diagnostics().Render(&b)
			if !strings.Contains(b.String(), tc.want) {
				t.Fatalf("want %q in\n%s", tc.want, b.String())
			}
		})
	}
}

// A compiler whose program registered the declared function with another
// signature makes the declaration an error naming both.
func TestFunctionBlockSignatureMismatch(t *testing.T) {
	c := conditions.NewCompiler(conditions.WithFunctions(conditions.Function{Name: "isOnCall",
		Fn: func(...any) (any, error) { return false, nil }, Types: []any{new(func(int) bool)}}))
	cfg := hcl.ParseSource("hooks.hcl", []byte(`function "isOnCall" {
  params = ["string"]
  result = "bool"
}`), ".", hcl.WithConditions(c))
	var b strings.Builder
	cfg.Diagnostics().Render(&b)
	for _, want := range []string{"hooks.hcl:1:1: error[HK1421]: Function signature mismatch", "declared as isOnCall(string) bool but this program registers it as isOnCall(int) bool"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("want %q in\n%s", want, b.String())
		}
	}
}
