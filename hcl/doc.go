// Package hcl decodes hookctl configurations written in HCL into inert
// blocks: settings, locals, custom events, hooks, built-ins and the
// condition functions the embedding program supplies, each with
// the source ranges it was written at. It evaluates expressions (locals,
// env(), file() confined to the configuration directory), resolves event
// names against the catalog, compiles `when` conditions with the compiler
// it is given and builds declarative handlers, which are data; it runs no
// code and builds no handler that would. A hook of a code-running kind
// (js, ts, script, command, http, prompt, agent) keeps its kind-specific part
// as a Body for that kind's factory.
//
// Package assemble turns a decoded Config into an engine.Config, and is
// what most callers use; this package imports only the engine's types.
//
// The files, one per block kind: load.go (Parse, the loader and its
// options), settings.go, locals.go, event.go, hook.go, builtin.go,
// function.go (function blocks: conditions.Compiler.Declare); body.go
// is what a factory reads; values.go and funcs.go evaluate; diag.go
// renders diagnostics with file:line:column and a snippet. tests.go
// decodes the `test` blocks of the *_test.hcl files beside a
// configuration (ParseTests), which Parse never loads as configuration.
//
// Every problem is a diagnostic, and decoding goes on after one so that
// all are reported at once (Config.Diagnostics). A Config is used by one
// goroutine.
package hcl
