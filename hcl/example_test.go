package hcl_test

import (
	"fmt"

	"github.com/hookctl/hookctl/hcl"
)

// Parse decodes without building: each hook says its kind, where it was
// written and which files the configuration reads.
func ExampleParse() {
	cfg, err := hcl.Parse("testdata/decode/hooks.hcl")
	if err != nil {
		panic(err)
	}
	if d := cfg.Diagnostics(); d.HasErrors() {
		panic(d)
	}
	for _, hb := range cfg.Hooks {
		fmt.Printf("%s: %s hook on %s, line %d\n", hb.Hook.ID, hb.Kind, hb.Hook.Event, hb.Range.Start.Line)
	}
	for _, b := range cfg.Builtins {
		fmt.Printf("builtin %s %v\n", b.Name, b.Options)
	}
	// Output:
	// no-rm: declarative hook on PreToolUse, line 10
	// rewrite: script hook on PreToolUse, line 18
	// inline: js hook on UserPromptSubmit, line 24
	// lint: command hook on PostToolUse, line 29
	// builtin prompt-length map[max_chars:1000]
}
