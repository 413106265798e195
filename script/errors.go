package script

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
	"github.com/dop251/goja_nodejs/require"

	"github.com/hookctl/hookctl/internal/safefile"
)

// SyntaxError is a script that does not compile. Line and Column are
// 1-based positions in File.
type SyntaxError struct {
	File    string
	Line    int
	Column  int
	Message string
	// Hint says what to do about it, when there is something specific.
	Hint string
}

func (e *SyntaxError) Error() string {
	msg := e.Message
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return fmt.Sprintf("%s:%d:%d: SyntaxError: %s", e.File, e.Line, e.Column, msg)
}

// Error is a script that threw. File, Line and Column locate the innermost
// JavaScript frame; Stack is the JavaScript stack trace.
type Error struct {
	File    string
	Line    int
	Column  int
	Message string
	Stack   string
	// Hint says what to do about it, when there is something specific.
	Hint  string
	cause error
	// native counts the frames without a position inside the innermost
	// one that has one.
	native int
}

func (e *Error) Error() string {
	msg := e.Message
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	if e.File == "" {
		return msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, msg)
}

// StackTrace returns the JavaScript stack, one "\tat ..." line a frame
// (engine.StackTracer).
func (e *Error) StackTrace() string { return e.Stack }

// Unwrap returns the Go error a native function threw, if any.
func (e *Error) Unwrap() error { return e.cause }

// ErrTimeout is the cause of a script interrupted at its deadline. Errors
// carrying it satisfy errors.Is(err, context.DeadlineExceeded).
var ErrTimeout = fmt.Errorf("script interrupted at its deadline: %w", context.DeadlineExceeded)

// ErrUnsettled is returned when an async handler's promise is still pending
// once the handler returned control (it waits for something that never
// comes: hooks have no event loop).
var ErrUnsettled = errors.New("the handler's promise did not settle")

// ErrStackOverflow is the cause of a script that recursed past the call
// stack limit.
var ErrStackOverflow = errors.New("maximum call stack size exceeded")

// convertError turns what goja returned into one of the package's errors.
// code, when not nil, turns positions into the author's (srcpos.go);
// describe turns a thrown value into its message.
func convertError(err error, code *programs, describe func(goja.Value) string) error {
	var intr *goja.InterruptedError
	if errors.As(err, &intr) {
		e := frameError(&intr.Exception, code)
		if code != nil && e.File != "" && e.native == 0 {
			// Where a loop goja could not place the interrupt in is.
			if p := code.loopAt(e.File, pos{e.Line, e.Column}); p != (pos{e.Line, e.Column}) {
				at := fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Column)
				e.Line, e.Column = p.line, p.col
				e.Stack = strings.Replace(e.Stack, at, fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Column), 1)
			}
		}
		if cause, ok := intr.Value().(error); ok {
			e.cause = cause
			e.Message = cause.Error()
		} else {
			e.Message = fmt.Sprint(intr.Value())
		}
		return e
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		e := frameError(&so.Exception, code)
		e.Message, e.cause = "RangeError: "+ErrStackOverflow.Error(), ErrStackOverflow
		return e
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		e := frameError(ex, code)
		if v := ex.Value(); v != nil {
			e.Message = describe(v)
		}
		e.cause = ex.Unwrap()
		if errors.Is(e.cause, require.InvalidModuleError) {
			e.Message = "Error: Cannot find module"
			if name := requiredName(e.File, e.Line, e.Column); name != "" {
				e.Message += " '" + name + "' (only the hookctl/ standard library and files inside the configuration directory can be required)"
			}
		}
		return e
	}
	var ce *goja.CompilerSyntaxError
	if errors.As(err, &ce) {
		return compileError(err, "", 0, 0, code)
	}
	return err
}

// maxMessage bounds the message of a thrown value.
const maxMessage = 8 << 10

// truncate cuts s to maxMessage bytes, on a character boundary, saying
// how long it was.
func truncate(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	return cut(s) + fmt.Sprintf("... (%d bytes)", len(s))
}

// cut returns the first maxMessage bytes of s at most, on a character
// boundary.
func cut(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	n := maxMessage
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// describePrimitive is the message of a thrown value that runs no script
// code to get it: a primitive's text, or what kind of object it is.
func describePrimitive(v goja.Value) string {
	if v == nil {
		return "undefined"
	}
	if o, isObj := v.(*goja.Object); isObj {
		return "[object " + className(o) + "]"
	}
	if s, isStr := v.(goja.String); isStr && s.Length() > maxMessage {
		// Convert only what is kept.
		return cut(s.Substring(0, maxMessage).String()) + fmt.Sprintf("... (%d characters)", s.Length())
	}
	return truncate(v.String())
}

// className is o's class, without the panic a revoked proxy answers with.
func className(o *goja.Object) (name string) {
	defer func() {
		if recover() != nil {
			name = "Object"
		}
	}()
	return o.ClassName()
}

// describe returns the message of a thrown value. An object's text comes
// from its toString, the hook's own code: it runs inside the runtime's
// exception handling and under the call's deadline, so it can neither
// escape with an exception nor run past the deadline (the interrupt goes
// on to the call's recovery). What it throws is described without running
// more code.
func (vm *VM) describe(v goja.Value) string {
	if _, isObj := v.(*goja.Object); !isObj {
		return describePrimitive(v)
	}
	var s string
	if ex := vm.rt.Try(func() { s = vm.text(v) }); ex != nil {
		return describePrimitive(v) + " (converting it to a string threw " + describePrimitive(ex.Value()) + ")"
	}
	return truncate(s)
}

// convertError converts an error of a call on vm.
func (vm *VM) convertError(err error) error {
	return convertError(err, &vm.pool.code, vm.describe)
}

// panicError turns what a call panicked with (an uncatchable error that
// surfaced outside the runtime's own handling, or a bug) into the call's
// error, running no script code.
func (vm *VM) panicError(x any) error {
	switch e := x.(type) {
	case *goja.InterruptedError, *goja.StackOverflowError, *goja.Exception:
		return convertError(e.(error), &vm.pool.code, describePrimitive)
	case goja.Value:
		return &Error{Message: describePrimitive(e)}
	case error:
		return &Error{Message: "script runtime failed: " + e.Error(), cause: e}
	}
	return &Error{Message: fmt.Sprintf("script runtime failed: %v", x)}
}

var requireCallRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`require\(\s*["'\x60]([^"'\x60]+)["'\x60]`) })

