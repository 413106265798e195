// Package conditions compiles and evaluates hook conditions: the `when`
// expressions of hookctl hooks, written in expr-lang
// (https://expr-lang.org).
//
// A condition is compiled once, at load time, with Compile or a Compiler,
// into a *Program that is safe for concurrent use. It is evaluated per event
// by an Evaluator, which owns a reusable expr virtual machine and is not safe
// for concurrent use: keep one per worker goroutine.
//
// The environment of a condition is the event payload itself (so
// `tool_name`, `tool_input.command`, `session_id`, `cwd` ... are in scope)
// plus `state`, the shared state object of the hook chain. Field access is
// nil-safe: a missing field, or a field of a missing object, is nil rather
// than an error, so `tool_input.command contains "rm"` is simply false on an
// event without tool_input. Operators come in symbol and word forms (`&&`
// and `and`, `||` and `or`, `!` and `not`), alongside expr's `in`,
// `matches`, `contains`, `startsWith`, `endsWith` and its builtins. Regexes
// belong in backtick raw strings: expr's quoted strings process escapes, so
// '\s' is a compile error.
//
// Functions come from expr, from the program (WithFunctions) and from
// declarations (Compiler.Declare): a configuration declares the
// functions the embedding program supplies, with their types, so that
// calls are checked where the program is absent; a declared function the
// program did not register fails every call (MissingFunctionError), never
// evaluating to false. A function's name is only ever called.
package conditions
