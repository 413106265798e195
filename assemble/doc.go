// Package assemble turns a hookctl configuration into what the engine
// loads: it decodes the HCL (package hcl), builds each hook's handler with
// the factory of its kind, enables the built-ins, checks settings.required,
// runs the engine's checks and reports every problem at the attribute it
// is in.
//
// A configuration is assembled for an engine (WithEngine): the engine is
// the single source of extensions. Its catalog resolves event names
// (events registered from Go included), its condition compiler compiles
// `when` (so a function given with engine.WithConditionOptions works in
// HCL hooks), its logger receives ctx.log, console and built-in logs, and
// its Check validates every hook once. NewEngine returns an engine with
// hookctl's standard condition functions; JavaScript modules are given
// once with WithScriptOptions(script.WithModule(...)).
//
// The path of one fire, file by file: cmd/hookctl/config.go discovers the
// configuration and calls Load; hcl/load.go parses and hcl/hook.go decodes
// each hook block; assemble.go builds (kinds.go names a factory per kind:
// js.go, command.go, llm.go; builtin.go for the built-in pack) and checks;
// engine.Load swaps it in; engine/fire.go runs the event's hooks and
// engine/merge.go merges their results into the Outcome, which a host
// adapter (claude/adapter.go) writes out.
//
// Handler kinds are a table (DefaultKinds, WithKind), not a switch: a new
// kind of the same block shapes is a Factory. A Watcher keeps an engine
// loaded and reloads on change, keeping the last good configuration when a
// new one has errors. A Config is immutable once built; Close releases its
// script runtimes after the engine stops using it.
package assemble
