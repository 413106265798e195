package hcl

import (
	"strings"
	"testing"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestStringColumns: an offset in a when string's value maps to the
// column where it is written, past escapes and non-ASCII text; the
// value is what HCL decodes from the literal.
func TestStringColumns(t *testing.T) {
	for _, lit := range []string{
		`"tool_input.comand contains 'rm'"`,
		`"tool_input[\"comand\"] matches 'x'"`,
		`"$env[\"tool_input\"][\"comand\"] != nil"`,
		`"'😀😀' == 'x' || tool_input.comand contains 'rm'"`,
		`"'\u202e\t' == '$${x}' || tool_input.comand contains 'rm'"`,
		`"'é' + \"\\\" || tool_input.comand"`,
	} {
		line := `  when     = ` + lit
		src := []byte("hook \"a\" {\n" + line + "\n}\n")
		f, diags := hclsyntax.ParseConfig(src, "h.hcl", hcl2.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", lit, diags)
		}
		a := f.Body.(*hclsyntax.Body).Blocks[0].Body.Attributes["when"]
		v, _ := a.Expr.Value(nil)
		value := v.AsString()
		cols, ok := StringColumns(src, a.Expr.Range())
		if !ok || len(cols) != len(value)+1 {
			t.Fatalf("%s: ok=%v, %d columns for %d bytes", lit, ok, len(cols), len(value))
		}
		i := strings.Index(value, "comand")
		// The column of "comand" in the line, counted in characters.
		want := len([]rune(line[:strings.Index(line, "comand")])) + 1
		if cols[i] != want {
			t.Errorf("%s: comand at column %d, want %d", lit, cols[i], want)
		}
	}
	for _, lit := range []string{"\"a ${b} c\"", "<<EOT\nx\nEOT"} {
		src := []byte("x = " + lit + "\n")
		f, _ := hclsyntax.ParseConfig(src, "h.hcl", hcl2.InitialPos)
		a := f.Body.(*hclsyntax.Body).Attributes["x"]
		if _, ok := StringColumns(src, a.Expr.Range()); ok {
			t.Errorf("%s: mapped", lit)
		}
	}
}
