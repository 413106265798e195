package hcl

import (
	"fmt"
	"strings"
	"time"

	hcl2 "github.com/hashicorp/hcl/v2"

	"github.com/hookctl/hookctl/engine"
)

// HookBlock is a decoded hook block: the engine's view of the hook with
// everything but the handler of a code-running kind, which Kind names and
// Body holds undecoded for that kind's factory (package assemble). A
// declarative hook (decision, reason, ... attributes) has Kind
// "declarative" and its engine.Static handler already set.
type HookBlock struct {
	Hook engine.Hook
	// Kind is the handler kind: declarative, js, ts, script, command, http,
	// prompt or agent.
	Kind string
	// Allow lists the capabilities the hook's scripts are given, written
	// at AllowRange.
	Allow      []string
	AllowRange Range
	// Body is the handler's part of the block.
	Body *Body
	// Invalid is set when decoding the block found errors (they are in
	// the Config's Diagnostics): the hook is kept so that the engine's
	// checks can still report its other problems, but it is not built.
	Invalid bool
	// Range is where the block is declared; Ranges where each of its
	// attributes' values is written.
	Range  Range
	Ranges map[string]Range
}

// RangeOf returns where the attribute a problem names is written (an
// engine.HookConfigError's Field), else the block's header.
func (hb *HookBlock) RangeOf(field string) Range {
	names := []string{field}
	if field == "event" {
		names = append(names, "events")
	}
	for _, n := range names {
		if r, ok := hb.Ranges[n]; ok {
			return r
		}
	}
	return hb.Range
}

// BuiltinBlock is a decoded builtin block: which hook of the built-in pack
// to enable and its options, undecoded beyond plain Go values.
type BuiltinBlock struct {
	Name string
	// ID renames the hook(s) the built-in adds ("" keeps their names).
	ID string
	// Priority overrides the built-in's priority when set.
	Priority *int
	// Enabled is false for `enabled = false`.
	Enabled bool
	// Options holds every other attribute as plain Go data, and
	// OptionRanges where each was written.
	Options      map[string]any
	OptionRanges map[string]Range
	// Range is the block's header; NameRange its label.
	Range, NameRange Range
}

// Range is a span of a configuration file, for diagnostics.
type Range = hcl2.Range

// Pos is a position in a configuration file.
type Pos = hcl2.Pos

// Body is the kind-specific part of a hook block: the handler attribute
// (js, ts, script, command) and the hook attributes beside it (env, cwd), or
// the handler block (http, prompt, agent). A kind's factory reads it by
// attribute name; every problem, whether found while evaluating or
// reported by the factory with Errorf, becomes a diagnostic of the
// configuration with the attribute's range. A Body is used by one
// goroutine, during the load.
type Body struct {
	l      *loader
	kind   string
	attrs  hcl2.Attributes // the hook's own attributes
	block  *hcl2.Block     // http, prompt, agent
	battrs hcl2.Attributes // the handler block's attributes once decoded
	events []engine.EventSpec
	id     string
}

// Schema names the attributes of a handler block.
type Schema struct {
	Required, Optional []string
}

// Kind is the handler kind.
func (b *Body) Kind() string { return b.kind }

// ID is the hook's id.
func (b *Body) ID() string { return b.id }

// Dir is the configuration directory (absolute).
func (b *Body) Dir() string { return b.l.dir }

// ProjectDir is the project directory given to the loader ("" if none).
func (b *Body) ProjectDir() string { return b.l.projectDir }

// Path resolves p against the configuration directory.
func (b *Body) Path(p string) string { return b.l.path(p) }

// Getenv reads the environment the configuration is evaluated with.
func (b *Body) Getenv(name string) (string, bool) { return b.l.getenv(name) }

// Settings is the configuration's settings block.
func (b *Body) Settings() *Settings { return &b.l.cfg.Settings }

// Events are the specs of the events the hook runs on.
func (b *Body) Events() []engine.EventSpec { return b.events }

// Decode decodes the handler block's attributes against s, reporting
// missing and unexpected ones; false when it has errors.
func (b *Body) Decode(s Schema) bool {
	if b.block == nil {
		return true
	}
	schema := &hcl2.BodySchema{}
	for _, n := range s.Required {
		schema.Attributes = append(schema.Attributes, hcl2.AttributeSchema{Name: n, Required: true})
	}
	for _, n := range s.Optional {
		schema.Attributes = append(schema.Attributes, hcl2.AttributeSchema{Name: n})
	}
	c, d := b.block.Body.Content(schema)
	b.l.diags = append(b.l.diags, d...)
	b.battrs = c.Attributes
	return !d.HasErrors()
}

// attr finds an attribute: in the handler block once decoded, else among
// the hook's attributes.
func (b *Body) attr(name string) *hcl2.Attribute {
	if b.battrs != nil {
		return b.battrs[name]
	}
	return b.attrs[name]
}

// Has reports whether the attribute is set.
func (b *Body) Has(name string) bool { return b.attr(name) != nil }

// Names lists the attributes set, in no particular order.
func (b *Body) Names() []string {
	src := b.attrs
	if b.battrs != nil {
		src = b.battrs
	}
	out := make([]string, 0, len(src))
	for n := range src {
		out = append(out, n)
	}
	return out
}

