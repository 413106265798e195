package hcl

import hcl2 "github.com/hashicorp/hcl/v2"

// BlockInfo describes a block type for editors (completion, hover): its
// labels, the attributes it takes and the blocks it may hold. It is built
// from the schemas the decoder uses, so it never disagrees with them.
type BlockInfo struct {
	Type       string
	Labels     []string
	Attributes []AttributeInfo
	Blocks     []BlockInfo
}

// AttributeInfo is one attribute of a block.
type AttributeInfo struct {
	Name     string
	Required bool
}

// nestedSchemas are the schemas of blocks decoded against a fixed schema,
// by the path of block types leading to them; a block not listed (locals,
// builtin, a handler block) takes attributes the assembly checks.
var nestedSchemas = map[string]*hcl2.BodySchema{
	"settings":    settingsSchema,
	"event":       eventSchema,
	"hook":        hookSchema,
	"hook/retry":  retrySchema,
	"test":        testSchema,
	"test/expect": expectSchema,
}

// ConfigSchema describes a configuration file: the root's blocks and,
// for those with a fixed schema, their attributes and blocks.
func ConfigSchema() BlockInfo { return blockInfo("", "", nil, rootSchema) }

// TestSchema describes a test file (*_test.hcl).
func TestSchema() BlockInfo { return blockInfo("", "", nil, testFileSchema) }

func blockInfo(path, typ string, labels []string, s *hcl2.BodySchema) BlockInfo {
	out := BlockInfo{Type: typ, Labels: labels}
	if s == nil {
		return out
	}
	for _, a := range s.Attributes {
		out.Attributes = append(out.Attributes, AttributeInfo{Name: a.Name, Required: a.Required})
	}
	for _, b := range s.Blocks {
		p := b.Type
		if path != "" {
			p = path + "/" + b.Type
		}
		out.Blocks = append(out.Blocks, blockInfo(p, b.Type, b.LabelNames, nestedSchemas[p]))
	}
	return out
}
