package lsp

import "github.com/hookctl/hookctl/schema"

// Field is a payload field (package schema's).
type Field = schema.Field

// PayloadSchema is the payload vocabulary completion and hover offer: the
// root object of an event's payload, a tool's tool_input, and the tools
// whose input is known. Package schema's functions by default.
type PayloadSchema interface {
	Payload(event string) (Field, bool)
	ToolInput(tool string) (Field, bool)
	Tools() []string
}

// packageSchema is package schema as a PayloadSchema.
type packageSchema struct{}

func defaultSchema() PayloadSchema { return packageSchema{} }

func (packageSchema) Payload(event string) (Field, bool) { return schema.Payload(event) }
func (packageSchema) ToolInput(tool string) (Field, bool) {
	return schema.ToolInput(tool)
}
func (packageSchema) Tools() []string { return schema.Tools() }
