package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/safefile"
)

// handlerBlockAttrs are the attributes of a hook's handler block (their
// schemas are the handler kinds'; see package assemble); nil for another
// block. Functions rather than tables: hookctl runs this package's
// initialisation on every hook call.
func handlerBlockAttrs(block string) []string {
	switch block {
	case "http":
		return []string{"url", "headers", "allowed_env", "method"}
	case "prompt":
		return []string{"text", "provider", "model", "base_url", "api_key_env", "max_tokens", "system", "continue_on_block"}
	case "agent":
		return []string{"prompt", "model", "max_turns", "tools"}
	}
	return nil
}

// builtinCommon are the attributes every builtin block takes besides its
// options.
func builtinCommon() []string { return []string{"id", "priority", "enabled"} }

// attrValues are the values of attributes that take one of a few words.
func attrValues(attr string) []string {
	switch attr {
	case "strategy":
		return []string{"modifying", "void", "sync"}
	case "on_error":
		return []string{"ignore", "block", "retry"}
	}
	return nil
}

// position resolves a request's document and offset.
func (s *Server) position(p TextDocumentPositionParams) (path string, text []byte, off int, ok bool) {
	path, text, ok = s.snapshot(p.TextDocument.URI)
	if !ok {
		return "", nil, 0, false
	}
	return path, text, offsetOf(text, p.Position), true
}

func (s *Server) completion(ctx context.Context, p TextDocumentPositionParams) (any, error) {
	list := CompletionList{Items: []CompletionItem{}}
	path, text, off, ok := s.position(p)
	if !ok {
		return list, nil
	}
	c, _ := analyze(text, off)
	b := c.block()
	switch {
	case c.naming:
		list.Items = s.nameItems(path, c)
	case c.label && c.header == "builtin" && len(c.blocks) == 0:
		for _, spec := range builtin.Specs() {
			list.Items = append(list.Items, CompletionItem{Label: spec.Name, Kind: KindModule, Detail: "builtin", Documentation: markdown(builtinDoc(spec))})
		}
	case c.inString && b != nil && (c.attr == "event" || c.attr == "events") && (b.typ == "hook" || b.typ == "test"):
		list.Items = s.eventItems(path)
	case c.inString && b != nil && c.attr == "matcher" && b.typ == "hook":
		for _, t := range s.toolNames() {
			list.Items = append(list.Items, CompletionItem{Label: t, Kind: KindValue, Detail: "tool"})
		}
	case c.inString && b != nil && c.attr == "when" && b.typ == "hook":
		list.Items = s.payloadItems(b, c.prefix)
	case c.inString && b != nil && (c.attr == "js" || c.attr == "ts") && b.typ == "hook":
		// event.<path> in a handler body.
		if m := eventRead().FindStringSubmatch(c.prefix); m != nil {
			list.Items = s.payloadItems(b, m[1])
		}
	case c.inString && b != nil && c.attr == "decision" && b.typ == "hook":
		seen := map[string]bool{}
		for _, e := range hookEvents(b) {
			if spec, ok := s.lookupEvent(e); ok {
				for _, d := range spec.Decisions {
					if !seen[d] {
						seen[d] = true
						list.Items = append(list.Items, CompletionItem{Label: d, Kind: KindEnum, Detail: spec.Name + " decision"})
					}
				}
			}
		}
	case c.inString && c.attr != "":
		for _, v := range attrValues(c.attr) {
			list.Items = append(list.Items, CompletionItem{Label: v, Kind: KindEnum})
		}
	}
	return list, ctx.Err()
}

