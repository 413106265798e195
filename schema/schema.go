package schema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/suggest"
)

// Type is the JSON type of a field.
type Type string

// The types of fields.
const (
	String  Type = "string"
	Number  Type = "number"
	Boolean Type = "boolean"
	Object  Type = "object"
	Array   Type = "array"
	Any     Type = "any"
)

// Field is a payload field: a member of an object, or the root object of a
// payload (Name empty).
type Field struct {
	Name string
	Type Type
	// TS is the TypeScript type for hookctl.d.ts when richer than Type
	// ("\"startup\" | \"resume\"").
	TS       string
	Doc      string
	Optional bool
	// Fields are the members of an object.
	Fields []Field
	// Open marks an object that may carry members not listed (hosts add
	// fields; MCP tool inputs).
	Open bool
	// Elem is the element of an array.
	Elem *Field
}

// Field returns the member of an object named name.
func (f Field) Field(name string) (Field, bool) {
	for _, m := range f.Fields {
		if m.Name == name {
			return m, true
		}
	}
	return Field{}, false
}

// Names returns the names of an object's members.
func (f Field) Names() []string {
	names := make([]string, len(f.Fields))
	for i, m := range f.Fields {
		names[i] = m.Name
	}
	return names
}

// ToolInputField is the payload field that holds a tool call's arguments;
// Resolve gives it the schema of the tools a hook matches.
const ToolInputField = "tool_input"

// Payload returns the root object of an event's payload (the fields every
// event carries included), by the event's canonical name. It reports false
// for an event whose payload is not known: nothing can be checked there.
func Payload(event string) (Field, bool) {
	own, ok := events[event]
	if !ok {
		return Field{}, false
	}
	fs := slices.Clone(common)
	for _, f := range own {
		if i := slices.IndexFunc(fs, func(c Field) bool { return c.Name == f.Name }); i >= 0 {
			fs[i] = f
			continue
		}
		fs = append(fs, f)
	}
	// Hosts other than Claude Code add fields of their own.
	return Field{Type: Object, Fields: fs, Open: true}, true
}

// Fields returns an event's own payload fields, those of the fields
// every event carries (Common) excluded unless the event gives them
// otherwise. It reports false for an event whose payload is not known.
func Fields(event string) ([]Field, bool) {
	own, ok := events[event]
	return slices.Clone(own), ok
}

// Events returns the events whose payload is known, sorted.
func Events() []string {
	names := make([]string, 0, len(events))
	for n := range events {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Common returns the fields every event's payload carries.
func Common() []Field { return slices.Clone(common) }

// ToolInput returns the tool_input object of a tool, by its Claude Code
// name or another host's name for it (run_shell_command, shell and bash
// are Bash's). It reports false for a tool whose input is not known (MCP
// tools, a host's own tools): its input is any object.
func ToolInput(tool string) (Field, bool) {
	if f, ok := tools[tool]; ok {
		return f, true
	}
	if f, ok := tools[engine.CanonicalTool(tool)]; ok {
		return f, true
	}
	return Field{}, false
}

// Tools returns the tools whose tool_input is known, by their Claude Code
// names, sorted.
func Tools() []string {
	names := make([]string, 0, len(tools))
	for n := range tools {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// UnknownFieldError is a payload path that names a member its object does
// not have.
type UnknownFieldError struct {
	// Path is the path up to the unknown member, dotted
	// ("tool_input.comand").
	Path string
	// Parent names the object: "Bash", "Bash or Write", "PreToolUse's
	// payload", "tool_response".
	Parent string
	// Name is the unknown member.
	Name string
	// Suggestion is the closest known member, if one is close.
	Suggestion string
}

func (e *UnknownFieldError) Error() string {
	msg := fmt.Sprintf("%s: %s has no field %q", e.Path, e.Parent, e.Name)
	if e.Suggestion != "" {
		msg += fmt.Sprintf("; did you mean %q?", e.Suggestion)
	}
	return msg
}

// Resolve returns the field a payload path names in an event's payload.
// tools are the tools a hook's matcher can match, for tool_input (nil:
// any tool); a name whose input is not known (an MCP tool) makes
// tool_input open. A path element under an array is its element (an
// index, or "*"). It returns an *UnknownFieldError for a member a closed
// object does not have, or a misspelling of a member of an open one (a
// name close to a known member). Anything it cannot check (an unknown
// event, a path below a field of type any or a scalar) resolves to a
// field of type Any.
func Resolve(event string, tools []string, path []string) (Field, error) {
	cur, ok := Payload(event)
	if !ok {
		return Field{Type: Any}, nil
	}
	parent := event + "'s payload"
	for i, name := range path {
		switch {
		case cur.Type == Array && cur.Elem != nil:
			cur, parent = *cur.Elem, strings.Join(path[:i+1], ".")
			continue
		case cur.Type != Object:
			return Field{Type: Any}, nil
		}
		next, found := cur.Field(name)
		if !found {
			s := Closest(name, cur.Names())
			if cur.Open && (s == "" || fold(s) == fold(name)) {
				// Hosts add members; one spelt as a known one but for
				// case and underscores (sessionId) is another host's.
				return Field{Type: Any}, nil
			}
			return Field{}, &UnknownFieldError{Path: strings.Join(path[:i+1], "."), Parent: parent, Name: name, Suggestion: s}
		}
		if name == ToolInputField && next.Type == Object {
			next, parent = matchedInput(next, tools), toolsName(tools)
		} else {
			parent = strings.Join(path[:i+1], ".")
		}
		cur = next
	}
	return cur, nil
}

// matchedInput is tool_input for the tools a matcher matches: the members
// of their inputs, closed when every one is known.
func matchedInput(f Field, tools []string) Field {
	out := Field{Name: f.Name, Type: Object, TS: f.TS, Doc: f.Doc, Optional: f.Optional}
	if tools == nil {
		out.Open = true
		tools = Tools()
	}
	for _, t := range tools {
		in, ok := ToolInput(t)
		if !ok {
			out.Open = true
			continue
		}
		out.Open = out.Open || in.Open
		for _, m := range in.Fields {
			if _, dup := out.Field(m.Name); !dup {
				out.Fields = append(out.Fields, m)
			}
		}
	}
	return out
}

// toolsName names the tools whose input a tool_input is.
func toolsName(tools []string) string {
	switch len(tools) {
	case 0:
		return ToolInputField
	case 1:
		return tools[0]
	}
	return strings.Join(tools[:len(tools)-1], ", ") + " or " + tools[len(tools)-1]
}

// Closest returns the candidate nearest to name, ignoring case, when it is
// close enough to be a misspelling of it: within an edit distance of a
// quarter of name's length (at least 1, at most 3). Ties go to the
// smaller name. It returns "" when none is that close.
func Closest(name string, candidates []string) string {
	return suggest.Within(name, candidates, min(max(len(name)/4, 1), 3))
}

// fold is a name without case and underscores.
func fold(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
