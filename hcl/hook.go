package hcl

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/suggest"
)

// decodeHook turns a hook block into an engine.Hook, reporting every
// problem with the range it comes from.
func (l *loader) decodeHook(b *hcl2.Block) {
	id := b.Labels[0]
	content, d := b.Body.Content(hookSchema)
	l.diags = append(l.diags, d...)
	errsBefore := l.errorCount()
	if prev, dup := l.hookAt[id]; dup {
		l.ev.errorf(b.LabelRanges[0], "Duplicate hook id",
			"Hook %q is already declared at %s; hook ids must be unique.", id, at(prev))
		return
	}
	l.hookAt[id] = b.LabelRanges[0]
	h := engine.Hook{ID: id, Source: fmt.Sprintf("%s:%d", b.DefRange.Filename, b.DefRange.Start.Line)}
	attrs := content.Attributes

	// Events.
	if a := attrs["event"]; a != nil {
		h.Event, _ = l.ev.str(a)
		l.checkEvent(h.Event, a.Expr.Range())
	}
	if a := attrs["events"]; a != nil {
		evs, _ := l.ev.strings(a)
		for _, e := range evs {
			l.checkEvent(e, a.Expr.Range())
		}
		h.Events = evs
	}
	if attrs["event"] == nil && attrs["events"] == nil {
		l.ev.errorf(b.DefRange, "Missing event", "Hook %q needs event = \"...\" or events = [...].", id)
	}
	names := append([]string{h.Event}, h.Events...)

	// Matcher, condition and switches.
	if a := attrs["matcher"]; a != nil {
		h.Matcher, _ = l.ev.str(a)
		l.checkMatcher(h.Matcher, names, a)
	}
	if a := attrs["when"]; a != nil {
		if src, ok := l.ev.str(a); ok {
			h.Condition = l.compileCondition(src, a)
		}
	}
	if a := attrs["priority"]; a != nil {
		h.Priority, _ = l.ev.integer(a)
	}
	if a := attrs["timeout"]; a != nil {
		h.Timeout, _ = l.ev.duration(a)
	}
	if a := attrs["background"]; a != nil {
		h.Background, _ = l.ev.boolean(a)
	}
	if a := attrs["observe"]; a != nil {
		h.Observe, _ = l.ev.boolean(a)
	}
	if a := attrs["enabled"]; a != nil {
		if on, ok := l.ev.boolean(a); ok {
			h.Disabled = !on
		}
	}
	var allow []string
	var allowAt Range
	if a := attrs["allow"]; a != nil {
		allow, _ = l.ev.strings(a)
		allowAt = a.Expr.Range()
	}
	l.decodeOnError(&h, content)

	// Exactly one handler.
	var kinds []string
	var kindRanges []hcl2.Range
	for _, k := range handlerKinds {
		if a := attrs[k]; a != nil {
			kinds, kindRanges = append(kinds, k), append(kindRanges, a.NameRange)
		}
		for _, blk := range content.Blocks {
			if blk.Type == k {
				kinds, kindRanges = append(kinds, k), append(kindRanges, blk.DefRange)
			}
		}
	}
	var declRange *hcl2.Range
	for _, f := range declarativeFields {
		if a := attrs[f]; a != nil && declRange == nil {
			r := a.NameRange
			declRange = &r
		}
	}
	if declRange != nil {
		kinds, kindRanges = append(kinds, "declarative"), append(kindRanges, *declRange)
	}
	switch {
	case len(kinds) == 0:
		l.ev.errorf(b.DefRange, "Missing handler",
			"Hook %q needs exactly one handler: declarative fields (decision, reason, additional_context, ...), js, ts, script, command, http { }, prompt { } or agent { }.", id)
		return
	case len(kinds) > 1:
		l.ev.errorf(kindRanges[1], "Two handlers on one hook",
			"Hook %q has %s and %s; a hook has exactly one handler (split it into two hooks).", id, kinds[0], kinds[1])
		return
	}
	hb := &HookBlock{Kind: kinds[0], Allow: allow, AllowRange: allowAt, Range: b.DefRange, Ranges: map[string]Range{}}
	for n, a := range attrs {
		hb.Ranges[n] = a.Expr.Range()
	}
	if hb.Kind == "declarative" {
		h.Handler = l.declarative(content)
	} else {
		hb.Body = &Body{l: l, kind: hb.Kind, attrs: attrs, block: blockOf(content, hb.Kind), id: id}
		for _, n := range names {
			if spec, ok := l.lookupEvent(n); ok && n != "" {
				hb.Body.events = append(hb.Body.events, spec)
			}
		}
		l.noteRefs(hb.Body)
	}
	hb.Invalid = l.errorCount() > errsBefore
	hb.Hook = h
	l.cfg.Hooks = append(l.cfg.Hooks, hb)
}

