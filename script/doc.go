// Package script runs hook handlers written in JavaScript, in goja.
//
// A Pool owns everything JavaScript needs for one loaded configuration: the
// compiled programs, a bounded set of warm goja runtimes, the require()
// registry (the standard library's native modules and CommonJS files inside
// the configuration's directory, nowhere else) and the root directories
// scripts may read.
//
// Programs are compiled once, when the configuration loads: an inline `js`
// body with CompileInline, a CommonJS file exporting `function (event, ctx)`
// with CompileFile. Syntax errors surface then, as *SyntaxError with the file,
// line and column. A runtime loads a program's function the first time it
// runs it and keeps it, so a warm runtime calls a hook without compiling or
// evaluating anything.
//
// Each call checks a runtime out of the pool, passes the event payload as a
// read-only object (no JSON on the way in) and a ctx object (state, hook,
// event, log, deadline, allow), reads the returned object by its keys, and
// puts the runtime back. A per-runtime timer interrupts the script at the
// hook's deadline; the interrupt flag is cleared under a lock before the
// runtime is reused, so it never leaks into the next call. A runtime that was
// interrupted is discarded and replaced; one whose script threw is reused.
// Deep recursion stops at the call-stack limit with a RangeError. An async
// handler's promise must settle before the call returns.
//
// Scripts reach the host only through native modules: the sandbox has no
// process, no filesystem and no network of its own. Native modules that
// touch the outside check the calling hook's capabilities (Allowed).
//
// goja has no heap limit: a script can allocate until the process runs out
// of memory; see the README's security model.
package script
