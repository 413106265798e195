package dtsgen

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/schema"
)

// The lines around the generated section.
const (
	Begin = "// <generated: events> (go generate ./stdlib; do not edit by hand)"
	End   = "// </generated: events>"
)

// Render returns the events section for specs (Begin and End excluded).
func Render(specs []engine.EventSpec) string {
	var b strings.Builder
	b.WriteString("// ---------------------------------------------------------------------------\n")
	b.WriteString("// Events: one payload and one result interface per event of the catalog,\n")
	b.WriteString("// the payloads' fields and the tools' inputs from package schema.\n")
	renderBase(&b)
	renderTools(&b)
	for _, s := range specs {
		name := TypeName(s.Name)
		b.WriteString("\n")
		writeDoc(&b, "", eventDoc(s))
		fmt.Fprintf(&b, "interface %sEvent extends HookEventBase {\n", name)
		fmt.Fprintf(&b, "  hook_event_name: %s;\n", strconv.Quote(s.Name))
		fields, _ := schema.Fields(s.Name)
		if s.MatcherField != "" && !hasField(fields, s.MatcherField) {
			fields = append([]schema.Field{{Name: s.MatcherField, Type: schema.String, Doc: "The field matchers test."}}, fields...)
		}
		writeFields(&b, "  ", fields)
		b.WriteString("}\n")

		writeDoc(&b, "", resultDoc(s))
		fmt.Fprintf(&b, "interface %sResult extends HookResult {\n", name)
		if len(s.Decisions) > 0 {
			fmt.Fprintf(&b, "  decision?: %s;\n", union(s.Decisions))
			if s.DecisionField != "" {
				fmt.Fprintf(&b, "  %s?: %s;\n", prop(s.DecisionField), union(s.Decisions))
			}
		}
		for _, k := range sortedKeys(s.Merge) {
			r := s.Merge[k]
			if r.Rule == engine.MergeIgnore || k == "decision" || k == s.DecisionField {
				continue
			}
			fmt.Fprintf(&b, "  /** Merged: %s. */\n", ruleDoc(r))
			fmt.Fprintf(&b, "  %s?: %s;\n", prop(k), resultType(k, r))
		}
		b.WriteString("}\n")
	}

	b.WriteString("\n/** Every event's payload, by its canonical name. */\ninterface HookEvents {\n")
	for _, s := range specs {
		fmt.Fprintf(&b, "  %s: %sEvent;\n", prop(s.Name), TypeName(s.Name))
	}
	b.WriteString("}\n\n/** What each event's handlers return, by its canonical name. */\ninterface HookResults {\n")
	for _, s := range specs {
		fmt.Fprintf(&b, "  %s: %sResult;\n", prop(s.Name), TypeName(s.Name))
	}
	b.WriteString("}\n")
	return b.String()
}

// Splice replaces the section between the Begin and End lines of file.
func Splice(file, section string) (string, error) {
	i := strings.Index(file, Begin+"\n")
	j := strings.Index(file, End+"\n")
	if i < 0 || j < i {
		return "", errors.New("dtsgen: the file has no " + Begin + " ... " + End + " section")
	}
	return file[:i+len(Begin)+1] + section + file[j:], nil
}

// TypeName turns an event name into the name its interfaces start with:
// PreToolUse, before_model_resolve (BeforeModelResolve), command:new
// (CommandNew).
func TypeName(event string) string {
	var b strings.Builder
	up := true
	for _, r := range event {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func hasField(fs []schema.Field, name string) bool {
	for _, f := range fs {
		if f.Name == name {
			return true
		}
	}
	return false
}

// prop writes a property name, quoted when it is not an identifier.
func prop(name string) string {
	for i, r := range name {
		if r != '_' && r != '$' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return strconv.Quote(name)
		}
	}
	return name
}

func union(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, " | ")
}

func sortedKeys(m map[string]engine.FieldRule) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// resultType is a result field's TypeScript type: the catalog's order for
// a restrictive field, else what its merge rule takes.
func resultType(name string, r engine.FieldRule) string {
	if r.Rule == engine.MergeRestrictive && len(r.Order) > 0 {
		return union(r.Order)
	}
	if t, ok := resultTypes[name]; ok {
		return t
	}
	switch r.Rule {
	case engine.MergeSticky:
		return "boolean"
	case engine.MergeConcat:
		return "string"
	case engine.MergeAppend:
		return "unknown[]"
	case engine.MergeUnion, engine.MergeIntersect:
		return "string[]"
	case engine.MergeMerge:
		return "Record<string, unknown>"
	}
	return "unknown"
}

