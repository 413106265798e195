package conditions_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/hookctl/hookctl/conditions"
)

func payload() map[string]any {
	return map[string]any{
		"tool_name":  "Bash",
		"session_id": "abc",
		"cwd":        "/home/u/p",
		"tool_input": map[string]any{"command": "sudo rm -rf /tmp/x", "timeout": 120},
		"tags":       []any{"a", "b"},
	}
}

func TestOperatorsInBothForms(t *testing.T) {
	cases := map[string]bool{
		`tool_name == "Bash" && session_id == "abc"`:              true,
		`tool_name == "Bash" and session_id == "abc"`:             true,
		`tool_name == "Write" || session_id == "abc"`:             true,
		`tool_name == "Write" or session_id == "abc"`:             true,
		`!(tool_name == "Bash")`:                                  false,
		`not (tool_name == "Bash")`:                               false,
		`tool_name in ["Bash", "Shell"]`:                          true,
		`tool_name not in ["Bash", "Shell"]`:                      false,
		"tool_input.command matches `^sudo\\s`":                   true,
		`tool_input.command contains "rm -rf"`:                    true,
		`cwd startsWith "/home"`:                                  true,
		`cwd endsWith "/p"`:                                       true,
		`tool_input.timeout > 60`:                                 true,
		`"a" in tags`:                                             true,
		`len(tags) == 2`:                                          true,
		`tool_input["command"] startsWith "sudo"`:                 true,
		`missing == nil`:                                          true,
		`missing.deeply.nested == nil`:                            true,
		`missing.field matches "x"`:                               false,
		`tool_input.nope contains "x"`:                            false,
		`missing in ["a"]`:                                        false,
		`state.count > 1`:                                         true,
		`state.flag == true and tool_name == "Bash"`:              true,
		`tool_name == "Bash" and (cwd startsWith "/tmp" or true)`: true,
	}
	state := map[string]any{"count": 2, "flag": true}
	for src, want := range cases {
		p, err := conditions.Compile(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		got, err := p.Eval(payload(), state)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if got != want {
			t.Errorf("%s = %v, want %v", src, got, want)
		}
	}
}

func TestCompileErrorsCarryPosition(t *testing.T) {
	cases := []struct {
		src       string
		line, col int
		msg       string
	}{
		{`tool_name ==`, 1, 12, "unexpected token"},
		{`tool_input.command matches '\s'`, 1, 30, "invalid char escape"},
		{"tool_name == 'Bash' &&\n  cwd startsWith", 2, 16, ""},
		{`1 + 1`, 1, 1, "expected bool"},
		{``, 1, 1, "empty condition"},
	}
	for _, tc := range cases {
		_, err := conditions.Compile(tc.src)
		var ce *conditions.Error
		if !errors.As(err, &ce) {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if ce.Line != tc.line || ce.Column != tc.col || !strings.Contains(ce.Message, tc.msg) {
			t.Errorf("%q: got %d:%d %q, want %d:%d %q", tc.src, ce.Line, ce.Column, ce.Message, tc.line, tc.col, tc.msg)
		}
	}
}

func TestNonBoolResultIsAnError(t *testing.T) {
	p, err := conditions.Compile(`tool_name`)
	if err != nil {
		t.Fatal(err)
	}
	var re *conditions.RuntimeError
	if _, err := p.Eval(payload(), nil); !errors.As(err, &re) {
		t.Fatalf("got %v", err)
	}
	// nil counts as false.
	p, _ = conditions.Compile(`missing`)
	if ok, err := p.Eval(payload(), nil); ok || err != nil {
		t.Fatalf("got %v %v", ok, err)
	}
}

func TestUsesState(t *testing.T) {
	a, _ := conditions.Compile(`state.x == 1`)
	b, _ := conditions.Compile(`tool_name == "x"`)
	if !a.UsesState() || b.UsesState() {
		t.Fatal("UsesState")
	}
}

func TestFunctions(t *testing.T) {
	c := conditions.NewCompiler(conditions.WithFunctions(conditions.Function{
		Name:  "isRoot",
		Fn:    func(args ...any) (any, error) { return args[0] == "/", nil },
		Types: []any{new(func(string) bool)},
	}))
	p, err := c.Compile(`isRoot(cwd)`)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := p.Eval(map[string]any{"cwd": "/"}, nil); !ok {
		t.Fatal("isRoot")
	}
	if _, err := c.Compile(`isRoot(1)`); err == nil {
		t.Fatal("typed signature not checked")
	}
}

func TestProgramsAreSafeForConcurrentUse(t *testing.T) {
	p, err := conditions.Compile(`tool_name == "Bash" and state.n >= 0 and tool_input.command contains "rm"`)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			var ev conditions.Evaluator // one per goroutine
			for range 500 {
				ok, err := ev.Eval(p, payload(), map[string]any{"n": i})
				if err != nil || !ok {
					t.Error(ok, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

func BenchmarkEval(b *testing.B) {
	src := `tool_name in ["Bash","Shell"] && (tool_input.command matches "^rm " || tool_input.command contains "sudo") && !(session_id startsWith "test-")`
	p, err := conditions.Compile(src)
	if err != nil {
		b.Fatal(err)
	}
	pl := payload()
	var ev conditions.Evaluator
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ev.Eval(p, pl, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func TestReads(t *testing.T) {
	for src, want := range map[string]bool{
		`tool == "Bash"`:                 true,
		`tool_name == "Bash"`:            false,
		`tool_input.tool == "x"`:         false,
		`$env["tool"] == "Bash"`:         true,
		`len(tool) > 0 && prompt != nil`: true,
	} {
		p, err := conditions.Compile(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Reads("tool"); got != want {
			t.Errorf("%s: Reads(tool) = %v, want %v", src, got, want)
		}
	}
}

// TestCompileOnce: a condition compiled twice is the same Program.
func TestCompileOnce(t *testing.T) {
	c := conditions.NewCompiler()
	a, err := c.Compile(`tool_name == "Bash"`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.Compile(`tool_name == "Bash"`)
	d, _ := c.Compile(`tool_name == "Read"`)
	if a != b || a == d {
		t.Fatalf("same source: %p %p; other source %p", a, b, d)
	}
	if _, err := c.Compile(`tool_name ==`); err == nil {
		t.Fatal("a bad condition compiled")
	}
}
