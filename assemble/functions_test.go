package assemble_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
)

const declaresIsOnCall = `
function "isOnCall" {
  params = ["string"]
  result = "bool"
}
hook "oncall" {
  event    = "PreToolUse"
  when     = "isOnCall(session_id)"
  decision = "deny"
}
`

// A program that registered a declared function with another signature
// does not load the configuration: the error names both signatures, at
// the function block.
func TestDeclaredFunctionIncompatibleSignature(t *testing.T) {
	fn := func(...any) (any, error) { return true, nil }
	for _, tc := range []struct {
		types []any
		want  string
	}{
		{[]any{new(func(int) bool)}, "isOnCall(int) bool"},
		{[]any{new(func(string, string) bool)}, "isOnCall(string, string) bool"},
		{[]any{new(func(string) string)}, "isOnCall(string) string"},
	} {
		eng, err := assemble.NewEngine(engine.WithConditionOptions(conditions.WithFunctions(conditions.Function{Name: "isOnCall", Fn: fn, Types: tc.types})))
		if err != nil {
			t.Fatal(err)
		}
		_, err = assemble.LoadSource("hooks.hcl", []byte(declaresIsOnCall), t.TempDir(), assemble.WithEngine(eng))
		var d *hcl.Diagnostics
		if !errors.As(err, &d) {
			t.Fatalf("%s: got %v", tc.want, err)
		}
		msg := err.Error()
		for _, want := range []string{"hooks.hcl:2:1", "Function signature mismatch", "declared as isOnCall(string) bool but this program registers it as " + tc.want} {
			if !strings.Contains(msg, want) {
				t.Errorf("want %q in %s", want, msg)
			}
		}
		if errs := d.Errors(); len(errs) != 1 || errs[0].Code != "HK1421" {
			t.Errorf("%+v", errs)
		}
	}
}

// A program that registered the function with a compatible signature, or
// untyped, loads the configuration; one that did not register it too (its
// hooks fail when they call it).
func TestDeclaredFunctionCompatible(t *testing.T) {
	fn := func(...any) (any, error) { return true, nil }
	for _, opts := range [][]engine.Option{
		{engine.WithConditionOptions(conditions.WithFunctions(conditions.Function{Name: "isOnCall", Fn: fn, Types: []any{new(func(string) bool)}}))},
		{engine.WithConditionOptions(conditions.WithFunctions(conditions.Function{Name: "isOnCall", Fn: fn, Types: []any{new(func(any) bool)}}))},
		{engine.WithConditionOptions(conditions.WithFunctions(conditions.Function{Name: "isOnCall", Fn: fn}))},
		nil,
	} {
		eng, err := assemble.NewEngine(opts...)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := assemble.LoadSource("hooks.hcl", []byte(declaresIsOnCall), t.TempDir(), assemble.WithEngine(eng))
		if err != nil {
			t.Fatal(err)
		}
		cfg.Close()
	}
}

// A Go-registered function without a declaration works as before, for
// programs that never meet the hookctl command.
func TestRegisteredFunctionWithoutDeclaration(t *testing.T) {
	eng, err := assemble.NewEngine(engine.WithConditionOptions(conditions.WithFunctions(conditions.Function{Name: "isOnCall",
		Fn: func(...any) (any, error) { return true, nil }})))
	if err != nil {
		t.Fatal(err)
	}
	src := declaresIsOnCall[strings.Index(declaresIsOnCall, "hook "):]
	cfg, err := assemble.LoadSource("hooks.hcl", []byte(src), t.TempDir(), assemble.WithEngine(eng))
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	if _, err := assemble.LoadSource("hooks.hcl", []byte(src), t.TempDir()); err == nil || !strings.Contains(err.Error(), "unknown function isOnCall") {
		t.Fatalf("without the program's function and without a declaration: %v", err)
	}
}

// An engine that supplies a declared function refuses a configuration
// assembled without it (no WithEngine): its hooks would fail at every call
// of a function the engine has.
func TestEngineRefusesConditionsCompiledWithoutItsFunctions(t *testing.T) {
	eng, err := assemble.NewEngine(engine.WithConditionOptions(conditions.WithFunctions(conditions.Function{Name: "isOnCall",
		Fn: func(...any) (any, error) { return true, nil }, Types: []any{new(func(string) bool)}})))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := assemble.LoadSource("hooks.hcl", []byte(declaresIsOnCall), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	err = eng.Load(cfg.Engine)
	if err == nil || !strings.Contains(err.Error(), "calls isOnCall, which this engine supplies, but the condition was compiled without it") {
		t.Fatalf("got %v", err)
	}
	// An engine without the function loads it: the hook fails when it
	// calls it.
	bare, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	if err := bare.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
}