// requiredName reads the module name of the require() call at file:line
// from the source, for a "Cannot find module" message worth reading.
func requiredName(file string, line, col int) string {
	if file == "" || line < 1 {
		return ""
	}
	f, err := safefile.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, MaxSourceSize))
	sc.Buffer(make([]byte, 64<<10), MaxSourceSize)
	for n := 1; sc.Scan(); n++ {
		if n < line {
			continue
		}
		// The call the column points into (goja points at its
		// argument): the last one to start at or before it, else the
		// first of the line.
		text := sc.Text()
		name := ""
		for _, m := range requireCallRE().FindAllStringSubmatchIndex(text, -1) {
			if name != "" && m[0] > col-1 {
				break
			}
			name = text[m[2]:m[3]]
		}
		return name
	}
	return ""
}

// maxStackFrames bounds the frames an error's stack lists (deep
// recursion has a thousand): the innermost ones and the outermost few.
const maxStackFrames = 40

// frameError fills the position from the innermost frame that has one,
// and the stack from every frame, in the author's positions.
func frameError(ex *goja.Exception, code *programs) *Error {
	e := &Error{}
	var stack strings.Builder
	frames := ex.Stack()
	for i, f := range frames {
		p := f.Position()
		name, line, col := p.Filename, p.Line, p.Column
		if code != nil && name != "" {
			name, line, col = code.original(name, line, col)
		}
		if e.File == "" {
			if name != "" && line > 0 {
				e.File, e.Line, e.Column = name, line, col
			} else {
				e.native++ // a native function (a require, a module's) is innermost
			}
		}
		if len(frames) > maxStackFrames && i >= maxStackFrames-5 && i < len(frames)-5 {
			if i == maxStackFrames-5 {
				fmt.Fprintf(&stack, "\t... %d more frames\n", len(frames)-maxStackFrames)
			}
			continue
		}
		stack.WriteString("\tat ")
		if name == "" {
			// A native function: goja names one by its Go function,
			// which says nothing to a script's author.
			if fn := f.FuncName(); fn != "" && !strings.ContainsAny(fn, "./") {
				stack.WriteString(fn + " ")
			}
			stack.WriteString("(native code)\n")
			continue
		}
		if fn := f.FuncName(); fn != "" {
			stack.WriteString(fn)
			stack.WriteString(" (")
			fmt.Fprintf(&stack, "%s:%d:%d)", name, line, col)
		} else {
			fmt.Fprintf(&stack, "%s:%d:%d", name, line, col)
		}
		stack.WriteByte('\n')
	}
	e.Stack = stack.String()
	return e
}

// compileError converts what goja's parser or compiler returned into a
// *SyntaxError in the author's positions: colShift columns of a header
// come off line headerLine (a wrapper's, an inline body's), then code
// maps the rest (a source map, an HCL string's columns).
func compileError(err error, name string, colShift, headerLine int, code *programs) *SyntaxError {
	var se *SyntaxError
	var ce *goja.CompilerSyntaxError
	var pl parser.ErrorList
	var pe *parser.Error
	switch {
	case errors.As(err, &ce):
		se = syntaxError(&ce.CompilerError)
	case errors.As(err, &pl) && len(pl) > 0:
		se = &SyntaxError{File: pl[0].Position.Filename, Line: pl[0].Position.Line, Column: pl[0].Position.Column, Message: pl[0].Message}
	case errors.As(err, &pe):
		se = &SyntaxError{File: pe.Position.Filename, Line: pe.Position.Line, Column: pe.Position.Column, Message: pe.Message}
	default:
		return &SyntaxError{File: name, Line: 1, Column: 1, Message: err.Error()}
	}
	if se.File == "" {
		se.File = name
	}
	if code != nil {
		if n, ok := code.source(se.File); ok {
			se.File = n
			se.Column++
		}
		if _, ok := code.inlineMap(se.File); ok {
			// An inline body's own position (see programs.inline).
			se.File, se.Line, se.Column = code.original(se.File, se.Line, se.Column)
			return se
		}
	}
	if se.Line == headerLine && colShift > 0 {
		se.Column = max(1, se.Column-colShift)
	}
	if code != nil {
		se.Column = max(1, se.Column+code.delta(se.File, se.Line))
	}
	return se
}

// syntaxError converts a compile error.
func syntaxError(ce *goja.CompilerError) *SyntaxError {
	se := &SyntaxError{Message: ce.Message}
	if ce.File != nil {
		pos := ce.File.Position(ce.Offset)
		se.File, se.Line, se.Column = pos.Filename, pos.Line, pos.Column
	}
	return se
}