// nameItems are the attributes and blocks that may be written in the
// innermost block.
func (s *Server) nameItems(path string, c *cursor) []CompletionItem {
	var items []CompletionItem
	attr := func(name, detail string, doc *MarkupContent) {
		items = append(items, CompletionItem{Label: name, Kind: KindProperty, Detail: detail, Documentation: doc,
			InsertText: name + " = ", InsertTextFormat: PlainText})
	}
	types := c.path()
	schema := hcl.ConfigSchema()
	if testFile(path) {
		schema = hcl.TestSchema()
	}
	node, ok := schema, true
	for _, t := range types {
		ok = false
		for _, nb := range node.Blocks {
			if nb.Type == t {
				node, ok = nb, true
				break
			}
		}
		if !ok {
			break
		}
	}
	b := c.block()
	switch {
	case b != nil && b.typ == "builtin" && len(types) == 1:
		for _, n := range builtinCommon() {
			attr(n, "builtin attribute", nil)
		}
		if len(b.labels) > 0 {
			if spec, found := builtin.Lookup(b.labels[0]); found {
				for _, o := range spec.Options {
					attr(o.Name, o.Type, markdown(optionDoc(o)))
				}
			}
		}
		return items
	case b != nil && len(types) == 2 && types[0] == "hook" && handlerBlockAttrs(b.typ) != nil:
		for _, n := range handlerBlockAttrs(b.typ) {
			attr(n, b.typ+" attribute", nil)
		}
		return items
	case !ok:
		return nil
	}
	for _, a := range node.Attributes {
		detail := node.Type + " attribute"
		if node.Type == "" {
			detail = "attribute"
		}
		if a.Required {
			detail += " (required)"
		}
		attr(a.Name, detail, nil)
	}
	for _, nb := range node.Blocks {
		snippet := nb.Type
		for i, l := range nb.Labels {
			snippet += fmt.Sprintf(" \"${%d:%s}\"", i+1, l)
		}
		snippet += " {\n\t$0\n}"
		items = append(items, CompletionItem{Label: nb.Type, Kind: KindClass, Detail: "block", InsertText: snippet, InsertTextFormat: Snippet})
	}
	return items
}

// events returns the catalog's events and the custom events declared in
// the configuration directory of path.
func (s *Server) events(path string) []engine.EventSpec {
	specs := s.opts.events()
	for _, name := range s.customEvents(filepath.Dir(path)) {
		specs = append(specs, engine.EventSpec{Name: name, Source: engine.SourceCustom, Description: "declared in this configuration"})
	}
	return specs
}

// customEvents lists the names of the event blocks of a directory's
// configuration files, open buffers first.
func (s *Server) customEvents(dir string) []string {
	files, _ := hcl.ConfigFiles(dir)
	s.mu.Lock()
	texts := map[string][]byte{}
	for _, d := range s.docs {
		if p := d.path; filepath.Dir(p) == dir && !testFile(p) && isHCL(p) {
			texts[p] = d.text
		}
	}
	s.mu.Unlock()
	for _, f := range files {
		if _, open := texts[f]; !open {
			if b, err := safefile.ReadRegular(f); err == nil {
				texts[f] = b
			}
		}
	}
	var names []string
	for _, t := range texts {
		_, frames := analyze(t, len(t))
		for _, f := range frames {
			if f.typ == "event" && len(f.labels) == 1 {
				names = append(names, f.labels[0])
			}
		}
	}
	sort.Strings(names)
	return slices.Compact(names)
}

func (s *Server) eventItems(path string) []CompletionItem {
	var items []CompletionItem
	for _, spec := range s.events(path) {
		items = append(items, CompletionItem{Label: spec.Name, Kind: KindEvent, Detail: spec.Strategy.String() + " event", Documentation: markdown(s.eventDoc(spec))})
		for _, a := range spec.Aliases {
			items = append(items, CompletionItem{Label: a, Kind: KindEvent, Detail: "alias of " + spec.Name, SortText: "~" + a})
		}
	}
	return items
}

// toolNames are the tool names a matcher may name: the schema's and the
// canonical vocabulary's.
func (s *Server) toolNames() []string {
	names := slices.Clone(s.opts.schema.Tools())
	seen := map[string]bool{}
	for _, n := range names {
		seen[n] = true
	}
	for _, h := range engine.HostToolNames() {
		if c := engine.CanonicalTool(h); !seen[c] {
			seen[c] = true
			names = append(names, c)
		}
	}
	sort.Strings(names)
	return names
}

