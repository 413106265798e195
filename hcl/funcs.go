package hcl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/hookctl/hookctl/internal/safefile"
)

// MaxFileSize bounds what file() reads.
const MaxFileSize = 4 << 20

// functions is the curated function set of a configuration: pure cty
// functions, file()/fileexists() confined to the configuration directory,
// and env() reading the environment through getenv. read is told of every
// file file() and fileexists() look at.
func functions(dir string, getenv func(string) (string, bool), read func(path string), check func(path string, content []byte) error) map[string]function.Function {
	fns := map[string]function.Function{
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "floor": stdlib.FloorFunc,
		"max": stdlib.MaxFunc, "min": stdlib.MinFunc, "parseint": stdlib.ParseIntFunc,
		"lower": stdlib.LowerFunc, "upper": stdlib.UpperFunc, "title": stdlib.TitleFunc,
		"trimspace": stdlib.TrimSpaceFunc, "trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc,
		"trimsuffix": stdlib.TrimSuffixFunc, "chomp": stdlib.ChompFunc, "indent": stdlib.IndentFunc,
		"replace": stdlib.ReplaceFunc, "regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc,
		"regex_replace": stdlib.RegexReplaceFunc, "split": stdlib.SplitFunc, "join": stdlib.JoinFunc,
		"format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc, "strlen": stdlib.StrlenFunc,
		"substr": stdlib.SubstrFunc, "strrev": stdlib.ReverseFunc,
		"concat": stdlib.ConcatFunc, "contains": stdlib.ContainsFunc, "distinct": stdlib.DistinctFunc,
		"flatten": stdlib.FlattenFunc, "keys": stdlib.KeysFunc, "values": stdlib.ValuesFunc,
		"length": stdlib.LengthFunc, "lookup": stdlib.LookupFunc, "merge": stdlib.MergeFunc,
		"coalesce": stdlib.CoalesceFunc, "coalescelist": stdlib.CoalesceListFunc, "compact": stdlib.CompactFunc,
		"element": stdlib.ElementFunc, "index": stdlib.IndexFunc, "range": stdlib.RangeFunc,
		"reverse": stdlib.ReverseListFunc, "slice": stdlib.SliceFunc, "sort": stdlib.SortFunc,
		"zipmap": stdlib.ZipmapFunc, "setunion": stdlib.SetUnionFunc, "setintersection": stdlib.SetIntersectionFunc,
		"jsonencode": stdlib.JSONEncodeFunc, "jsondecode": stdlib.JSONDecodeFunc,
		"try": tryfunc.TryFunc, "can": tryfunc.CanFunc,
		"tostring": convertFunc(cty.String), "tonumber": convertFunc(cty.Number), "tobool": convertFunc(cty.Bool),
		"tolist": convertFunc(cty.List(cty.DynamicPseudoType)), "toset": convertFunc(cty.Set(cty.DynamicPseudoType)),
		"tomap": convertFunc(cty.Map(cty.DynamicPseudoType)),
	}
	fns["file"] = function.New(&function.Spec{
		Description: "Reads a file inside the configuration directory as a string.",
		Params:      []function.Parameter{{Name: "path", Type: cty.String}},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p, err := confined(dir, args[0].AsString())
			if err != nil {
				return cty.NilVal, err
			}
			read(p)
			fi, err := os.Stat(p)
			if err != nil {
				return cty.NilVal, fmt.Errorf("file %q: %w", args[0].AsString(), err)
			}
			if fi.Size() > MaxFileSize {
				return cty.NilVal, fmt.Errorf("file %q is larger than %d bytes", args[0].AsString(), MaxFileSize)
			}
			b, err := safefile.ReadRegular(p)
			if err != nil {
				return cty.NilVal, err
			}
			if check != nil {
				if err := check(p, b); err != nil {
					return cty.NilVal, err
				}
			}
			if !utf8.Valid(b) {
				return cty.NilVal, fmt.Errorf("file %q is not UTF-8 text", args[0].AsString())
			}
			return cty.StringVal(string(b)), nil
		},
	})
	fns["fileexists"] = function.New(&function.Spec{
		Description: "Reports whether a file inside the configuration directory exists.",
		Params:      []function.Parameter{{Name: "path", Type: cty.String}},
		Type:        function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p, err := confined(dir, args[0].AsString())
			if err != nil {
				return cty.NilVal, err
			}
			read(p)
			_, err = os.Stat(p)
			return cty.BoolVal(err == nil), nil
		},
	})
	fns["env"] = function.New(&function.Spec{
		Description: "Reads an environment variable; a missing one is the default (\"\" when not given).",
		Params:      []function.Parameter{{Name: "name", Type: cty.String}},
		VarParam:    &function.Parameter{Name: "default", Type: cty.String},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if v, ok := getenv(args[0].AsString()); ok {
				return cty.StringVal(v), nil
			}
			if len(args) > 1 {
				return args[1], nil
			}
			return cty.StringVal(""), nil
		},
	})
	return fns
}

func convertFunc(want cty.Type) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "v", Type: cty.DynamicPseudoType, AllowNull: true, AllowDynamicType: true}},
		Type: func(args []cty.Value) (cty.Type, error) {
			if want.IsCollectionType() {
				return cty.DynamicPseudoType, nil
			}
			return want, nil
		},
		Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
			return convertValue(args[0], want)
		},
	})
}

// confined resolves a path relative to dir and refuses one that leaves it.
func confined(dir, p string) (string, error) {
	full := p
	if !filepath.IsAbs(full) {
		full = filepath.Join(dir, p)
	}
	full = filepath.Clean(full)
	real := full
	if r, err := filepath.EvalSymlinks(full); err == nil {
		real = r
	}
	rdir := dir
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		rdir = r
	}
	rel, err := filepath.Rel(rdir, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%q is outside the configuration directory", p)
	}
	return full, nil
}
