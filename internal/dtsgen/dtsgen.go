package dtsgen

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/hookctl/hookctl/engine"
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
	b.WriteString("// Events: one payload and one result interface per event of the catalog.\n")
	for _, s := range specs {
		name := TypeName(s.Name)
		b.WriteString("\n")
		writeDoc(&b, "", eventDoc(s))
		fmt.Fprintf(&b, "interface %sEvent extends HookEventBase {\n", name)
		fmt.Fprintf(&b, "  hook_event_name: %s;\n", strconv.Quote(s.Name))
		fields := payloadFields[s.Name]
		if s.MatcherField != "" && !hasField(fields, s.MatcherField) {
			fields = append([]field{{s.MatcherField, "string", false, "The field matchers test."}}, fields...)
		}
		for _, f := range fields {
			writeDoc(&b, "  ", f.doc)
			opt := ""
			if f.optional {
				opt = "?"
			}
			fmt.Fprintf(&b, "  %s%s: %s;\n", prop(f.name), opt, f.ts)
		}
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

func hasField(fs []field, name string) bool {
	for _, f := range fs {
		if f.name == name {
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