func ruleDoc(r engine.FieldRule) string {
	s := r.Rule.String()
	switch {
	case r.Rule == engine.MergeRestrictive:
		s += ", most restrictive first"
	case r.Rule == engine.MergeChain && r.Target != "":
		s += ", the next hook sees it as event." + r.Target
	case r.Terminal && r.Blocks:
		s += ", stops the chain and blocks"
	case r.Terminal:
		s += ", stops the chain"
	}
	return s
}

func eventDoc(s engine.EventSpec) string {
	doc := s.Name + ": " + s.Description + " (" + s.Source + ", " + s.Strategy.String() + ")."
	if s.MatcherField != "" {
		doc += " Matchers test " + s.MatcherField + "."
	}
	if len(s.Aliases) > 0 {
		doc += " Also fired as " + strings.Join(s.Aliases, ", ") + "."
	}
	return doc
}

func resultDoc(s engine.EventSpec) string {
	doc := "What a " + s.Name + " handler returns"
	if len(s.Decisions) == 0 {
		return doc + ": the event takes no decision."
	}
	doc += "; decisions, most restrictive first: " + strings.Join(s.Decisions, " > ")
	if s.FailClosed {
		doc += " (a failing hook blocks)"
	}
	return doc + "."
}

func writeDoc(b *strings.Builder, indent, doc string) {
	if doc != "" {
		fmt.Fprintf(b, "%s/** %s */\n", indent, strings.ReplaceAll(doc, "*/", "* /"))
	}
}

// renderBase writes HookEventBase: the fields every event carries.
func renderBase(b *strings.Builder) {
	b.WriteString("\n/** Fields Claude Code sends with every event (hosts add more). */\ninterface HookEventBase {\n")
	writeFields(b, "  ", schema.Common())
	b.WriteString("  [field: string]: unknown;\n}\n")
}

// renderTools writes one interface per tool whose input is known
// (BashInput), ToolInputs (them by tool name) and ToolInput (what
// tool_input holds whatever the tool: every known member, optional).
func renderTools(b *strings.Builder) {
	var all []schema.Field
	types := map[string]string{}
	b.WriteString("\n/** What tool_input holds, whatever the tool: every known tool's members (see ToolInputs). */\ninterface ToolInput {\n")
	var tools strings.Builder
	for _, name := range schema.Tools() {
		in, _ := schema.ToolInput(name)
		fmt.Fprintf(&tools, "\n/** %s's tool_input. */\ninterface %sInput {\n", name, TypeName(name))
		writeFields(&tools, "  ", in.Fields)
		if in.Open {
			tools.WriteString("  [field: string]: unknown;\n")
		}
		tools.WriteString("}\n")
		for _, f := range in.Fields {
			t := tsType(f)
			if prev, seen := types[f.Name]; seen {
				if prev != t {
					types[f.Name] = "unknown"
				}
				continue
			}
			types[f.Name] = t
			all = append(all, f)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	for _, f := range all {
		fmt.Fprintf(b, "  %s?: %s;\n", prop(f.Name), types[f.Name])
	}
	b.WriteString("  [field: string]: unknown;\n}\n")
	b.WriteString(tools.String())
	b.WriteString("\n/** Each known tool's tool_input, by its Claude Code name (other hosts' names map onto these). */\ninterface ToolInputs {\n")
	for _, name := range schema.Tools() {
		fmt.Fprintf(b, "  %s: %sInput;\n", prop(name), TypeName(name))
	}
	b.WriteString("}\n")
}

// writeFields writes the members of an interface.
func writeFields(b *strings.Builder, indent string, fields []schema.Field) {
	for _, f := range fields {
		writeDoc(b, indent, f.Doc)
		opt := ""
		if f.Optional {
			opt = "?"
		}
		fmt.Fprintf(b, "%s%s%s: %s;\n", indent, prop(f.Name), opt, tsType(f))
	}
}

// tsType is a field's TypeScript type: its TS, else what its Type gives.
func tsType(f schema.Field) string {
	if f.TS != "" {
		return f.TS
	}
	switch f.Type {
	case schema.String, schema.Number, schema.Boolean:
		return string(f.Type)
	case schema.Array:
		if f.Elem == nil {
			return "unknown[]"
		}
		t := tsType(*f.Elem)
		if strings.ContainsAny(t, "|{") {
			return "Array<" + t + ">"
		}
		return t + "[]"
	case schema.Object:
		if len(f.Fields) == 0 {
			return "Record<string, unknown>"
		}
		parts := make([]string, 0, len(f.Fields)+1)
		for _, m := range f.Fields {
			opt := ""
			if m.Optional {
				opt = "?"
			}
			parts = append(parts, prop(m.Name)+opt+": "+tsType(m))
		}
		return "{ " + strings.Join(parts, "; ") + " }"
	}
	return "unknown"
}
