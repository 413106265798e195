package engine

// StackTracer is an error that knows the stack of the code that raised
// it: a script handler's error carries the JavaScript stack, one
// "\tat ..." line a frame, innermost first. A failed hook's trace keeps it
// (HookTrace.Stack).
type StackTracer interface {
	error
	StackTrace() string
}
