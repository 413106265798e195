package hcl

import hcl2 "github.com/hashicorp/hcl/v2"

var rootSchema = &hcl2.BodySchema{
	Blocks: []hcl2.BlockHeaderSchema{
		{Type: "settings"},
		{Type: "locals"},
		{Type: "event", LabelNames: []string{"name"}},
		{Type: "hook", LabelNames: []string{"id"}},
		{Type: "builtin", LabelNames: []string{"name"}},
		{Type: "function", LabelNames: []string{"name"}},
	},
}

var settingsSchema = &hcl2.BodySchema{
	Attributes: []hcl2.AttributeSchema{
		{Name: "max_concurrency"},
		{Name: "default_timeout"},
		{Name: "stop_block_cap"},
		{Name: "audit_log"},
		{Name: "http_allow"},
		{Name: "roots"},
		{Name: "required"},
		{Name: "state_file"},
		{Name: "state"},
		{Name: "script_pool"},
		{Name: "script_memory_limit"},
		{Name: "managed_only"},
		{Name: "allow_layers"},
	},
}

var eventSchema = &hcl2.BodySchema{
	Attributes: []hcl2.AttributeSchema{
		{Name: "strategy", Required: true},
		{Name: "matcher"},
		{Name: "merge"},
		{Name: "decisions"},
		{Name: "decision_field"},
		{Name: "aliases"},
		{Name: "default_timeout"},
		{Name: "fail_closed"},
		{Name: "description"},
	},
}

// declarativeFields are the hook attributes that make a declarative
// handler, with the result field each one sets.
var declarativeFields = []string{
	"decision", "reason", "additional_context", "system_message",
	"continue", "stop_reason", "suppress_output", "updated_input", "result",
}

// handlerKinds are the code-running handler attributes and blocks; a hook
// has exactly one handler (the declarative fields count as one).
var handlerKinds = []string{"js", "ts", "script", "command", "http", "prompt", "agent"}

var hookSchema = &hcl2.BodySchema{
	Attributes: append([]hcl2.AttributeSchema{
		{Name: "event"}, {Name: "events"}, {Name: "matcher"}, {Name: "when"},
		{Name: "priority"}, {Name: "timeout"}, {Name: "on_error"},
		{Name: "background"}, {Name: "observe"}, {Name: "allow"}, {Name: "enabled"},
		{Name: "description"},
		{Name: "js"}, {Name: "ts"}, {Name: "script"}, {Name: "command"},
		{Name: "env"}, {Name: "cwd"}, {Name: "protocol"}, {Name: "shell"},
	}, attrs(declarativeFields)...),
	Blocks: []hcl2.BlockHeaderSchema{
		{Type: "retry"},
		{Type: "http"},
		{Type: "prompt"},
		{Type: "agent"},
	},
}

var retrySchema = &hcl2.BodySchema{
	Attributes: []hcl2.AttributeSchema{{Name: "attempts"}, {Name: "backoff"}},
}

func attrs(names []string) []hcl2.AttributeSchema {
	out := make([]hcl2.AttributeSchema, len(names))
	for i, n := range names {
		out[i] = hcl2.AttributeSchema{Name: n}
	}
	return out
}
