package script

import (
	"errors"
	"fmt"
	"math/big"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/hookctl/hookctl/internal/jsrewrite"
)

// Body is an inline handler body: the statements of a function with
// `event` and `ctx` in scope, written in File from Line on.
type Body struct {
	File string
	Line int
	Text string
	// TypeScript says the body is TypeScript (its types are stripped).
	TypeScript bool
	// Columns turn a column of the body's text into one of File:
	// Columns[i] is added to the columns of the body's line i (0-based),
	// for the indentation a heredoc took off or the text in front of a
	// quoted string. Errors and stack frames then point into File
	// exactly; without it their columns are the body's own.
	Columns []int
}

// CompileBody compiles an inline handler body, JavaScript or TypeScript.
func (p *Pool) CompileBody(b Body) (*Program, error) {
	if b.Line < 1 {
		b.Line = 1
	}
	if len(b.Text) > MaxSourceSize {
		return nil, fmt.Errorf("%s:%d: handler body larger than %d bytes", b.File, b.Line, MaxSourceSize)
	}
	p.code.addColumns(b.File, b.Line, b.Columns)
	if b.TypeScript {
		return p.compileTSBody(b)
	}
	return p.compileJSBody(b)
}

// Function headers of an inline body, on the line of its first statement.
const (
	bodyHeader      = "(function (event, ctx) {"
	asyncBodyHeader = "(async function (event, ctx) {"
)

// compileTSBody transforms a TypeScript body, wrapped in the function it
// is the body of, and compiles the result with its source map. The
// source is not padded to File's lines: it is named by a file: URL of
// its own (the file's, with the line as fragment), whose positions the
// body's Map turns into the file's, as an inline JavaScript body's.
func (p *Pool) compileTSBody(b Body) (*Program, error) {
	as := p.code.inlineName(b.File, p.dir, b.Line)
	src := sourceURL(b.File) + as[strings.LastIndexByte(as, '#'):]
	p.code.addSource(src, as)
	for _, header := range []string{bodyHeader, asyncBodyHeader} {
		m := jsrewrite.Map{File: b.File, Line: b.Line, Shift: len(header)}
		p.code.setInline(as, m)
		t := p.transforms.transform(kindBody, src, header+b.Text+"\n})", true)
		if len(t.errs) > 0 {
			if header == bodyHeader && strings.Contains(b.Text, "await") {
				continue // await: an async function
			}
			se := p.code.esbuildError(t.errs[0], m)
			se.Hint = bodyHint(b.Text)
			return nil, se
		}
		// The function expression esbuild wrote, rewritten (package
		// jsrewrite: edits keep lines and columns, so the map holds)
		// with its declarations in front on the first line, which holds
		// only the header; then as written.
		// The rewritten one is a factory, as jsrewrite.Inline writes it.
		code := strings.TrimRight(t.code, "; \n")
		type candidate struct {
			code    string
			factory bool
		}
		var candidates []candidate
		if decls, rewritten := jsrewrite.Rewrite(code, 0, len(code), p.rewriteOptions()); decls != "" {
			candidates = append(candidates, candidate{"(function (" + resultHelper + "," + constHelper + "," + testHelper + ") {" + decls + "return " + rewritten + ";})\n" + t.mapLine, true})
		}
		candidates = append(candidates, candidate{code + ";\n" + t.mapLine, false})
		var err error
		var failed string
		for _, c := range candidates {
			tree, prog, cerr := p.compileSource(b.File, c.code)
			if cerr == nil {
				return p.add(&Program{Name: b.File, compiledAs: as, inline: prog, factory: c.factory, Map: m, Line: b.Line, TypeScript: true, info: p.code.analyze(tree, nil)}), nil
			}
			err, failed = cerr, c.code
		}
		return nil, p.code.transformedError(err, failed, m)
	}
	panic("unreachable")
}

// transformModule returns what a TypeScript or ES module file runs as: a
// CommonJS module whose first line is blank and whose source map names
// the file.
func (p *Pool) transformModule(real string, src []byte, ts bool) (string, error) {
	u := sourceURL(real)
	p.code.addSource(u, real)
	t := p.transforms.transform(kindModule, u, string(src), ts)
	if len(t.errs) > 0 {
		se := p.code.esbuildError(t.errs[0], jsrewrite.Map{File: real, Line: 1})
		se.Hint = fileHint(real, src, se, true)
		return "", se
	}
	return t.code + t.mapLine, nil
}