// noteRefs records the files a handler names, for trust: a script file;
// the words of a command (an argv, or a shell line split on blanks) that
// name a file inside the configuration directory, an existing one or a
// missing one written like a file name (so that one added later is a
// change).
func (l *loader) noteRefs(b *Body) {
	a := b.attrs[b.kind]
	if a == nil {
		return
	}
	v, d := a.Expr.Value(l.ev.ctx)
	if d.HasErrors() || !v.IsWhollyKnown() || v.IsNull() {
		return
	}
	g, err := toGo(v)
	if err != nil {
		return
	}
	switch b.kind {
	case "script":
		if p, ok := g.(string); ok && p != "" {
			b.Ref(p)
		}
	case "command":
		for _, f := range CommandFiles(l.dir, g) {
			b.Ref(f)
		}
	}
}

// CommandFiles lists the files a command (a shell line or an argv, as
// decoded) names inside the configuration directory dir, as absolute
// paths: its words that are existing regular files, or look like file
// names (a slash or an extension), so that one added later is seen.
func CommandFiles(dir string, command any) []string {
	var words []string
	switch c := command.(type) {
	case string:
		for _, w := range strings.Fields(c) {
			words = append(words, strings.Trim(w, `"';&|()<>`))
		}
	case []any:
		for _, x := range c {
			if s, ok := x.(string); ok {
				words = append(words, s)
			}
		}
	}
	var out []string
	for _, w := range words {
		if w == "" || strings.ContainsAny(w, "$`*?\n") {
			continue
		}
		f := w
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		f = filepath.Clean(f)
		rel, err := filepath.Rel(dir, f)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue // outside the configuration directory
		}
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() || fileWordRE().MatchString(w) {
			out = append(out, f)
		}
	}
	return out
}

// fileWordRE is a command word that looks like a file name: it has a
// slash or an extension.
var fileWordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`/|\.[A-Za-z0-9]{1,8}$`) })

// errorCount counts the errors so far (warnings do not stop a hook).
func (l *loader) errorCount() int {
	n := 0
	for _, ds := range []hcl2.Diagnostics{l.diags, l.ev.diags} {
		for _, d := range ds {
			if d.Severity == hcl2.DiagError {
				n++
			}
		}
	}
	return n
}

func blockOf(c *hcl2.BodyContent, typ string) *hcl2.Block {
	for _, b := range c.Blocks {
		if b.Type == typ {
			return b
		}
	}
	return nil
}

func (l *loader) checkEvent(name string, r hcl2.Range) {
	if name == "" {
		return
	}
	if _, ok := l.lookupEvent(name); !ok {
		detail := fmt.Sprintf("%q is not an event of the catalog or of this configuration.", name)
		if s := suggest.Closest(name, l.knownEventNames()); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		detail += " Run `hookctl events` for the list, or declare it with an event block."
		l.ev.errorf(r, "Unknown event", "%s", detail)
	}
}

// checkMatcher compiles the matcher for every event's syntax and warns
// about the traps users hit.
func (l *loader) checkMatcher(m string, events []string, a *hcl2.Attribute) {
	for _, e := range events {
		spec, ok := l.lookupEvent(e)
		if !ok || e == "" {
			continue
		}
		if spec.MatcherField == "" && strings.TrimSpace(m) != "" && m != "*" {
			l.ev.warnf(a.Expr.Range(), "Matcher has no effect",
				"Event %s has no matcher field, so this matcher matches everything (as in Claude Code). Use when = \"...\" to filter.", spec.Name)
		}
	}
	if permissionRuleRE().MatchString(m) {
		l.ev.warnf(a.Expr.Range(), "Matcher looks like a permission rule",
			"%q is permission-rule syntax (Tool(pattern)); a matcher names tools, e.g. matcher = \"Bash\" with when = \"tool_input.command startsWith 'git '\".", m)
	}
}

