package hcl_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/hcl"
)

// TestTSBodies: ts is a handler kind beside js, and an inline body says
// how its columns map to the file: a heredoc's stripped indentation on
// every line, the opening quote of a quoted string.
func TestTSBodies(t *testing.T) {
	cfg := parse(t, "testdata/ts/hooks.hcl")
	if got := []string{cfg.Hooks[0].Kind, cfg.Hooks[1].Kind}; !slices.Equal(got, []string{"ts", "ts"}) {
		t.Fatalf("kinds %v", got)
	}
	in, ok := cfg.Hooks[0].Body.Inline("ts")
	if !ok || in.Line != 4 {
		t.Fatalf("heredoc body %+v", in)
	}
	// "    const ..." and "      if ..." lost 4 columns each; the
	// closing marker's line is not the body's.
	if got := in.Columns(); !slices.Equal(got, []int{4, 4, 4}) {
		t.Fatalf("heredoc columns %v", got)
	}
	in, ok = cfg.Hooks[1].Body.Inline("ts")
	if !ok || in.Line != 12 {
		t.Fatalf("quoted body %+v", in)
	}
	// `  ts    = "return` : the value's first column is the file's 12th.
	if got := in.Columns(); !slices.Equal(got, []int{11}) {
		t.Fatalf("quoted columns %v", got)
	}
}

// TestInterpolationHint: ${event.tool_name} in a heredoc or a string is
// HCL's interpolation; the unknown variable says how to escape it.
func TestInterpolationHint(t *testing.T) {
	cfg, err := hcl.Parse("testdata/ts/interpolation.hcl")
	if err != nil {
		t.Fatal(err)
	}
	// The bodies are evaluated by their kinds' factories.
	if _, ok := cfg.Hooks[0].Body.Inline("js"); ok {
		t.Fatal("the js body evaluated")
	}
	if _, ok := cfg.Hooks[1].Body.Str("command"); ok {
		t.Fatal("the command evaluated")
	}
	d := cfg.Diagnostics()
	var got []string
	for _, e := range d.Errors() {
		got = append(got, e.At()+" "+e.Summary+": "+e.Detail)
	}
	want := []string{
		`testdata/ts/interpolation.hcl:4:26 Unknown variable: There is no variable named "event". HCL interpolates ${...} in strings and heredocs: for JavaScript's ${...} (a template literal) or a shell's, write $${event.tool_name}.`,
		`testdata/ts/interpolation.hcl:10:21 Unknown variable: There is no variable named "tool_input". HCL interpolates ${...} in strings and heredocs: for JavaScript's ${...} (a template literal) or a shell's, write $${tool_input["command"]}.`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