// transformedError converts what goja reported about code esbuild wrote
// from the source at: a position goja mapped to the source (named by its
// file: URL), or one it could not (the parser reads the map only once
// the code parsed), mapped here.
func (c *programs) transformedError(err error, code string, at jsrewrite.Map) *SyntaxError {
	raw := compileError(err, at.File, 0, 0, nil)
	if strings.HasPrefix(raw.File, "file:") {
		return compileError(err, at.File, 0, 0, c)
	}
	if l, col, ok := generatedPosition(code, raw.Line, raw.Column); ok {
		l, col = at.Original(l, col)
		raw.File, raw.Line, raw.Column = at.File, l, max(1, col+c.delta(at.File, l))
	}
	return raw
}

// esbuildError converts an error esbuild reported in the source at
// (columns 0 based).
func (c *programs) esbuildError(m api.Message, at jsrewrite.Map) *SyntaxError {
	se := &SyntaxError{File: at.File, Line: 1, Column: 1, Message: m.Text}
	if l := m.Location; l != nil {
		se.Line, se.Column = at.Original(l.Line, l.Column+1)
		se.Column = max(1, se.Column+c.delta(at.File, se.Line))
	}
	for _, n := range m.Notes {
		if n.Text != "" {
			se.Message += " (" + n.Text + ")"
			break
		}
	}
	return se
}

// bodyHint says what to do about a syntax error of an inline body.
func bodyHint(body string) string {
	if esmSyntaxRE().MatchString(body) {
		return "an inline body is the body of function (event, ctx), so it cannot import or export: " +
			"use require(\"hookctl/...\") and return the result, or move the code to a script file " +
			"(script = \"hooks/check.ts\") that does export default function (event, ctx) { ... }"
	}
	return ""
}

// fileHint says what to do about a syntax error of a script file,
// transformed (an ES module, TypeScript) or not.
func fileHint(name string, src []byte, se *SyntaxError, transformed bool) string {
	switch {
	case strings.EqualFold(filepath.Ext(name), ".cjs") && esmSyntaxRE().Match(src):
		return "a .cjs file is CommonJS: write module.exports = function (event, ctx) { ... } and require(), " +
			"or name the file .js, .mjs or .ts to use import and export"
	case strings.Contains(se.Message, "Top-level await"):
		return "a hook module's top level runs once, when it loads, and cannot await: await inside the handler " +
			"(export default async function (event, ctx) { ... })"
	}
	if line := lineOf(src, se.Line); se.Line > 0 && !transformed {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "export" || f[0] == "import") {
			return "import and export must start a line of their own for the file to run as an ES module"
		}
	}
	return ""
}

// lineOf returns line n (1-based) of src.
func lineOf(src []byte, n int) string {
	for i := 1; len(src) > 0; i++ {
		end := len(src)
		for j, c := range src {
			if c == '\n' {
				end = j
				break
			}
		}
		if i == n {
			return string(src[:end])
		}
		if end == len(src) {
			break
		}
		src = src[end+1:]
	}
	return ""
}

// noHandler is the error of a script file that exports no handler
// function: what it exports, and what it should.
func (prog *Program) noHandler(v goja.Value) error {
	keys := exportedKeys(v)
	e := &Error{File: prog.Name, Line: 1, Column: 1,
		Message: fmt.Sprintf("TypeError: the script must export a function (event, ctx), got %s", exportedDescription(v, keys))}
	esm := prog.Module || prog.TypeScript
	if fns := prog.info.declared; len(fns) > 0 {
		d := fns[0]
		for _, f := range fns {
			if f.name == "handler" || f.name == "hook" || f.name == "main" {
				d = f
				break
			}
		}
		e.File, e.Line, e.Column = d.file, d.at.line, d.at.col
		switch {
		case slices.Contains(keys, d.name):
			e.Hint = fmt.Sprintf("it exports function %s, but the handler is the default export or the one named handler: add export default %s;", d.name, d.name)
		case esm:
			e.Hint = fmt.Sprintf("it declares function %s but does not export it: add export default %s;", d.name, d.name)
		default:
			e.Hint = fmt.Sprintf("it declares function %s but does not export it: add module.exports = %s;", d.name, d.name)
		}
		return e
	}
	if esm {
		e.Hint = "a script file exports its handler: export default function (event, ctx) { ... } " +
			"(or a function named handler: export function handler(event, ctx) { ... })"
	} else {
		e.Hint = "a script file exports its handler: module.exports = function (event, ctx) { ... } " +
			"(CommonJS) or export default function (event, ctx) { ... } (ES module)"
	}
	return e
}

