package hcl

import (
	"os"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/hookctl/hookctl/internal/safefile"
)

// LayerPolicy reads, without decoding the rest, what the settings of the
// configuration at path (a file or a directory) say about the layers
// below it: managed_only and allow_layers (nil when not set). ok is false
// when they cannot be read so (a file that does not parse, a value that
// is not a literal): the caller must then assume every layer runs. The
// full decode (Parse) is what applies them; this is for deciding, before
// it, which layers need their trust checked.
func LayerPolicy(path string) (managedOnly bool, allow []string, ok bool) {
	files := []string{path}
	if fi, err := os.Stat(path); err != nil {
		return false, nil, false
	} else if fi.IsDir() {
		if files, err = ConfigFiles(path); err != nil {
			return false, nil, false
		}
	}
	p := hclparse.NewParser()
	for _, name := range files {
		src, err := safefile.ReadRegular(name)
		if err != nil {
			return false, nil, false
		}
		f, d := p.ParseHCL(src, name)
		if d.HasErrors() {
			return false, nil, false
		}
		content, _, d := f.Body.PartialContent(&hcl2.BodySchema{Blocks: []hcl2.BlockHeaderSchema{{Type: "settings"}}})
		if d.HasErrors() {
			return false, nil, false
		}
		for _, b := range content.Blocks {
			attrs, _ := b.Body.JustAttributes()
			if a := attrs["managed_only"]; a != nil {
				v, d := a.Expr.Value(nil)
				if d.HasErrors() || v.Type() != cty.Bool || !v.IsKnown() || v.IsNull() {
					return false, nil, false
				}
				managedOnly = managedOnly || v.True()
			}
			if a := attrs["allow_layers"]; a != nil {
				v, d := a.Expr.Value(nil)
				if d.HasErrors() || !v.IsKnown() || v.IsNull() || !(v.Type().IsTupleType() || v.Type().IsListType()) {
					return false, nil, false
				}
				names := []string{}
				for it := v.ElementIterator(); it.Next(); {
					_, e := it.Element()
					if e.Type() != cty.String || !e.IsKnown() || e.IsNull() {
						return false, nil, false
					}
					names = append(names, e.AsString())
				}
				allow = names
			}
		}
	}
	return managedOnly, allow, true
}
