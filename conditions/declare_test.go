package conditions_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/internal/fastpath"
)

var isOnCall = conditions.Declaration{Name: "isOnCall", Params: []conditions.Type{conditions.TypeString}, Result: conditions.TypeBool}

// A declared function is known to the compiler with its signature: calls
// compile, and a wrong arity or a literal of the wrong type is a compile
// error with its position.
func TestDeclareChecksCalls(t *testing.T) {
	c := conditions.NewCompiler()
	if _, err := c.Compile(`isOnCall(session_id)`); err == nil || !strings.Contains(err.Error(), "unknown function isOnCall") {
		t.Fatalf("undeclared: %v", err)
	}
	d := c.Declare(isOnCall)
	if _, err := d.Compile(`isOnCall(session_id) && tool_name == "Bash"`); err != nil {
		t.Fatalf("declared: %v", err)
	}
	for src, want := range map[string]string{
		`isOnCall(1)`:                         "1:10: cannot use int as argument (type string) to call isOnCall",
		`isOnCall(session_id, 2)`:             "too many arguments to call isOnCall",
		`isOnCall()`:                          "not enough arguments to call isOnCall",
		`tool_name == "x" && isOnCall(["a"])`: "cannot use []interface {} as argument (type string) to call isOnCall",
		`isOnCall("a") + 1`:                   "invalid operation: + (mismatched types bool and int)",
	} {
		_, err := d.Compile(src)
		var ce *conditions.Error
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", src, err, want)
		}
	}
	if _, err := c.Compile(`isOnCall(session_id)`); err == nil {
		t.Error("Declare changed the compiler it was called on")
	}
}

// A declared function the program did not register fails every call,
// with every fast path on or off, on the first evaluation and on the ones
// a memo could answer: never a silent false. Conditions that do not
// reach the call (short-circuit) keep their value.
func TestDeclaredButMissingNeverFalse(t *testing.T) {
	conds := []struct {
		src     string
		reaches func(p map[string]any) bool
	}{
		{`isOnCall(session_id)`, nil},
		{`!isOnCall(session_id)`, nil},
		{`not isOnCall(session_id)`, nil},
		{`isOnCall(session_id) == false`, nil},
		{`isOnCall(session_id) || tool_name == "Bash"`, nil},
		{`tool_name == "Bash" || isOnCall(session_id)`, func(p map[string]any) bool { return p["tool_name"] != "Bash" }},
		{`tool_name == "Bash" && isOnCall(session_id)`, func(p map[string]any) bool { return p["tool_name"] == "Bash" }},
		{`tool_name == "Bash" && !isOnCall(session_id)`, func(p map[string]any) bool { return p["tool_name"] == "Bash" }},
		{`isOnCall(tool_input.command) in [true]`, nil},
		{`isOnCall(session_id) ?? true`, nil},
	}
	payloads := []map[string]any{
		{"tool_name": "Bash", "session_id": "s1", "tool_input": map[string]any{"command": "rm -rf /"}},
		{"tool_name": "Read", "session_id": "s1"},
		{"tool_name": "Bash"},
		{},
	}
	for _, off := range []fastpath.Set{0, fastpath.CondClosures, fastpath.CondSharedAtoms, fastpath.CondCompileCache, fastpath.All} {
		c := conditions.NewCompiler(conditions.WithoutFastPaths(off)).Declare(isOnCall)
		var e conditions.Evaluator
		for _, cond := range conds {
			// Compiled twice: a second condition shares the atoms.
			p, err := c.Compile(cond.src)
			if err != nil {
				t.Fatalf("off=%v %s: %v", off, cond.src, err)
			}
			p2, err := c.Compile("(" + cond.src + ")")
			if err != nil {
				t.Fatal(err)
			}
			for i, pl := range payloads {
				e.Within(pl, 0)
				for round, prog := range []*conditions.Program{p, p2, p, p2} {
					got, err := e.Eval(prog, pl, nil)
					if cond.reaches != nil && !cond.reaches(pl) {
						if err != nil {
							t.Errorf("off=%v %s payload %d: the call is not reached, yet: %v", off, cond.src, i, err)
						}
						continue
					}
					var me *conditions.MissingFunctionError
					if !errors.As(err, &me) || me.Name != "isOnCall" {
						t.Errorf("off=%v %s payload %d round %d: got (%v, %v), want the missing-function error", off, cond.src, i, round, got, err)
					}
					if got {
						t.Errorf("off=%v %s payload %d: true with an error", off, cond.src, i)
					}
					if err != nil && !strings.Contains(err.Error(), "function isOnCall is declared by the configuration but not supplied by this program") {
						t.Errorf("message: %v", err)
					}
				}
			}
		}
	}
}