// Str evaluates a string attribute ("" and true when it is not set).
func (b *Body) Str(name string) (string, bool) {
	a := b.attr(name)
	if a == nil {
		return "", true
	}
	return b.l.ev.str(a)
}

// Strings evaluates a list of strings.
func (b *Body) Strings(name string) ([]string, bool) {
	a := b.attr(name)
	if a == nil {
		return nil, true
	}
	return b.l.ev.strings(a)
}

// Int evaluates a whole number.
func (b *Body) Int(name string) (int, bool) {
	a := b.attr(name)
	if a == nil {
		return 0, true
	}
	return b.l.ev.integer(a)
}

// Bool evaluates a bool.
func (b *Body) Bool(name string) (bool, bool) {
	a := b.attr(name)
	if a == nil {
		return false, true
	}
	return b.l.ev.boolean(a)
}

// Duration evaluates a duration written as a string ("5s").
func (b *Body) Duration(name string) (time.Duration, bool) {
	a := b.attr(name)
	if a == nil {
		return 0, true
	}
	return b.l.ev.duration(a)
}

// Value evaluates an attribute into plain Go data: string, bool, int64,
// float64, []any, map[string]any or nil.
func (b *Body) Value(name string) (any, bool) {
	a := b.attr(name)
	if a == nil {
		return nil, true
	}
	return b.l.ev.goValue(a)
}

// Range is where an attribute's value is written; the block's header for
// "" or an attribute that is not set.
func (b *Body) Range(name string) Range {
	if a := b.attr(name); a != nil {
		return a.Expr.Range()
	}
	if b.block != nil {
		return b.block.DefRange
	}
	if a := b.attrs[b.kind]; a != nil {
		return a.Expr.Range()
	}
	return Range{}
}

// Errorf reports an error at the attribute's value (see Range).
func (b *Body) Errorf(name, summary, format string, args ...any) {
	b.l.ev.errorf(b.Range(name), summary, format, args...)
}

// Warnf reports a warning at the attribute's value.
func (b *Body) Warnf(name, summary, format string, args ...any) {
	b.l.ev.warnf(b.Range(name), summary, format, args...)
}

// Inline describes the string value of an attribute as source text
// embedded in the file, so that positions inside it map back to the file.
type Inline struct {
	// Text is the attribute's value.
	Text string
	// File is the configuration file and Line the line of the file the
	// text's first line is on.
	File string
	Line int
	b    *Body
	a    *hcl2.Attribute
}

// Inline evaluates a string attribute that holds source code (a js or ts
// body).
func (b *Body) Inline(name string) (Inline, bool) {
	a := b.attr(name)
	if a == nil {
		return Inline{}, false
	}
	text, ok := b.l.ev.str(a)
	if !ok {
		return Inline{}, false
	}
	r := a.Expr.Range()
	line := r.Start.Line
	if b.l.isHeredoc(r) {
		line++
	}
	return Inline{Text: text, File: r.Filename, Line: line, b: b, a: a}, true
}

// ErrorAt reports an error at a position of the file inside the inline
// text: line is a line of the file, col a column of the text's line.
func (in Inline) ErrorAt(line, col int, summary, detail string) {
	r := in.a.Expr.Range()
	c := in.b.l.bodyColumn(r, in.Text, in.Line, line, col)
	rr := hcl2.Range{Filename: r.Filename, Start: hcl2.Pos{Line: line, Column: c}, End: hcl2.Pos{Line: line, Column: c + 1}}
	in.b.l.ev.errorf(rr, summary, "%s", detail)
}

// Columns returns, for each line of the text, the columns to add to a
// column of that line to make it a column of the file: the indentation a
// heredoc took off, the text in front of a quoted string's opening quote.
func (in Inline) Columns() []int {
	r := in.a.Expr.Range()
	out := make([]int, strings.Count(strings.TrimSuffix(in.Text, "\n"), "\n")+1)
	if !in.b.l.isHeredoc(r) {
		// Only the first line is offset: it starts after the quote.
		out[0] = r.Start.Column
		return out
	}
	// A heredoc's lines lost their common indent: the column of a line's
	// text in the file is that indent (bodyColumn, for every line at
	// once), read from the file's line index, not a copy of the file.
	value := in.Text
	for i := range out {
		v := value
		if j := strings.IndexByte(value, '\n'); j >= 0 {
			v, value = value[:j], value[j+1:]
		} else {
			value = ""
		}
		if line, ok := in.b.l.fileLine(r.Filename, in.Line+i); ok {
			out[i] = indentWidth(line) - indentWidth(v)
		}
	}
	return out
}

// indentWidth is the number of leading spaces and tabs of s.
func indentWidth(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// ErrorAtFile reports an error at a position inside the inline text
// given as the file's line and column.
func (in Inline) ErrorAtFile(line, col int, summary, detail string) {
	r := in.a.Expr.Range()
	rr := hcl2.Range{Filename: r.Filename, Start: hcl2.Pos{Line: line, Column: col}, End: hcl2.Pos{Line: line, Column: col + 1}}
	in.b.l.ev.errorf(rr, summary, "%s", detail)
}

// Ref records a file the hook reads (a script, a program), relative to
// the configuration directory or absolute.
func (b *Body) Ref(path string) {
	if path != "" {
		b.l.refs = append(b.l.refs, b.l.path(path))
	}
}

func (b *Body) String() string { return fmt.Sprintf("%s handler of hook %q", b.kind, b.id) }
