package hclfmt_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/hcl/hclfmt"
)

// FuzzFormat: on any input Format does not panic; what it formats still
// parses, has the same tokens and heredocs, and does not change again.
func FuzzFormat(f *testing.F) {
	ins, _ := filepath.Glob("testdata/*.hcl")
	for _, in := range ins {
		if b, err := os.ReadFile(in); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("a = <<-X\n  ${ b }\n  X\nc = [1,\n2]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := hclfmt.Format("f.hcl", src)
		if err != nil {
			if hcl.CheckSource("f.hcl", src) == nil {
				t.Fatalf("Format failed on a source that parses: %v", err)
			}
			return
		}
		if d := hcl.CheckSource("f.hcl", out); d != nil {
			t.Fatalf("formatted source does not parse: %v\n%q\n%q", d, src, out)
		}
		again, err := hclfmt.Format("f.hcl", out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent (%v):\n%q\n%q\n%q", err, src, out, again)
		}
		checkHeredocs(t, "f.hcl", src, out)
		checkTokens(t, "f.hcl", src, out)
	})
}
