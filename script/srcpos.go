package script

import (
	"cmp"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"

	"github.com/hookctl/hookctl/internal/jsrewrite"
)

// Every position a script error reports is the author's: the file they
// wrote, its line and its 1-based column. goja reports positions in the
// code it compiled; four things stand between that and the author's:
//
//   - an inline JavaScript body is compiled on its own, its first line
//     line 1, under a name of its own (programs.inlineName) whose
//     jsrewrite.Map gives the file and the line it starts on: no program
//     is padded to its file's lines, so compiling a file's bodies costs
//     their size, not their number times the file's;
//   - a source map (TypeScript, ES modules): goja applies it and names the
//     source by the file: URL given to esbuild, with a 0-based column;
//   - the header a wrapper puts in front of the first line (programs.maps,
//     jsrewrite.Map.Shift);
//   - the columns an HCL string took off each line of an inline body (the
//     indentation a heredoc strips, the text before a quoted string's
//     opening quote): cols.
//
// original undoes all three. Load-time analysis of each program (srcinfo)
// is kept in the same author's positions, for the hints errors give.

// pos is a position in an author's file.
type pos struct {
	line, col int
}

func (a pos) before(b pos) bool { return a.line < b.line || a.line == b.line && a.col < b.col }

// compare orders positions, as cmp.Compare does.
func (a pos) compare(b pos) int {
	if c := cmp.Compare(a.line, b.line); c != 0 {
		return c
	}
	return cmp.Compare(a.col, b.col)
}

// span is a range of an author's file, [start, end).
type span struct {
	start, end pos
}

func (s span) contains(p pos) bool { return !p.before(s.start) && p.before(s.end) }

// positions is what turns positions in compiled code into the author's,
// and the loops and functions of the compiled programs, by file.
type positions struct {
	mu sync.Mutex
	// sources maps the file: URL of a source-mapped source to the name
	// its positions are reported under.
	sources map[string]string
	// cols holds, per file and line, the columns to add to a position.
	cols map[linePos]int
	// loops and funcs are the loop statements and functions of each file,
	// by start.
	loops map[string][]loopSpan
	funcs map[string][]span
}

// loopSpan is a loop statement; silent when it has nothing goja could
// place an interrupt on (no test, or a literal one, and an empty body).
type loopSpan struct {
	span
	silent bool
}

// addSource records that positions of the source map source url are
// reported as name.
func (c *programs) addSource(url, name string) {
	c.pos.mu.Lock()
	defer c.pos.mu.Unlock()
	if c.pos.sources == nil {
		c.pos.sources = map[string]string{}
	}
	c.pos.sources[url] = name
}

// addColumns records the columns to add on each line of file from line
// on: deltas[i] is for line+i.
func (c *programs) addColumns(file string, line int, deltas []int) {
	c.pos.mu.Lock()
	defer c.pos.mu.Unlock()
	if c.pos.cols == nil {
		c.pos.cols = map[linePos]int{}
	}
	for i, d := range deltas {
		if d != 0 {
			c.pos.cols[linePos{file, line + i}] = d
		}
	}
}

// original returns the author's file, line and column of a position goja
// reported.
func (c *programs) original(name string, line, col int) (string, int, int) {
	if n, ok := c.source(name); ok {
		name = n
		col++ // a source map's columns are 0-based
	}
	if m, ok := c.inlineMap(name); ok {
		// An inline body's own position (a TypeScript body's source is
		// named by the body's inline name).
		line, col = m.Original(line, col)
		return m.File, line, max(1, col+c.delta(m.File, line))
	}
	if n := c.shift(name, line); n > 0 {
		col = max(1, col-n)
	}
	return name, line, max(1, col+c.delta(name, line))
}

// source returns the author's file a source-mapped position names by its
// file: URL; false for a position in generated code.
func (c *programs) source(name string) (string, bool) {
	if !strings.HasPrefix(name, "file:") {
		return name, false
	}
	c.pos.mu.Lock()
	n, ok := c.pos.sources[name]
	c.pos.mu.Unlock()
	if ok {
		return n, true
	}
	if u, err := url.Parse(name); err == nil && u.Scheme == "file" {
		return u.Path, true
	}
	return name, false
}

