package hcl

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/internal/safefile"
)

// MaxPayloadFile bounds a test's payload_file.
const MaxPayloadFile = 64 << 20

// TestBlock is a decoded `test` block of a test file (*_test.hcl): the
// event to fire, its payload and environment, and what the outcome must
// be. It is inert data; package hooktest runs it.
type TestBlock struct {
	// Name is the block's label, unique across the test files.
	Name string
	// Event is the event to fire; "" when the block names none (the
	// payload's hook_event_name then names it).
	Event string
	// Payload is the payload (payload or payload_file) with the set
	// assignments applied; never nil. A relative cwd in it is made
	// absolute against the test file's directory.
	Payload map[string]any
	// Env sets environment variables for the test's command hooks.
	Env map[string]string
	// Expect is the expect block; nil when the test has none.
	Expect *Expect
	// Range is the block's header; Ranges where each attribute's value is
	// written.
	Range  Range
	Ranges map[string]Range
}

// Expect is what a test expects of the outcome. Each field is checked only
// when the block sets it (Has).
type Expect struct {
	Decision          string
	Blocked           bool
	ReasonContains    string
	AdditionalContext string
	// AdditionalContextContains must be a part of the outcome's
	// additional_context (every hook's context joined).
	AdditionalContextContains string
	// UpdatedInput is expected to hold every key it gives (nil: the test
	// expects no rewrite); Output and State likewise.
	UpdatedInput map[string]any
	Output       map[string]any
	State        map[string]any
	// Hooks maps a hook id to the status it must have (engine.Status),
	// written at HookRanges[id].
	Hooks      map[string]engine.Status
	HookRanges map[string]Range
	// Range is the block's header; Ranges where each attribute's value is
	// written.
	Range  Range
	Ranges map[string]Range
}

// Has reports whether the expect block sets the attribute.
func (e *Expect) Has(attr string) bool {
	_, ok := e.Ranges[attr]
	return ok
}

// Tests is the decoded test files of a configuration.
type Tests struct {
	// Files are the test files, in the order given.
	Files []string
	// Tests are the test blocks in file order.
	Tests []*TestBlock

	l *loader
}

// Diagnostics returns the problems found while decoding, and those
// recorded with Errorf, with the sources for snippets.
func (t *Tests) Diagnostics() *Diagnostics {
	return fromHCL(append(append(hcl2.Diagnostics(nil), t.l.diags...), t.l.ev.diags...), t.l.parser.Files())
}

// Errorf records an error at r, for checks made after decoding (an event
// the engine does not know, a hook it does not have).
func (t *Tests) Errorf(r Range, summary, format string, args ...any) {
	t.l.ev.errorf(r, summary, format, args...)
}

// Warnf records a warning at r.
func (t *Tests) Warnf(r Range, summary, format string, args ...any) {
	t.l.ev.warnf(r, summary, format, args...)
}

var testFileSchema = &hcl2.BodySchema{
	Blocks: []hcl2.BlockHeaderSchema{
		{Type: "locals"},
		{Type: "test", LabelNames: []string{"name"}},
	},
}

var testSchema = &hcl2.BodySchema{
	Attributes: []hcl2.AttributeSchema{
		{Name: "event"}, {Name: "payload"}, {Name: "payload_file"}, {Name: "set"}, {Name: "env"},
		{Name: "description"},
	},
	Blocks: []hcl2.BlockHeaderSchema{{Type: "expect"}},
}

var expectSchema = &hcl2.BodySchema{
	Attributes: []hcl2.AttributeSchema{
		{Name: "decision"}, {Name: "blocked"}, {Name: "reason_contains"}, {Name: "hooks"},
		{Name: "updated_input"}, {Name: "additional_context"}, {Name: "additional_context_contains"},
		{Name: "output"}, {Name: "state"},
	},
}