// compileCondition compiles a when expression, mapping an error's
// position into the HCL file.
func (l *loader) compileCondition(src string, a *hcl2.Attribute) *conditions.Program {
	if p, ok := l.compiled[src]; ok {
		return p
	}
	if l.compiled == nil {
		l.compiled = map[string]*conditions.Program{}
	}
	p, err := l.conds.Compile(src)
	if err == nil {
		l.compiled[src] = p
		return p
	}
	r := a.Expr.Range()
	var ce *conditions.Error
	if errors.As(err, &ce) {
		r = l.innerRange(a, ce.Line, ce.Column)
		detail := ce.Message
		if ce.Snippet != "" {
			detail += "\n" + ce.Snippet
		}
		if strings.Contains(ce.Message, "invalid char escape") {
			detail += "\nexpr's quoted strings process escapes: write regexes in backticks, e.g. matches `\\brm\\s+-rf`."
		}
		l.ev.errorf(r, "Invalid condition", "%s", detail)
		return nil
	}
	l.ev.errorf(r, "Invalid condition", "%s", err)
	return nil
}

// innerRange maps a (line, column) inside a string attribute's value to
// the file: a quoted string starts one column after its opening quote, a
// heredoc on the line after its marker.
func (l *loader) innerRange(a *hcl2.Attribute, line, col int) hcl2.Range {
	r := a.Expr.Range()
	pos := r.Start
	if _, ok := a.Expr.(*hclsyntax.TemplateExpr); ok && l.isHeredoc(r) {
		pos.Line += line
		pos.Column = col
	} else {
		pos.Line += line - 1
		if line == 1 {
			pos.Column += col
		} else {
			pos.Column = col
		}
	}
	end := pos
	end.Column++
	return hcl2.Range{Filename: r.Filename, Start: pos, End: end}
}

func (l *loader) isHeredoc(r hcl2.Range) bool {
	f := l.parser.Files()[r.Filename]
	if f == nil || r.Start.Byte >= len(f.Bytes) {
		return false
	}
	return bytes.HasPrefix(f.Bytes[r.Start.Byte:], []byte("<<"))
}

func (l *loader) decodeOnError(h *engine.Hook, c *hcl2.BodyContent) {
	if a := c.Attributes["on_error"]; a != nil {
		if s, ok := l.ev.str(a); ok {
			p, known := engine.ParseErrorPolicy(s)
			if !known || s == "" {
				l.ev.errorf(a.Expr.Range(), "Invalid on_error", "on_error must be \"ignore\", \"block\" or \"retry\", not %q.", s)
			}
			h.OnError.Policy = p
		}
	}
	var retry *hcl2.Block
	for _, b := range c.Blocks {
		if b.Type == "retry" {
			if retry != nil {
				l.ev.errorf(b.DefRange, "Duplicate retry block", "A hook has at most one retry block.")
				continue
			}
			retry = b
		}
	}
	if retry == nil {
		if h.OnError.Policy == engine.ErrorRetry {
			h.OnError.Attempts = 3
		}
		return
	}
	rc, d := retry.Body.Content(retrySchema)
	l.diags = append(l.diags, d...)
	h.OnError.Attempts = 3
	if a := rc.Attributes["attempts"]; a != nil {
		if n, ok := l.ev.integer(a); ok {
			if n < 1 || n > 20 {
				l.ev.errorf(a.Expr.Range(), "Invalid retry", "attempts must be between 1 and 20.")
			}
			h.OnError.Attempts = n
		}
	}
	if a := rc.Attributes["backoff"]; a != nil {
		h.OnError.Backoff, _ = l.ev.duration(a)
	}
	if h.OnError.Policy != engine.ErrorRetry {
		l.ev.errorf(retry.DefRange, "Retry without on_error = \"retry\"", "A retry block only applies with on_error = \"retry\".")
	}
}

