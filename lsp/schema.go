package lsp

// Field describes a payload field: its type, documentation and, for an
// object, its members (the shape of package schema's Field).
type Field struct {
	Name     string
	Type     string
	TS       string
	Doc      string
	Optional bool
	Fields   []Field
	Open     bool
	Elem     *Field
}

// PayloadSchema is the payload vocabulary completion and hover offer: the
// root object of an event's payload, a tool's tool_input, and the tools
// whose input is known.
type PayloadSchema interface {
	Payload(event string) (Field, bool)
	ToolInput(tool string) (Field, bool)
	Tools() []string
}

// member returns the member of an object field by name.
func (f Field) member(name string) (Field, bool) {
	for _, m := range f.Fields {
		if m.Name == name {
			return m, true
		}
	}
	return Field{}, false
}