// schemaNames lists the attribute names of a schema, in its order, for a
// diagnostic that names the valid ones.
func schemaNames(s *hcl2.BodySchema) string {
	names := make([]string, len(s.Attributes))
	for i, a := range s.Attributes {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// nameValid adds to each "Unsupported argument" diagnostic (an unknown
// attribute) of a block the attributes it takes: HCL's own detail names
// the closest one at most.
func nameValid(ds hcl2.Diagnostics, block string, s *hcl2.BodySchema) hcl2.Diagnostics {
	for _, d := range ds {
		if d.Summary == "Unsupported argument" {
			d.Detail += fmt.Sprintf(" %s takes %s.", block, schemaNames(s))
		}
	}
	return ds
}

// statuses are the statuses a test may expect of a hook.
var statuses = []string{
	string(engine.StatusDecided), string(engine.StatusRan), string(engine.StatusSkipped),
	string(engine.StatusError), string(engine.StatusTimeout), string(engine.StatusQueued),
}

// ParseTests decodes test files (see TestFiles): `test` blocks and the
// `locals` they share, evaluated with the configuration's functions
// (file() confined to the directory of the first file). Problems are the
// result's Diagnostics, every one with its file:line:column; decoding goes
// on after one.
func ParseTests(files []string, opts ...Option) *Tests {
	dir := "."
	if len(files) > 0 {
		dir = filepath.Dir(files[0])
	}
	l := newLoader(dir, opts)
	l.ev.ctx = &hcl2.EvalContext{Functions: functions(l.dir, l.getenv, func(string) {}, l.fileCheck)}
	t := &Tests{Files: files, l: l}
	var locals, tests []*hcl2.Block
	for _, p := range files {
		f, d := l.parseFile(p)
		l.diags = append(l.diags, parsed(d)...)
		if f == nil || d.HasErrors() {
			// The syntax errors say it all: what could be decoded of
			// the file would only add errors that follow from them.
			continue
		}
		content, d := f.Body.Content(testFileSchema)
		l.diags = append(l.diags, d...)
		for _, b := range content.Blocks {
			if b.Type == "locals" {
				locals = append(locals, b)
			} else {
				tests = append(tests, b)
			}
		}
	}
	l.decodeLocals(locals)
	seen := map[string]Range{}
	for _, b := range tests {
		name := b.Labels[0]
		if strings.TrimSpace(name) == "" {
			l.ev.errorf(b.LabelRanges[0], "Empty test name", "A test needs a name: test \"rm is denied\" { ... }.")
			continue
		}
		if prev, dup := seen[name]; dup {
			l.ev.errorf(b.LabelRanges[0], "Duplicate test name", "Test %q is already declared at %s; test names must be unique.", name, at(prev))
			continue
		}
		seen[name] = b.LabelRanges[0]
		if tb := l.decodeTest(b); tb != nil {
			t.Tests = append(t.Tests, tb)
		}
	}
	return t
}

// decodeTest decodes one test block; nil when it has errors.
func (l *loader) decodeTest(b *hcl2.Block) *TestBlock {
	errsBefore := l.errorCount()
	content, d := b.Body.Content(testSchema)
	l.diags = append(l.diags, nameValid(d, "A test block", testSchema)...)
	tb := &TestBlock{Name: b.Labels[0], Range: b.DefRange, Ranges: map[string]Range{}, Payload: map[string]any{}}
	attrs := content.Attributes
	for name, a := range attrs {
		tb.Ranges[name] = a.Expr.Range()
	}
	if a := attrs["event"]; a != nil {
		tb.Event, _ = l.ev.str(a)
		if tb.Event == "" {
			l.ev.errorf(a.Expr.Range(), "Empty event", "Name the event to fire, or leave event out to fire the payload's hook_event_name.")
		}
	}
	if a := attrs["description"]; a != nil {
		l.ev.str(a)
	}
	if attrs["payload"] != nil && attrs["payload_file"] != nil {
		l.ev.errorf(attrs["payload_file"].NameRange, "Two payloads",
			"A test has payload or payload_file, not both (payload is at %s); set = {...} changes fields of either.", at(attrs["payload"].NameRange))
	} else if a := attrs["payload"]; a != nil {
		if v, ok := l.ev.goValue(a); ok {
			if m, isObj := v.(map[string]any); isObj {
				tb.Payload = m
			} else if v != nil {
				l.ev.errorf(a.Expr.Range(), "Invalid payload", "The payload is an object: payload = { tool_name = \"Bash\", ... }.")
			}
		}
	} else if a := attrs["payload_file"]; a != nil {
		if p, ok := l.ev.str(a); ok {
			m, err := readPayloadFile(b.DefRange.Filename, p)
			if err != nil {
				l.ev.errorf(a.Expr.Range(), "Invalid payload file", "%s.", err)
			} else {
				tb.Payload = m
			}
		}
	}
	if a := attrs["set"]; a != nil {
		l.applySets(tb.Payload, a)
	}
	if cwd, ok := tb.Payload["cwd"].(string); ok && cwd != "" && !filepath.IsAbs(cwd) {
		// Fixtures work wherever the tests run from.
		tb.Payload["cwd"] = filepath.Join(filepath.Dir(absPath(b.DefRange.Filename)), cwd)
	}
	if a := attrs["env"]; a != nil {
		if v, ok := l.ev.value(a, cty.Map(cty.String)); ok && !v.IsNull() {
			tb.Env = map[string]string{}
			for it := v.ElementIterator(); it.Next(); {
				k, e := it.Element()
				switch {
				case e.IsNull():
					l.ev.errorf(a.Expr.Range(), "Invalid env", "Variable %q must be a string, not null.", k.AsString())
				case k.AsString() == "" || strings.ContainsAny(k.AsString(), "=\x00"):
					l.ev.errorf(a.Expr.Range(), "Invalid env", "%q is not an environment variable name.", k.AsString())
				case strings.ContainsRune(e.AsString(), 0):
					l.ev.errorf(a.Expr.Range(), "Invalid env", "The value of %q holds a NUL byte.", k.AsString())
				default:
					tb.Env[k.AsString()] = e.AsString()
				}
			}
		}
	}
	for i, eb := range content.Blocks {
		if i == 0 {
			tb.Expect = l.decodeExpect(eb)
			continue
		}
		l.ev.errorf(eb.DefRange, "Duplicate expect block", "A test has one expect block (the first is at %s).", at(content.Blocks[0].DefRange))
	}
	if l.errorCount() > errsBefore {
		return nil
	}
	return tb
}

func (l *loader) decodeExpect(b *hcl2.Block) *Expect {
	content, d := b.Body.Content(expectSchema)
	l.diags = append(l.diags, nameValid(d, "An expect block", expectSchema)...)
	e := &Expect{Range: b.DefRange, Ranges: map[string]Range{}}
	object := func(a *hcl2.Attribute) map[string]any {
		v, ok := l.ev.goValue(a)
		if !ok || v == nil {
			return nil
		}
		m, isObj := v.(map[string]any)
		if !isObj {
			l.ev.errorf(a.Expr.Range(), "Invalid expectation", "%s is an object: %s = { key = value }.", a.Name, a.Name)
		}
		return m
	}
	for name, a := range content.Attributes {
		e.Ranges[name] = a.Expr.Range()
		switch name {
		case "decision":
			e.Decision, _ = l.ev.str(a)
		case "blocked":
			e.Blocked, _ = l.ev.boolean(a)
		case "reason_contains":
			e.ReasonContains, _ = l.ev.str(a)
		case "additional_context":
			e.AdditionalContext, _ = l.ev.str(a)
		case "additional_context_contains":
			e.AdditionalContextContains, _ = l.ev.str(a)
		case "updated_input":
			e.UpdatedInput = object(a)
		case "output":
			e.Output = object(a)
		case "state":
			e.State = object(a)
		case "hooks":
			e.Hooks, e.HookRanges = l.expectHooks(a)
		}
	}
	return e
}

// expectHooks decodes hooks = { id = "status" }, each status one of the
// engine's.
func (l *loader) expectHooks(a *hcl2.Attribute) (map[string]engine.Status, map[string]Range) {
	pairs, d := hcl2.ExprMap(a.Expr)
	if d.HasErrors() {
		l.ev.errorf(a.Expr.Range(), "Invalid hooks", "hooks is an object of hook id = \"status\": hooks = { no-rm = \"decided\" }.")
		return nil, nil
	}
	out, at := map[string]engine.Status{}, map[string]Range{}
	for _, kv := range pairs {
		id, ok := l.keyString(kv.Key, "hooks")
		if !ok {
			continue
		}
		v, d := kv.Value.Value(l.ev.ctx)
		l.ev.diags = append(l.ev.diags, d...)
		if d.HasErrors() {
			continue
		}
		if v.IsNull() || !v.IsWhollyKnown() || v.Type() != cty.String {
			l.ev.errorf(kv.Value.Range(), "Invalid hook status", "The status of hook %q is a string, one of %s.", id, strings.Join(statuses, ", "))
			continue
		}
		s := v.AsString()
		if !slices.Contains(statuses, s) {
			l.ev.errorf(kv.Value.Range(), "Invalid hook status", "%q is not a hook status: want one of %s.", s, strings.Join(statuses, ", "))
			continue
		}
		out[id], at[id] = engine.Status(s), kv.Value.Range()
	}
	return out, at
}

// keyString evaluates an object key: a bare name (no-rm) or a string.
func (l *loader) keyString(k hcl2.Expression, attr string) (string, bool) {
	v, d := k.Value(l.ev.ctx)
	if d.HasErrors() || v.IsNull() || !v.IsWhollyKnown() || v.Type() != cty.String {
		l.ev.errorf(k.Range(), "Invalid key", "The keys of %s are names or strings.", attr)
		return "", false
	}
	return v.AsString(), true
}

// applySets applies set = { "dotted.path" = value } to payload, shortest
// paths first (so "tool_input" is set before "tool_input.command").
func (l *loader) applySets(payload map[string]any, a *hcl2.Attribute) {
	pairs, d := hcl2.ExprMap(a.Expr)
	if d.HasErrors() {
		l.ev.errorf(a.Expr.Range(), "Invalid set", "set is an object of \"dotted.path\" = value: set = { \"tool_input.command\" = \"ls\" }.")
		return
	}
	type assignment struct {
		path string
		val  any
		at   Range
	}
	var all []assignment
	for _, kv := range pairs {
		path, ok := l.keyString(kv.Key, "set")
		if !ok {
			continue
		}
		v, d := kv.Value.Value(l.ev.ctx)
		l.ev.diags = append(l.ev.diags, d...)
		if d.HasErrors() {
			continue
		}
		g, err := toGo(v)
		if err != nil {
			l.ev.errorf(kv.Value.Range(), "Invalid value", "set %q: %s.", path, err)
			continue
		}
		all = append(all, assignment{path, g, kv.Key.Range()})
	}
	sort.SliceStable(all, func(i, j int) bool { return strings.Count(all[i].path, ".") < strings.Count(all[j].path, ".") })
	for _, s := range all {
		if err := SetPath(payload, s.path, s.val); err != nil {
			l.ev.errorf(s.at, "Invalid set", "%s.", err)
		}
	}
}

// SetPath sets the field a dotted path names ("tool_input.command"),
// creating the objects on the way; a path through a value that is not an
// object is an error.
func SetPath(m map[string]any, path string, val any) error {
	parts := strings.Split(path, ".")
	for i, p := range parts {
		if p == "" {
			return fmt.Errorf("%q has an empty segment", path)
		}
		if i == len(parts)-1 {
			m[p] = val
			return nil
		}
		switch n := m[p].(type) {
		case map[string]any:
			m = n
		case nil:
			nm := map[string]any{}
			m[p] = nm
			m = nm
		default:
			return fmt.Errorf("%q: %s is %s, not an object", path, strings.Join(parts[:i+1], "."), kindOf(n))
		}
	}
	return nil
}

func kindOf(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case int64, float64:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

// readPayloadFile reads a JSON object from a regular file, relative to the
// directory of the test file that names it.
func readPayloadFile(testFile, p string) (map[string]any, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(testFile), p)
	}
	f, err := safefile.Open(p) // a FIFO or a device is refused, never waited on
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxPayloadFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxPayloadFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", p, MaxPayloadFile)
	}
	m, err := jsonx.DecodeObject(data)
	if err != nil {
		var ke *jsonx.KindError
		if errors.As(err, &ke) {
			return nil, fmt.Errorf("%s is not a JSON object", p)
		}
		if errors.Is(err, jsonx.ErrTrailing) {
			return nil, fmt.Errorf("%s holds more than one JSON value", p)
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(data, se.Offset)
			return nil, fmt.Errorf("%s:%d:%d: %v", p, line, col, err)
		}
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s is empty: want a JSON object", p)
		}
		return nil, fmt.Errorf("%s: %v", p, err)
	}
	return m, nil
}

// lineCol is the line and column of the byte before offset (a JSON
// syntax error's offset counts the offending byte).
func lineCol(data []byte, offset int64) (int, int) {
	line, col := 1, 1
	for i := int64(0); i < offset-1 && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