// eventRead is a read of the payload being typed in a handler body.
func eventRead() *regexp.Regexp {
	return regexp.MustCompile(`\bevent\.((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_0-9]*)$`)
}

// pathAtEnd is a payload path being typed at the end of a condition.
func pathAtEnd() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\.?$|\.$|^$`)
}

// payloadItems are the members of the payload object that the path
// before the cursor leads to.
func (s *Server) payloadItems(hook *frame, prefix string) []CompletionItem {
	typed := pathAtEnd().FindString(prefix)
	if i := len(prefix) - len(typed); i > 0 && prefix[i-1] == '.' {
		return nil // a member of something that is not a payload path
	}
	parts := strings.Split(typed, ".")
	parents := parts[:len(parts)-1]
	var items []CompletionItem
	seen := map[string]bool{}
	for _, obj := range s.resolve(hook, parents) {
		for _, f := range obj.Fields {
			if seen[f.Name] {
				continue
			}
			seen[f.Name] = true
			items = append(items, CompletionItem{Label: f.Name, Kind: KindField, Detail: fieldType(f), Documentation: markdown(f.Doc)})
		}
	}
	return items
}

// hookEvents returns the events a hook block names.
func hookEvents(hook *frame) []string {
	var out []string
	if e := hook.first("event"); e != "" {
		out = append(out, e)
	}
	return append(out, hook.attrs["events"]...)
}

// matcherTools returns the tools a hook's matcher names when it is a
// plain list (Bash|Write); nil when it may match any tool.
func matcherTools(hook *frame) []string {
	m := hook.first("matcher")
	if m == "" || m == "*" {
		return nil
	}
	var out []string
	for _, t := range strings.Split(m, "|") {
		if !isName(t) {
			return nil
		}
		out = append(out, engine.CanonicalTool(t))
	}
	return out
}

// isName reports whether s is an identifier (a tool name, not a regular
// expression).
func isName(s string) bool {
	for i, r := range s {
		if r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

// resolve returns the objects a payload path leads to in the payloads of
// the hook's events (several when the hook has several events or tools).
func (s *Server) resolve(hook *frame, path []string) []Field {
	var cur []Field
	for _, e := range hookEvents(hook) {
		if spec, ok := s.lookupEvent(e); ok {
			e = spec.Name
		}
		if f, ok := s.opts.schema.Payload(e); ok {
			cur = append(cur, f)
		}
	}
	for _, name := range path {
		var next []Field
		for _, obj := range cur {
			m, ok := obj.Field(name)
			if !ok {
				continue
			}
			if name == "tool_input" && len(path) > 0 {
				tools := matcherTools(hook)
				if tools == nil {
					tools = s.opts.schema.Tools()
				}
				for _, t := range tools {
					if in, ok := s.opts.schema.ToolInput(t); ok {
						next = append(next, in)
					}
				}
				if len(next) > 0 {
					continue
				}
			}
			if m.Type == "array" && m.Elem != nil {
				m = *m.Elem
			}
			next = append(next, m)
		}
		cur = next
	}
	return cur
}

func (s *Server) lookupEvent(name string) (engine.EventSpec, bool) {
	for _, spec := range s.opts.events() {
		if spec.Name == name || slices.Contains(spec.Aliases, name) {
			return spec, true
		}
	}
	return engine.EventSpec{}, false
}

func fieldType(f Field) string {
	if f.TS != "" {
		return f.TS
	}
	return string(f.Type)
}

func markdown(s string) *MarkupContent {
	if s == "" {
		return nil
	}
	return &MarkupContent{Kind: "markdown", Value: s}
}

// eventDoc documents an event: description, strategy, matcher field,
// decisions, payload fields and merge rules.
func (s *Server) eventDoc(spec engine.EventSpec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (%s event", spec.Name, spec.Strategy)
	if spec.Source != "" {
		fmt.Fprintf(&b, ", %s", spec.Source)
	}
	b.WriteString(")\n\n")
	if spec.Description != "" {
		b.WriteString(spec.Description + "\n\n")
	}
	if spec.MatcherField != "" {
		fmt.Fprintf(&b, "- matcher tests `%s`\n", spec.MatcherField)
	} else {
		b.WriteString("- no matcher field (a matcher is ignored)\n")
	}
	if len(spec.Decisions) > 0 {
		fmt.Fprintf(&b, "- decisions, most restrictive first: %s\n", strings.Join(spec.Decisions, " > "))
	}
	if spec.FailClosed {
		b.WriteString("- fails closed: a failing hook blocks\n")
	}
	if spec.DefaultTimeout > 0 {
		fmt.Fprintf(&b, "- default timeout %s\n", spec.DefaultTimeout)
	}
	if len(spec.Aliases) > 0 {
		fmt.Fprintf(&b, "- aliases: %s\n", strings.Join(spec.Aliases, ", "))
	}
	if p, ok := s.opts.schema.Payload(spec.Name); ok && len(p.Fields) > 0 {
		names := make([]string, len(p.Fields))
		for i, f := range p.Fields {
			names[i] = "`" + f.Name + "`"
		}
		fmt.Fprintf(&b, "- payload: %s\n", strings.Join(names, ", "))
	}
	if len(spec.Merge) > 0 {
		b.WriteString("\n| result field | merge rule |\n|---|---|\n")
		keys := make([]string, 0, len(spec.Merge))
		for k := range spec.Merge {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			r := spec.Merge[k]
			rule := r.Rule.String()
			if len(r.Order) > 0 {
				rule += ": " + strings.Join(r.Order, " > ")
			}
			fmt.Fprintf(&b, "| `%s` | %s |\n", k, rule)
		}
	}
	return b.String()
}

func builtinDoc(spec builtin.Spec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**builtin %q**\n\n%s\n\n", spec.Name, spec.Description)
	if len(spec.Events) > 0 {
		fmt.Fprintf(&b, "- events: %s\n- priority: %d\n", strings.Join(spec.Events, ", "), spec.Priority)
	}
	if len(spec.Options) > 0 {
		b.WriteString("\n| option | type | default | |\n|---|---|---|---|\n")
		for _, o := range spec.Options {
			def := ""
			if o.Default != nil {
				def = fmt.Sprintf("`%v`", o.Default)
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", o.Name, o.Type, def, strings.ReplaceAll(o.Doc, "|", "\\|"))
		}
	}
	return b.String()
}

func optionDoc(o builtin.OptionSpec) string {
	s := fmt.Sprintf("**%s** (%s)\n\n%s", o.Name, o.Type, o.Doc)
	if o.Default != nil {
		s += fmt.Sprintf("\n\nDefault: `%v`", o.Default)
	}
	return s
}

func fieldDoc(path string, fs []Field) string {
	var b strings.Builder
	f := fs[0]
	fmt.Fprintf(&b, "**%s**: `%s`", path, fieldType(f))
	if f.Optional {
		b.WriteString(" (optional)")
	}
	b.WriteString("\n\n")
	for _, x := range fs {
		if x.Doc != "" {
			b.WriteString(x.Doc + "\n\n")
			break
		}
	}
	if f.Type == "object" && len(f.Fields) > 0 {
		names := make([]string, len(f.Fields))
		for i, m := range f.Fields {
			names[i] = "`" + m.Name + "`"
		}
		fmt.Fprintf(&b, "Fields: %s\n", strings.Join(names, ", "))
	}
	return b.String()
}

// pathAt is a payload path in a condition.
func pathAt() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)
}

func (s *Server) hover(ctx context.Context, p TextDocumentPositionParams) (any, error) {
	path, text, off, ok := s.position(p)
	if !ok {
		return nil, nil
	}
	c, _ := analyze(text, off)
	b := c.block()
	rng := func(start, end int) *Range {
		r := Range{Start: positionOf(text, start), End: positionOf(text, end)}
		return &r
	}
	tokRange := rng(c.tokStart, c.tokStart+len(c.token))
	switch {
	case c.label && c.header == "builtin" && len(c.blocks) == 0:
		if spec, ok := builtin.Lookup(c.token); ok {
			return Hover{Contents: MarkupContent{Kind: "markdown", Value: builtinDoc(spec)}, Range: tokRange}, nil
		}
	case c.naming && b != nil && b.typ == "builtin" && len(b.labels) > 0:
		if spec, ok := builtin.Lookup(b.labels[0]); ok {
			for _, o := range spec.Options {
				if o.Name == c.token {
					return Hover{Contents: MarkupContent{Kind: "markdown", Value: optionDoc(o)}, Range: tokRange}, nil
				}
			}
		}
	case c.inString && b != nil && c.attr == "when" && b.typ == "hook":
		rel := off - c.tokStart
		for _, m := range pathAt().FindAllStringIndex(c.token, -1) {
			if m[0] <= rel && rel <= m[1] {
				full := c.token[m[0]:m[1]]
				// Up to the end of the segment under the cursor.
				end := m[1]
				if i := strings.IndexByte(c.token[rel:m[1]], '.'); i >= 0 {
					end = rel + i
				}
				parts := strings.Split(c.token[m[0]:end], ".")
				_ = full
				if fs := s.resolve(b, parts[:len(parts)-1]); len(fs) > 0 {
					var found []Field
					for _, obj := range fs {
						if f, ok := obj.Field(parts[len(parts)-1]); ok {
							found = append(found, f)
						}
					}
					if len(found) > 0 {
						return Hover{Contents: MarkupContent{Kind: "markdown", Value: fieldDoc(strings.Join(parts, "."), found)},
							Range: rng(c.tokStart+m[0], c.tokStart+end)}, nil
					}
				}
			}
		}
	case c.inString && c.token != "":
		for _, spec := range s.events(path) {
			if spec.Name == c.token || slices.Contains(spec.Aliases, c.token) {
				return Hover{Contents: MarkupContent{Kind: "markdown", Value: s.eventDoc(spec)}, Range: tokRange}, nil
			}
		}
	}
	return nil, ctx.Err()
}

// requireCall is a require() of a module file in JavaScript.
func requireCall() *regexp.Regexp {
	return regexp.MustCompile(`require\(\s*["'\x60]([^"'\x60]+)["'\x60]\s*\)`)
}

func (s *Server) definition(ctx context.Context, p TextDocumentPositionParams) (any, error) {
	path, text, off, ok := s.position(p)
	if !ok {
		return nil, nil
	}
	dir := filepath.Dir(path)
	c, _ := analyze(text, off)
	if b := c.block(); c.inString && b != nil && b.typ == "hook" && c.attr == "script" && c.token != "" {
		if f := existing(dir, c.token, false); f != "" {
			return []Location{{URI: pathURI(f), Range: Range{}}}, nil
		}
	}
	start := lineStart(text, p.Position.Line)
	line := string(text[start:lineEnd(text, start)])
	rel := off - start
	for _, m := range requireCall().FindAllStringSubmatchIndex(line, -1) {
		if m[0] <= rel && rel <= m[1] {
			if f := existing(dir, line[m[2]:m[3]], true); f != "" {
				return []Location{{URI: pathURI(f), Range: Range{}}}, nil
			}
		}
	}
	return nil, ctx.Err()
}

// existing resolves a file named relative to the configuration directory
// as the loader does: a script path as written, a module also with the
// extensions and index files require tries.
func existing(dir, name string, module bool) string {
	p := filepath.FromSlash(name)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	tries := []string{p}
	if module {
		for _, ext := range []string{".js", ".ts", ".mjs", ".cjs", ".json"} {
			tries = append(tries, p+ext)
		}
		tries = append(tries, filepath.Join(p, "index.js"), filepath.Join(p, "index.ts"))
	}
	for _, t := range tries {
		if fi, err := os.Stat(t); err == nil && fi.Mode().IsRegular() {
			return t
		}
	}
	return ""
}