// A function the program registered is checked against the declaration:
// an untyped one takes the declared signature, a typed one must accept
// every call the declaration allows, or the error names both signatures.
func TestCheckDeclaration(t *testing.T) {
	fn := func(...any) (any, error) { return true, nil }
	reg := func(types ...any) *conditions.Compiler {
		return conditions.NewCompiler(conditions.WithFunctions(conditions.Function{Name: "isOnCall", Fn: fn, Types: types}))
	}
	ok := []*conditions.Compiler{
		conditions.NewCompiler(), // not registered: a stub
		reg(),                    // untyped
		reg(new(func(string) bool)),
		reg(new(func(any) bool)),
		reg(new(func(int) bool), new(func(string) bool)), // one overload fits
		reg(new(func(...any) bool)),
	}
	for i, c := range ok {
		if err := c.CheckDeclaration(isOnCall); err != nil {
			t.Errorf("compatible %d: %v", i, err)
		}
	}
	bad := map[string]*conditions.Compiler{
		"isOnCall(int) bool":            reg(new(func(int) bool)),
		"isOnCall(string, string) bool": reg(new(func(string, string) bool)),
		"isOnCall(string) any":          reg(new(func(string) any)),
		"isOnCall(string) string":       reg(new(func(string) string)),
	}
	for registered, c := range bad {
		err := c.CheckDeclaration(isOnCall)
		var de *conditions.DeclarationError
		if !errors.As(err, &de) {
			t.Errorf("%s: got %v", registered, err)
			continue
		}
		want := "function isOnCall is declared as isOnCall(string) bool but this program registers it as " + registered
		if err.Error() != want {
			t.Errorf("got %q\nwant %q", err, want)
		}
	}
	// An untyped registration takes the declared signature.
	c := reg().Declare(isOnCall)
	if _, err := c.Compile(`isOnCall(1)`); err == nil {
		t.Error("an untyped registration did not take the declared signature")
	}
	p, err := c.Compile(`isOnCall("x")`)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := p.Eval(nil, nil); !got || err != nil {
		t.Errorf("the registered function was not called: %v %v", got, err)
	}
	// Names the language keeps.
	std := conditions.NewCompiler(conditions.WithFunctions(conditions.Function{Name: "glob", Fn: fn, Standard: true}))
	for _, name := range []string{"len", "upper", "all", "filter", "matches", "state", "not a name", "1x", "", "hookctlLen", "glob"} {
		if err := std.CheckDeclaration(conditions.Declaration{Name: name, Result: conditions.TypeBool}); err == nil {
			t.Errorf("%q was accepted", name)
		}
	}
}

// A function's name read as a value is refused: expr would read the
// function, shadowing a payload field of that name, and comparisons with
// it compile to constants (string(tool_name) == "Bash" always false, so a
// deny hook would never fire).
func TestFunctionNameIsNotAValue(t *testing.T) {
	decl := conditions.Declaration{Name: "tool_name", Result: conditions.TypeString}
	registered := conditions.NewCompiler(conditions.WithFunctions(conditions.Function{Name: "tool_name",
		Fn: func(...any) (any, error) { return "x", nil }}))
	for _, c := range []*conditions.Compiler{conditions.NewCompiler().Declare(decl), registered} {
		for _, src := range []string{`tool_name != nil`, `string(tool_name) == "Bash"`, `tool_name ?? false`, `tool_name in ["Bash"]`, `x == 1 || tool_name == "Bash"`} {
			_, err := c.Compile(src)
			if err == nil || !strings.Contains(err.Error(), "tool_name is a condition function") {
				t.Errorf("%s: %v", src, err)
			}
		}
		for _, src := range []string{`tool_name() == "x"`, `$env.tool_name == "Bash"`, `tool_input.tool_name == "x"`} {
			if _, err := c.Compile(src); err != nil {
				t.Errorf("%s: %v", src, err)
			}
		}
	}
}
