package hcl

import (
	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// CheckSource parses src, named name in diagnostics, as HCL without
// decoding it: the syntax errors, with the source for snippets, or nil
// when it parses. CheckSyntax does the same for files.
func CheckSource(name string, src []byte) *Diagnostics {
	f, d := hclsyntax.ParseConfig(src, name, hcl2.InitialPos)
	d = parsed(d)
	if !d.HasErrors() {
		return nil
	}
	if f == nil {
		f = &hcl2.File{Bytes: src}
	}
	return fromHCL(d, map[string]*hcl2.File{name: f})
}
