package lint

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/jsrewrite"
)

// Payload paths in scripts: the member chains a handler reads on its
// event parameter (event.tool_input.comand, event["tool_input"]?.comand),
// where they can be seen statically. The event is the parameter of an
// inline js/ts body's function (event), the first parameter of a
// function assigned to module.exports or exports.NAME, and any parameter
// named event (the convention of hookctl's handlers, export default
// function (event)). TypeScript is stripped by esbuild first; a source
// that does not parse is not checked (its errors are the loader's).

// maxScriptLint bounds the size of a script file read for the check.
const maxScriptLint = 1 << 20

// eventParam is the conventional name of a handler's payload parameter.
const eventParam = "event"

// inlineHeader wraps an inline body in the function it is the body of.
const inlineHeader = "(async function (event, ctx) {"

// scriptPaths returns the payload paths the hook's js, ts or script
// handler reads, with their positions in the configuration or the script
// file.
func scriptPaths(hb *hcl.HookBlock) []payloadPath {
	switch hb.Kind {
	case "js", "ts":
		in, ok := hb.Body.Inline(hb.Kind)
		if !ok {
			return nil
		}
		cols := in.Columns()
		src := strings.Repeat("\n", in.Line-1) + inlineHeader + in.Text + "\n})"
		return jsPaths(src, in.File, hb.Kind == "ts", false, func(line, col int) (int, int) {
			i := line - in.Line
			if i == 0 {
				col -= len(inlineHeader)
			}
			if i >= 0 && i < len(cols) {
				col += cols[i]
			}
			return line, col
		})
	case "script":
		p, ok := hb.Body.Str("script")
		if !ok || p == "" {
			return nil
		}
		path := hb.Body.Path(p)
		st, err := os.Stat(path)
		if err != nil || !st.Mode().IsRegular() || st.Size() > maxScriptLint {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		ext := strings.ToLower(filepath.Ext(path))
		return jsPaths(string(b), path, ext == ".ts" || ext == ".mts" || ext == ".cts", true, nil)
	}
	return nil
}

// jsPaths parses a script and returns the paths read on its event
// parameter. module says src is a file (an ES module is made CommonJS);
// pos turns a line and column of src into the file's (nil: the same).
func jsPaths(src, name string, ts, module bool, pos func(line, col int) (int, int)) []payloadPath {
	prog, err := parser.ParseFile(nil, name, src, 0, parser.WithDisableSourceMaps)
	if err != nil || ts {
		// TypeScript, or an ES module: esbuild makes it a script goja
		// parses, and its source map gives the positions back.
		opts := api.TransformOptions{
			Sourcefile: name, Loader: api.LoaderJS, Target: api.ES2020, Platform: api.PlatformNeutral,
			Sourcemap: api.SourceMapInline, SourcesContent: api.SourcesContentExclude,
			LegalComments: api.LegalCommentsNone, Charset: api.CharsetUTF8, LogLevel: api.LogLevelSilent,
			Supported: map[string]bool{"dynamic-import": false},
		}
		if ts {
			opts.Loader = api.LoaderTS
		}
		if module {
			opts.Format = api.FormatCommonJS
		}
		res := api.Transform(src, opts)
		if len(res.Errors) > 0 {
			return nil
		}
		prog, err = parser.ParseFile(nil, name, string(res.Code), 0, parser.WithSourceMapLoader(func(string) ([]byte, error) {
			return nil, os.ErrNotExist // only the inline map
		}))
		if err != nil {
			return nil
		}
	}
	f := prog.File
	at := func(idx file.Idx, length int) (hcl.Range, bool) {
		p := f.Position(int(idx) - f.Base())
		if p.Line < 1 {
			return hcl.Range{}, false
		}
		line, col := p.Line, p.Column
		if pos != nil {
			line, col = pos(line, col)
		}
		r := hcl.Range{Filename: name}
		r.Start.Line, r.Start.Column = line, col
		r.End.Line, r.End.Column = line, col+length
		return r, true
	}

	w := &jsWalker{handlers: map[ast.Node]bool{}}
	var out []payloadPath
	seen := map[string]bool{}
	jsrewrite.Walk(prog, func(n any, enter bool) bool {
		switch x := n.(type) {
		case *ast.FunctionLiteral:
			w.scope(x, x.ParameterList, enter)
		case *ast.ArrowFunctionLiteral:
			w.scope(x, x.ParameterList, enter)
		case *ast.AssignExpression:
			if enter && isExports(x.Left) {
				switch fn := x.Right.(type) {
				case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
					w.handlers[fn] = true
				}
			}
		case *ast.DotExpression, *ast.BracketExpression:
			if !enter {
				return true
			}
			elems, idxs, lens, ok := w.chain(x.(ast.Expression))
			if !ok {
				return true
			}
			if len(elems) > 0 {
				key := strings.Join(elems, "\x00")
				if !seen[key] {
					seen[key] = true
					out = append(out, payloadPath{elems: elems, at: func(i int) (hcl.Range, bool) {
						if i >= len(idxs) {
							return hcl.Range{}, false
						}
						return at(idxs[i], lens[i])
					}})
				}
			}
			// Computed members may read the event too.
			return hasComputed(x)
		}
		return true
	})
	return out
}

// jsWalker tracks, function by function, the name that holds the event.
type jsWalker struct {
	handlers map[ast.Node]bool
	stack    []string
}

func (w *jsWalker) current() string {
	if len(w.stack) == 0 {
		return ""
	}
	return w.stack[len(w.stack)-1]
}

// scope enters or leaves a function: a handler's first parameter is the
// event; a parameter that shadows the event's name hides it.
func (w *jsWalker) scope(fn ast.Node, params *ast.ParameterList, enter bool) {
	if !enter {
		if len(w.stack) > 0 {
			w.stack = w.stack[:len(w.stack)-1]
		}
		return
	}
	var names []string
	if params != nil {
		for _, b := range params.List {
			if id, ok := b.Target.(*ast.Identifier); ok {
				names = append(names, string(id.Name))
			} else {
				names = append(names, "")
			}
		}
	}
	cur := w.current()
	switch {
	case len(names) > 0 && names[0] != "" && (w.handlers[fn] || names[0] == eventParam):
		cur = names[0]
	default:
		for _, n := range names {
			if n == cur {
				cur = ""
			}
		}
	}
	w.stack = append(w.stack, cur)
}

// chain returns the path a member chain reads on the event, with the
// position and length of each element; ok is false when the chain is not
// rooted at the event.
func (w *jsWalker) chain(e ast.Expression) (elems []string, idxs []file.Idx, lens []int, ok bool) {
	var cut bool
	var walk func(e ast.Expression) bool
	walk = func(e ast.Expression) bool {
		switch x := e.(type) {
		case *ast.Identifier:
			return w.current() != "" && string(x.Name) == w.current()
		case *ast.OptionalChain:
			return walk(x.Expression)
		case *ast.Optional:
			return walk(x.Expression)
		case *ast.DotExpression:
			if !walk(x.Left) {
				return false
			}
			if !cut {
				elems = append(elems, string(x.Identifier.Name))
				idxs = append(idxs, x.Identifier.Idx)
				lens = append(lens, len(x.Identifier.Name))
			}
			return true
		case *ast.BracketExpression:
			if !walk(x.Left) {
				return false
			}
			if !cut {
				switch m := x.Member.(type) {
				case *ast.StringLiteral:
					elems = append(elems, string(m.Value))
					idxs = append(idxs, m.Idx)
					lens = append(lens, len(m.Literal))
				case *ast.NumberLiteral:
					elems = append(elems, "0")
					idxs = append(idxs, m.Idx)
					lens = append(lens, len(m.Literal))
				default:
					cut = true
				}
			}
			return true
		}
		return false
	}
	if !walk(e) {
		return nil, nil, nil, false
	}
	return elems, idxs, lens, true
}

// hasComputed reports whether a member chain has a computed member (whose
// expression the walk must still visit).
func hasComputed(e any) bool {
	for {
		switch x := e.(type) {
		case *ast.BracketExpression:
			if _, ok := x.Member.(*ast.StringLiteral); !ok {
				if _, ok := x.Member.(*ast.NumberLiteral); !ok {
					return true
				}
			}
			e = x.Left
		case *ast.DotExpression:
			e = x.Left
		case *ast.OptionalChain:
			e = x.Expression
		case *ast.Optional:
			e = x.Expression
		default:
			return false
		}
	}
}

// isExports reports whether an assignment target is module.exports,
// exports.NAME or module.exports.NAME.
func isExports(e ast.Expression) bool {
	d, ok := e.(*ast.DotExpression)
	if !ok {
		return false
	}
	switch l := d.Left.(type) {
	case *ast.Identifier:
		return l.Name == "module" && d.Identifier.Name == "exports" || l.Name == "exports"
	case *ast.DotExpression:
		id, ok := l.Left.(*ast.Identifier)
		return ok && id.Name == "module" && l.Identifier.Name == "exports"
	}
	return false
}

// lintScript warns about the payload paths a hook's script reads that
// its events' payloads do not have.
func lintScript(eng *engine.Engine, hb *hcl.HookBlock, warn func(hcl.Diagnostic)) {
	paths := scriptPaths(hb)
	if len(paths) == 0 {
		return
	}
	lintPaths(eng, hb.Hook, hb.RangeOf(hb.Kind), paths, "event.", warn)
}
