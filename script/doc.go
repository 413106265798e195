// Package script runs hook handlers written in JavaScript, in goja.
//
// A Pool owns everything JavaScript needs for one loaded configuration: the
// compiled programs, a bounded set of warm goja runtimes, the require()
// registry (the standard library's native modules and CommonJS files inside
// the configuration's directory, nowhere else) and the root directories
// scripts may read.
//
// Programs are compiled once, when the configuration loads: an inline `js`
// or `ts` body with CompileBody (CompileInline), a file exporting `function
// (event, ctx)` with CompileFile: CommonJS, an ES module (export default) or
// TypeScript. TypeScript and ES modules are transformed into CommonJS by
// esbuild's transform API, cached by a hash of the source in a
// TransformCache (transform.go), and run with the source map esbuild wrote,
// which goja's parser applies (srcpos.go). Syntax errors surface then, as
// *SyntaxError with the author's file, line and column. A runtime loads a
// program's function the first time it runs it and keeps it, so a warm
// runtime calls a hook without compiling or evaluating anything.
//
// Every error position is the author's: source-mapped, without the headers
// wrappers put in front, with the columns an HCL string took off put back.
// Errors say what to do about the common mistakes (a file that exports no
// handler, a result that is not an object, import in an inline body), and
// a timeout in a loop goja has no position in is reported at the loop.
//
// Each call checks a runtime out of the pool, passes the event payload as a
// read-only object (no JSON on the way in) and a ctx object (state, hook,
// event, log, deadline, allow), reads the returned object by its keys, and
// puts the runtime back. A `return { ... }` of an inline body hands its
// values over without an object being built (package internal/jsrewrite);
// one whose values are all literals (`{ decision: "deny", reason: "sudo" }`)
// returns a result built once, when it compiled: read-only, as every
// engine.Result is once returned. Pool.Stats reports how many runtimes are in use and
// the age of the oldest call, for health checks.
//
// Everything a call takes counts against the hook's deadline (Call.Deadline,
// or the context's when earlier): waiting for a runtime when all are busy,
// loading the program into a fresh runtime, running it, reading its result.
// Running out of time anywhere is a timeout (errors.Is ErrTimeout and
// context.DeadlineExceeded), which on_error = "block" turns into a block. A
// per-runtime timer interrupts the script at the deadline; a firing of it,
// or of the context's callback, that comes late, after the next call began,
// is ignored, and the interrupt flag is cleared before the runtime is
// reused. Deep recursion stops at the call-stack limit with a RangeError.
// An async handler's promise must settle before the call returns.
//
// A call is contained: whatever the script throws, and however its result
// or its thrown value behaves when read (getters, Proxy traps and toString
// run, inside the runtime's exception handling and under the deadline; a
// thrown value's message comes from code that cannot throw past it), the
// call ends with a result or an error, never a panic, and the runtime is
// disarmed on every path. A runtime that was interrupted, overflowed its
// stack outside the script's own handling, or panicked is discarded and
// replaced; one whose script merely threw is reused.
//
// Promise jobs run as the hook that queued them, inside its call. goja runs
// queued jobs when control returns from JavaScript to Go, but only from the
// outermost call: a call nested in a fire's entry (entry.go) would leave its
// jobs to the end of the fire, and reading a result or a thrown value runs
// script code outside any call. So every call and every module load drains
// the job queue itself (internal/jsjobs reaches goja's unexported queue)
// before it ends, while the call's identity, capabilities, state, deadline
// and memory limit are in place, and never ends with a job queued: what
// the deadline or an interrupt stops is dropped with the runtime. This
// holds however the script reached the queue (computed names, Reflect,
// eval, await, thenables, getters and proxies on what it returns, a
// module's top-level code); no scan of the source decides it. No job of
// one hook can run under another hook's identity, on another session's
// state, or after its hook ended.
//
// Values leave a script through one converter (export.go) that walks the
// JavaScript value itself and checks its limits before it allocates:
// MaxExportDepth, MaxExportValues, MaxExportBytes, and cycles. A result,
// ctx.state, ctx.log attributes and native module arguments (VM.Export,
// Export) past a limit are an error of the hook (*ExportError), never a
// crash of the process. Thrown values, ctx.log messages and console output
// become text through one function (console.go) that joins arrays itself
// (goja's join ignores the deadline) and stops at a few kilobytes; console
// is the pool's own, with util.format's %s, %d, %j and %%.
//
// Regular expressions stop at the deadline (regexp_deadline.go). goja runs
// some patterns with regexp2, a backtracking engine whose time limit,
// MatchTimeout, is read when a match starts and whose timeout goja turns
// into "no match". Every method a script can match through is wrapped; the
// wrapper gives the RegExp a backtracker owned by its runtime
// (internal/jsregexp reaches goja's unexported one) whose limit is the time
// left until the deadline, plus a little for regexp2's coarse clock. A match
// can therefore only give up after the deadline, and then the runtime is
// interrupted at once and a call that returns past its deadline is a
// timeout: a regular expression never answers "no match" for lack of time
// while the hook still had time. This was chosen over a process-wide
// default limit, which would either cut matches short before the deadline
// or let them run long after it, and which goja's own regexp2 instances,
// shared by every runtime running a program, could not be given per call
// without a data race.
//
// Scripts reach the host only through native modules: the sandbox has no
// process, no filesystem and no network of its own. Native modules that
// touch the outside check the calling hook's capabilities (Allowed).
//
// goja has no heap limit: a script can allocate until the process runs out
// of memory; see docs/security-model.md.
package script