// delta returns the columns to add to a position on file:line (an inline
// body's line whose start an HCL string took off).
func (c *programs) delta(name string, line int) int {
	c.pos.mu.Lock()
	defer c.pos.mu.Unlock()
	return c.pos.cols[linePos{name, line}]
}

// position returns the author's position of a node of a program parsed
// from f (with its source map).
func (c *programs) position(f *file.File, idx file.Idx) (string, pos) {
	p := f.Position(int(idx) - f.Base())
	name, line, col := c.original(p.Filename, p.Line, p.Column)
	return name, pos{line, col}
}

// stackFrameTextRE is a frame of a stack goja printed: "\tat name
// (file:line:col(pc))" or "\tat file:line:col(pc)".
var stackFrameTextRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^(\s*at (?:[^\n]*? \()?)([^\n()]+):(\d+):(\d+)(?:\(\d+\))?`)
})

// fixStack rewrites the positions of a stack goja printed (an Error's
// stack property) into the author's, without goja's program counters.
func (c *programs) fixStack(stack string) string {
	return stackFrameTextRE().ReplaceAllStringFunc(stack, func(m string) string {
		sm := stackFrameTextRE().FindStringSubmatch(m)
		line, _ := strconv.Atoi(sm[3])
		col, _ := strconv.Atoi(sm[4])
		name, line, col := c.original(sm[2], line, col)
		return fmt.Sprintf("%s%s:%d:%d", sm[1], name, line, col)
	})
}

// srcinfo is what the load-time analysis of a program found, in the
// author's positions: returns of a literal that is not an object (a
// handler returning "deny"), the functions a module declares at its top
// level, and whether it is written as an ES module.
type srcinfo struct {
	returns  []literalReturn
	declared []declaredFunc
	esm      bool
}

type literalReturn struct {
	file string
	at   pos
	// kind is the typeof of the literal: string, number, boolean; text
	// its value as a string.
	kind, text string
}

type declaredFunc struct {
	name string
	file string
	at   pos
}

// analyze walks a parsed program: it records its loops and functions with
// the pool (for timeouts) and returns what errors about its results and
// exports need. topLevel is the function whose body is the module's top
// level (the module wrapper), nil for an inline body.
func (c *programs) analyze(prg *ast.Program, topLevel func(*ast.FunctionLiteral) bool) srcinfo {
	var info srcinfo
	f := prg.File
	if f == nil {
		return info
	}
	loops := map[string][]loopSpan{}
	funcs := map[string][]span{}
	at := func(n ast.Node) (string, span) {
		name, s := c.position(f, n.Idx0())
		_, e := c.position(f, n.Idx1())
		if e.before(s) {
			e = s
		}
		return name, span{s, e}
	}
	var top *ast.FunctionLiteral
	jsrewrite.Walk(prg, func(n any, enter bool) bool {
		if !enter {
			return true
		}
		switch n := n.(type) {
		case *ast.ForStatement, *ast.ForInStatement, *ast.ForOfStatement, *ast.WhileStatement, *ast.DoWhileStatement:
			name, s := at(n.(ast.Node))
			loops[name] = append(loops[name], loopSpan{s, silentLoop(n)})
		case *ast.FunctionLiteral:
			name, s := at(n)
			funcs[name] = append(funcs[name], s)
			if top == nil && topLevel != nil && topLevel(n) {
				top = n
			}
		case *ast.ArrowFunctionLiteral:
			name, s := at(n)
			funcs[name] = append(funcs[name], s)
		case *ast.ReturnStatement:
			if r, ok := literalOf(n.Argument); ok {
				r.file, r.at = c.position(f, n.Idx0())
				info.returns = append(info.returns, r)
			}
		}
		return true
	})
	if top != nil && top.Body != nil {
		for _, st := range top.Body.List {
			if d, ok := st.(*ast.FunctionDeclaration); ok && d.Function.Name != nil {
				name, p := c.position(f, d.Idx0())
				info.declared = append(info.declared, declaredFunc{name: d.Function.Name.Name.String(), file: name, at: p})
			}
		}
	}
	c.pos.mu.Lock()
	defer c.pos.mu.Unlock()
	if c.pos.loops == nil {
		c.pos.loops, c.pos.funcs = map[string][]loopSpan{}, map[string][]span{}
	}
	for name, l := range loops {
		c.pos.loops[name] = addSorted(c.pos.loops[name], l, func(a, b loopSpan) int { return a.start.compare(b.start) })
	}
	for name, l := range funcs {
		c.pos.funcs[name] = addSorted(c.pos.funcs[name], l, func(a, b span) int { return a.start.compare(b.start) })
	}
	return info
}

// addSorted adds more to sorted, keeping it sorted by cmp (stable). The
// hooks of a file are compiled in the order they appear, so what a
// program adds usually comes after everything before it: then it is only
// appended, and compiling a file's n hooks does not sort n times.
func addSorted[S ~[]E, E any](sorted, more S, cmp func(a, b E) int) S {
	slices.SortStableFunc(more, cmp)
	if len(more) == 0 {
		return sorted
	}
	n := len(sorted)
	sorted = append(sorted, more...)
	if n > 0 && cmp(sorted[n-1], sorted[n]) > 0 {
		slices.SortStableFunc(sorted, cmp)
	}
	return sorted
}

// literalOf describes a returned literal that is not an object.
func literalOf(e ast.Expression) (literalReturn, bool) {
	switch l := e.(type) {
	case *ast.StringLiteral:
		return literalReturn{kind: "string", text: l.Value.String()}, true
	case *ast.TemplateLiteral:
		if l.Tag == nil && len(l.Expressions) == 0 && len(l.Elements) == 1 {
			return literalReturn{kind: "string", text: l.Elements[0].Parsed.String()}, true
		}
		return literalReturn{kind: "string"}, true
	case *ast.NumberLiteral:
		return literalReturn{kind: "number", text: fmt.Sprint(l.Value)}, true
	case *ast.BooleanLiteral:
		return literalReturn{kind: "boolean", text: strconv.FormatBool(l.Value)}, true
	}
	return literalReturn{}, false
}

// silentLoop reports whether a loop has nothing goja could place an
// interrupt on: no test or a literal one, and an empty body.
func silentLoop(n any) bool {
	var test ast.Expression
	var body ast.Statement
	switch l := n.(type) {
	case *ast.ForStatement:
		if l.Initializer != nil || l.Update != nil {
			return false
		}
		test, body = l.Test, l.Body
	case *ast.WhileStatement:
		test, body = l.Test, l.Body
	case *ast.DoWhileStatement:
		test, body = l.Test, l.Body
	default:
		return false
	}
	switch test.(type) {
	case nil, *ast.BooleanLiteral, *ast.NumberLiteral, *ast.StringLiteral:
	default:
		return false
	}
	switch b := body.(type) {
	case *ast.EmptyStatement:
		return true
	case *ast.BlockStatement:
		return len(b.List) == 0
	}
	return false
}

// loopAt returns where an interrupted script really was: goja has no
// position inside a silent loop (`while (true) {}`, `for (;;);`), so it
// places the interrupt on the last expression before it. Such a position
// moves to the first silent loop after it in the same function (and
// inside the same loop, when it is in one).
func (c *programs) loopAt(name string, p pos) pos {
	c.pos.mu.Lock()
	defer c.pos.mu.Unlock()
	loops, funcs := c.pos.loops[name], c.pos.funcs[name]
	var in *loopSpan
	for i, l := range loops {
		if l.contains(p) {
			in = &loops[i] // sorted by start: the last one is innermost
		}
	}
	fn := innermost(funcs, p)
	for _, l := range loops {
		if !l.silent || !p.before(l.start) || innermost(funcs, l.start) != fn {
			continue
		}
		if in != nil && !in.contains(l.start) {
			continue
		}
		return l.start
	}
	return p
}

// innermost returns the innermost span containing p (the zero span for
// none).
func innermost(spans []span, p pos) span {
	var best span
	found := false
	for _, s := range spans {
		if s.contains(p) && (!found || !s.start.before(best.start)) {
			best, found = s, true
		}
	}
	return best
}