// declarative builds the no-code handler from the result attributes.
func (l *loader) declarative(c *hcl2.BodyContent) engine.Handler {
	res := engine.Result{}
	for _, f := range declarativeFields {
		a := c.Attributes[f]
		if a == nil {
			continue
		}
		v, ok := l.ev.goValue(a)
		if !ok {
			continue
		}
		switch f {
		case "result":
			m, isMap := v.(map[string]any)
			if !isMap {
				l.ev.errorf(a.Expr.Range(), "Invalid result", "result must be an object of result fields.")
				continue
			}
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if own := c.Attributes[k]; own != nil && k != "result" {
					// A reviewer reading decision = "deny" must not
					// have it undone by result = { decision = "allow" }.
					l.ev.errorf(a.Expr.Range(), "Invalid result", "result sets %s, which the hook also sets with its own attribute (line %d): set it once.", k, own.Range.Start.Line)
					continue
				}
				res[k] = m[k]
			}
		case "continue", "suppress_output":
			if _, isBool := v.(bool); !isBool {
				l.ev.errorf(a.Expr.Range(), "Incorrect attribute value type", "%s must be a bool.", f)
				continue
			}
			res[f] = v
		case "updated_input":
			if _, isMap := v.(map[string]any); !isMap {
				l.ev.errorf(a.Expr.Range(), "Incorrect attribute value type", "updated_input must be an object (the whole tool input).")
				continue
			}
			res[f] = v
		default:
			if _, isStr := v.(string); !isStr {
				l.ev.errorf(a.Expr.Range(), "Incorrect attribute value type", "%s must be a string.", f)
				continue
			}
			res[f] = v
		}
	}
	return engine.Static(res)
}

// bodyColumn maps a column in a js or ts string's value to the file: a quoted
// string's first line starts after its opening quote; a heredoc's lines
// lost their common indentation.
func (l *loader) bodyColumn(r hcl2.Range, body string, firstLine, line, col int) int {
	idx := line - firstLine
	if !l.isHeredoc(r) {
		if idx == 0 {
			return r.Start.Column + col
		}
		return col
	}
	fileLine, ok := l.fileLine(r.Filename, line)
	value, vok := nthLine(body, idx)
	if !ok || !vok {
		return col
	}
	return col + indentWidth(fileLine) - indentWidth(value)
}

// lineStarts returns the byte offsets at which the lines of a parsed
// configuration file start, computed once per file: an inline body's
// positions are mapped through it in the time of the body, whatever
// the size of the file and the number of bodies in it.
func (l *loader) lineStarts(name string) ([]int, []byte) {
	f := l.parser.Files()[name]
	if f == nil {
		return nil, nil
	}
	if starts, ok := l.lines[name]; ok {
		return starts, f.Bytes
	}
	starts := make([]int, 1, bytes.Count(f.Bytes, []byte{'\n'})+1)
	for i, c := range f.Bytes {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	if l.lines == nil {
		l.lines = map[string][]int{}
	}
	l.lines[name] = starts
	return starts, f.Bytes
}

// fileLine returns line n (1-based) of a configuration file, without its
// newline.
func (l *loader) fileLine(name string, n int) (string, bool) {
	starts, src := l.lineStarts(name)
	if n < 1 || n > len(starts) {
		return "", false
	}
	end := len(src)
	if n < len(starts) {
		end = starts[n] - 1
	}
	return string(src[starts[n-1]:end]), true
}

// nthLine returns line i (0-based) of s, without its newline.
func nthLine(s string, i int) (string, bool) {
	for ; i > 0; i-- {
		j := strings.IndexByte(s, '\n')
		if j < 0 {
			return "", false
		}
		s = s[j+1:]
	}
	if j := strings.IndexByte(s, '\n'); j >= 0 {
		s = s[:j]
	}
	return s, true
}

// permissionRuleRE matches Claude Code permission-rule syntax such as
// Bash(git push:*), which users put in matchers by mistake.
var permissionRuleRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\(.*\)$`) })
