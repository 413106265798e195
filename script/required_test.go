package script

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRequiredNameNamesTheFailingCall: with two require() calls on one
// line, the "Cannot find module" message names the one the error's column
// points into (goja points at its argument), not the first of the line.
func TestRequiredNameNamesTheFailingCall(t *testing.T) {
	file := filepath.Join(t.TempDir(), "h.js")
	line := `const fs=require("hookctl/fs"); const jl=require("hookctl/jsonl")`
	if err := os.WriteFile(file, []byte("const x = 1;\n"+line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		col  int
		want string
	}{
		{50, "hookctl/jsonl"}, // the second call's argument, as goja reports it
		{42, "hookctl/jsonl"}, // the second require itself
		{18, "hookctl/fs"},    // the first call's argument
		{1, "hookctl/fs"},     // a column before any call
		{0, "hookctl/fs"},     // no column
	} {
		if got := requiredName(file, 2, c.col); got != c.want {
			t.Errorf("column %d: %q, want %q", c.col, got, c.want)
		}
	}
}