// exportedKeys returns the own keys of an exported object, read without
// running script code (a Proxy's are not asked for), sorted.
func exportedKeys(v goja.Value) (keys []string) {
	o, ok := v.(*goja.Object)
	if !ok || className(o) == "Proxy" {
		return nil
	}
	defer func() {
		if recover() != nil {
			keys = nil
		}
	}()
	keys = o.Keys()
	sort.Strings(keys)
	return keys
}

// exportedDescription describes what a module exported instead of a
// function: its type, and an object's keys.
func exportedDescription(v goja.Value, keys []string) string {
	if _, ok := v.(*goja.Object); !ok {
		return typeOf(v)
	}
	if len(keys) == 0 {
		if className(v.(*goja.Object)) == "Proxy" {
			return "an object"
		}
		return "an empty object (module.exports was never set)"
	}
	if len(keys) > 8 {
		keys = append(keys[:8:8], "...")
	}
	return "an object with " + strings.Join(keys, ", ") + " but no function named handler or default"
}

var bigIntType = reflect.TypeOf((*big.Int)(nil))

// resultError is a handler result that is not an object (nor undefined).
type resultError struct {
	kind string // typeof the value
	text string // a primitive's value, for the hint
}

func (e *resultError) Error() string { return fmt.Sprintf("%s, got %s", errNotObject, e.kind) }

func (e *resultError) Unwrap() error { return errNotObject }

// notObject is the error of a result that is not an object.
func notObject(v goja.Value) error {
	e := &resultError{kind: typeOf(v)}
	if _, isObj := v.(*goja.Object); !isObj && v != nil {
		switch v.ExportType().Kind() {
		case reflect.String:
			e.kind = "string"
		case reflect.Int, reflect.Int64, reflect.Float64:
			e.kind = "number"
		case reflect.Bool:
			e.kind = "boolean"
		case reflect.Pointer:
			if v.ExportType() == bigIntType {
				e.kind = "bigint"
			}
		}
		e.text = describePrimitive(v)
	}
	if len(e.text) > 200 {
		e.text = cut(e.text[:200])
	}
	return e
}

// explain turns an error of a call of prog into one an author can act
// on: a result that is not an object is reported at the return that gave
// it, with the shape a result has.
func (prog *Program) explain(err error) error {
	var re *resultError
	if !errors.As(err, &re) {
		return err
	}
	e := &Error{File: prog.Name, Line: max(prog.Line, 1), Column: 1, cause: err}
	what := re.kind
	switch re.kind {
	case "string":
		what = "the string " + strconv.Quote(re.text)
	case "number", "boolean", "bigint":
		what = re.kind + " " + re.text
	}
	e.Message = "TypeError: the handler returned " + what + ", not an object"
	// The return that gave it: a literal of that value, else of that type.
	found := false
	for pass := 0; pass < 2 && !found; pass++ {
		for _, r := range prog.info.returns {
			if r.kind == re.kind && (pass == 1 || r.text == re.text) {
				e.File, e.Line, e.Column = r.file, r.at.line, r.at.col
				found = true
				break
			}
		}
	}
	if re.kind == "string" && re.text != "" && len(re.text) < 40 && !strings.ContainsAny(re.text, "\"\\\n") {
		e.Hint = fmt.Sprintf("a handler returns an object of result fields: return { decision: %q, reason: \"...\" }, or nothing for no opinion", re.text)
	} else {
		e.Hint = "a handler returns an object of result fields, e.g. return { decision: \"deny\", reason: \"...\" }, or nothing for no opinion"
	}
	return e
}
