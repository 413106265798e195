package conditions

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"

	"github.com/hookctl/hookctl/internal/fastpath"
)

// StateName is the identifier under which the chain's shared state is
// visible to conditions.
const StateName = "state"

// DefaultMaxNodes bounds the size of a condition's syntax tree.
const DefaultMaxNodes = 2000

// Program is a compiled condition. It is immutable and safe for concurrent
// use by many Evaluators.
type Program struct {
	source    string
	prog      *vm.Program
	usesState bool
	roots     map[string]bool // the identifiers the condition names
	fast      boolFn          // nil when the condition needs the virtual machine
	// unsupplied are the declared functions the condition calls that the
	// program did not register (see Declare).
	unsupplied []string
}

// Source returns the condition as written.
func (p *Program) Source() string { return p.source }

// UsesState reports whether the condition reads `state`; the engine only
// snapshots the chain state for conditions that do.
func (p *Program) UsesState() bool { return p.usesState }

// Reads reports whether the condition may read the payload's root field
// name: it names it, or reads the environment as a whole ($env).
func (p *Program) Reads(name string) bool { return p.roots[name] || p.roots["$env"] }

// Function is a helper function made available to conditions.
type Function struct {
	Name string
	Fn   func(params ...any) (any, error)
	// Types are optional typed signatures (e.g. new(func(string) bool))
	// that let the compiler check calls.
	Types []any
	// Standard marks a function of hookctl's own condition language
	// (stdlib.ConditionFunctions): a configuration may not declare it.
	Standard bool
}

// Option configures a Compiler.
type Option func(*Compiler)

// WithFunctions adds helper functions to the condition language.
func WithFunctions(fns ...Function) Option {
	return func(c *Compiler) { c.funcs = append(c.funcs, fns...) }
}

// WithMaxNodes bounds the size of a condition (DefaultMaxNodes when unset).
func WithMaxNodes(n uint) Option {
	return func(c *Compiler) { c.maxNodes = n }
}

// WithoutFastPaths turns optimisations off (those of off that concern
// conditions), for the differential tests that compare each with its
// plain path. Nothing else has a reason to use it.
func WithoutFastPaths(off fastpath.Set) Option {
	return func(c *Compiler) { c.off |= off }
}

// Compiler compiles conditions with one set of options. It is safe for
// concurrent use once built. A condition compiled twice is the same
// *Program (configurations repeat conditions; a Program is immutable), so
// that it compiles once and an engine can share its result within a fire.
type Compiler struct {
	options   []Option // as given, for Declare
	funcs     []Function
	maxNodes  uint
	opts      []expr.Option
	known     map[string]bool // functions a call may name
	funcNames map[string]bool // the registered and declared ones
	off       fastpath.Set    // the optimisations turned off
	stubs     map[string]bool // declared functions nobody registered

	mu    sync.Mutex
	cache map[string]*Program
	atoms map[string]*atom // the sub-conditions of the cached Programs
}

// maxCached bounds the compiled conditions a Compiler keeps.
const maxCached = 4096

// NewCompiler returns a Compiler configured by opts.
func NewCompiler(opts ...Option) *Compiler {
	c := &Compiler{maxNodes: DefaultMaxNodes, options: slices.Clip(opts)}
	for _, o := range opts {
		o(c)
	}
	c.opts = []expr.Option{
		expr.Env(map[string]any{}),
		expr.AllowUndefinedVariables(),
		expr.AsBool(),
		expr.MaxNodes(c.maxNodes),
	}
	c.known = map[string]bool{lenName: true}
	c.funcNames = map[string]bool{}
	for _, b := range builtin.Builtins {
		c.known[b.Name] = true
	}
	for _, f := range c.funcs {
		c.opts = append(c.opts, expr.Function(f.Name, f.Fn, f.Types...))
		c.known[f.Name] = true
		c.funcNames[f.Name] = true
	}
	c.opts = append(c.opts, expr.Function(lenName, nilSafeLen, new(func(any) int)))
	return c
}

// lenName is the nil-safe len conditions call: len of a missing field
// (nil) is 0, not an error at fire time.
const lenName = "hookctlLen"

func nilSafeLen(p ...any) (any, error) {
	switch v := p[0].(type) {
	case nil:
		return 0, nil
	case string:
		return len([]rune(v)), nil
	case []any:
		return len(v), nil
	case map[string]any:
		return len(v), nil
	}
	rv := reflect.ValueOf(p[0])
	switch rv.Kind() {
	case reflect.Array, reflect.Slice, reflect.Map, reflect.String, reflect.Chan:
		return rv.Len(), nil
	}
	return nil, fmt.Errorf("invalid argument for len (type %T)", p[0])
}

// check refuses what compiles but cannot work at fire time: a call of a
// function nobody registered (expr compiles fooBar(x) as a call of a
// missing variable) and a method call on a payload value
// (tool_input.command.includes('rm'): payload values have no methods).
func (c *Compiler) check(src string) error {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil // the compiler reports it with its position
	}
	v := &callChecker{known: c.known, funcs: c.funcNames}
	ast.Walk(&tree.Node, v)
	if v.node == nil {
		v.bareFunction()
	}
	if v.node == nil {
		return nil
	}
	// expr's own error positions the node (line, column, snippet).
	ferr := (&file.Error{Location: v.node.Location(), Message: v.msg}).Bind(file.NewSource(src))
	return wrapError(src, ferr)
}

type callChecker struct {
	known map[string]bool
	funcs map[string]bool
	node  ast.Node
	msg   string
	// callees are the identifiers called; idents every identifier that
	// names a registered or declared function.
	callees map[ast.Node]bool
	idents  []*ast.IdentifierNode
}

// bareFunction refuses a registered or declared function's name read as
// a value (tool_name == "Bash" where a function is named tool_name): expr
// reads it as the function, which shadows the payload field, and
// comparisons such as string(tool_name) == "Bash" or tool_name != nil
// compile to a constant.
func (v *callChecker) bareFunction() {
	for _, id := range v.idents {
		if !v.callees[id] {
			v.node, v.msg = id, fmt.Sprintf("%s is a condition function (registered by the program or declared by a function block), not a value: call it, %s(...), or read a payload field of that name as $env.%s", id.Value, id.Value, id.Value)
			return
		}
	}
}

func (v *callChecker) Visit(n *ast.Node) {
	if v.node != nil {
		return
	}
	if id, ok := (*n).(*ast.IdentifierNode); ok && v.funcs[id.Value] {
		v.idents = append(v.idents, id)
		return
	}
	call, ok := (*n).(*ast.CallNode)
	if !ok {
		return
	}
	switch callee := call.Callee.(type) {
	case *ast.IdentifierNode:
		if v.funcs[callee.Value] {
			if v.callees == nil {
				v.callees = map[ast.Node]bool{}
			}
			v.callees[callee] = true
		}
		if !v.known[callee.Value] {
			v.node, v.msg = call, fmt.Sprintf("unknown function %s (conditions know expr's built-in functions and the ones registered with the engine)", callee.Value)
		}
	case *ast.MemberNode:
		name := ""
		if p, ok := callee.Property.(*ast.StringNode); ok {
			name = p.Value
		}
		v.node, v.msg = call, fmt.Sprintf("%s(...) is a method call: payload values have no methods; use an operator (contains, startsWith, endsWith, matches, in) or a function (lower, upper, len, ...)", name)
	}
}

// Compile compiles src with a default Compiler.
func Compile(src string, opts ...Option) (*Program, error) {
	return NewCompiler(opts...).Compile(src)
}

// Compile compiles one condition. A syntax or type error is returned as an
// *Error carrying the line and column inside src.
func (c *Compiler) Compile(src string) (*Program, error) {
	if c.off.Has(fastpath.CondCompileCache) {
		return c.compile(src)
	}
	c.mu.Lock()
	p, ok := c.cache[src]
	c.mu.Unlock()
	if ok {
		return p, nil
	}
	p, err := c.compile(src)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	switch {
	case c.cache == nil:
		c.cache = map[string]*Program{}
	case len(c.cache) >= maxCached:
		c.cache = map[string]*Program{}
		c.atoms = nil // Programs compiled from now on share new atoms
	}
	c.cache[src] = p
	c.mu.Unlock()
	return p, nil
}

func (c *Compiler) compile(src string) (*Program, error) {
	if strings.TrimSpace(src) == "" {
		return nil, &Error{Source: src, Line: 1, Column: 1, Message: "empty condition"}
	}
	if err := c.check(src); err != nil {
		return nil, err
	}
	nv := &nilSafe{}
	opts := make([]expr.Option, 0, len(c.opts)+1)
	opts = append(opts, c.opts...)
	opts = append(opts, expr.Patch(nv))
	prog, err := expr.Compile(src, opts...)
	if err != nil {
		return nil, wrapError(src, err)
	}
	p := &Program{source: src, prog: prog, usesState: nv.usesState, roots: nv.roots}
	for name := range c.stubs {
		if nv.roots[name] {
			p.unsupplied = append(p.unsupplied, name)
		}
	}
	slices.Sort(p.unsupplied)
	if !c.off.Has(fastpath.CondClosures) {
		intern := c.intern
		if c.off.Has(fastpath.CondSharedAtoms) {
			intern = nil
		}
		p.fast = compileFast(prog.Node(), intern, c.off)
	}
	return p, nil
}

// intern returns the atom of a sub-condition, counting the conditions
// that hold it.
func (c *Compiler) intern(key string, dyn bool) *atom {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.atoms == nil {
		c.atoms = map[string]*atom{}
	}
	a, ok := c.atoms[key]
	if !ok {
		a = &atom{key: key, dyn: dyn}
		c.atoms[key] = a
	}
	if a.refs.Add(1) >= 2 {
		a.shared.Store(true)
	}
	return a
}

// Fast reports whether the condition runs on the closure fast path rather
// than the expr virtual machine.
func (p *Program) Fast() bool { return p.fast != nil }

// nilSafe makes every member access optional (`a.b` behaves as `a?.b`), so
// missing payload fields evaluate to nil, and notes whether `state` is read.
type nilSafe struct {
	usesState bool
	roots     map[string]bool
}

func (v *nilSafe) Visit(n *ast.Node) {
	switch m := (*n).(type) {
	case *ast.IdentifierNode:
		if v.roots == nil {
			v.roots = map[string]bool{}
		}
		v.roots[m.Value] = true
		if m.Value == StateName {
			v.usesState = true
		}
	case *ast.MemberNode:
		m.Optional = true
		ast.Patch(n, &ast.ChainNode{Node: m})
	case *ast.CallNode:
		// A method-style callee must stay a plain member access.
		if c, ok := m.Callee.(*ast.ChainNode); ok {
			m.Callee = c.Node
		}
	case *ast.BuiltinNode:
		// len of a missing field is 0 (len(nil) written as such is still
		// the compiler's error).
		if m.Name == "len" && len(m.Arguments) == 1 {
			if _, literal := m.Arguments[0].(*ast.NilNode); !literal {
				ast.Patch(n, &ast.CallNode{Callee: &ast.IdentifierNode{Value: lenName}, Arguments: m.Arguments})
			}
		}
	}
}

// Evaluator runs Programs. It reuses one expr virtual machine and one
// scratch environment, so it is not safe for concurrent use: keep one per
// worker goroutine. The zero value is ready to use.
type Evaluator struct {
	vm    vm.VM
	env   map[string]any
	inUse bool
	sc    scope
	// The payload the remembered sub-conditions hold for (Within).
	memoID  uintptr
	memoGen uint64
}

// Within tells the Evaluator which payload the next evaluations see: gen
// counts the caller's changes to it (a rewrite), and payload its identity.
// While both stay the same, sub-conditions that several conditions share
// are evaluated once; any change, or Within(nil, 0), forgets them.
func (e *Evaluator) Within(payload map[string]any, gen uint64) {
	id := mapIdentity(payload)
	if id == e.memoID && gen == e.memoGen && id != 0 {
		return
	}
	e.memoID, e.memoGen = id, gen
	if e.sc.memoN > 0 {
		clear(e.sc.memo[:e.sc.memoN])
		e.sc.memoN = 0
	}
}

// mapIdentity is a map's identity (0 for nil).
func mapIdentity(m map[string]any) uintptr {
	if m == nil {
		return 0
	}
	return uintptr(reflect.ValueOf(m).UnsafePointer())
}

// Eval evaluates p against payload and, when p reads it, state. A result
// that is nil counts as false; any other non-boolean result is an error.
// Runtime errors (a regex on a number, an exhausted memory budget, ...) are
// returned as errors, never panics.
func (e *Evaluator) Eval(p *Program, payload map[string]any, state map[string]any) (bool, error) {
	if p.fast != nil && !e.inUse {
		e.sc.env, e.sc.state, e.sc.have = payload, state, 0
		e.sc.memoOn = e.memoID != 0 && mapIdentity(payload) == e.memoID
		if p.usesState && state == nil {
			e.sc.state = emptyEnv
		}
		b, ok := p.fast(&e.sc)
		if e.sc.have != 0 {
			clear(e.sc.vals[:])
		}
		e.sc.env, e.sc.state, e.sc.have = nil, nil, 0
		if ok {
			return b, nil
		}
	}
	return e.evalVM(p, payload, state)
}

func (e *Evaluator) evalVM(p *Program, payload map[string]any, state map[string]any) (bool, error) {
	var env map[string]any
	if p.usesState && !e.inUse {
		if e.env == nil {
			e.env = make(map[string]any, len(payload)+1)
		}
		for k, v := range payload {
			e.env[k] = v
		}
		if state == nil {
			state = map[string]any{}
		}
		e.env[StateName] = state
		env = e.env
		e.inUse = true
		defer e.release()
	} else if p.usesState {
		// Re-entrant use (a helper function evaluating another
		// condition): build a private environment.
		env = make(map[string]any, len(payload)+1)
		for k, v := range payload {
			env[k] = v
		}
		env[StateName] = state
	} else {
		env = payload
		if env == nil {
			env = emptyEnv
		}
	}
	out, err := e.vm.Run(p.prog, env)
	if err != nil {
		return false, &RuntimeError{Source: p.source, Err: err}
	}
	switch b := out.(type) {
	case bool:
		return b, nil
	case nil:
		return false, nil
	default:
		return false, &RuntimeError{Source: p.source, Err: fmt.Errorf("condition evaluated to %T, want bool", out)}
	}
}

func (e *Evaluator) release() {
	clear(e.env)
	e.inUse = false
}

var emptyEnv = map[string]any{}

// Eval is a convenience that evaluates p with a fresh Evaluator.
func (p *Program) Eval(payload, state map[string]any) (bool, error) {
	var e Evaluator
	return e.Eval(p, payload, state)
}

// Error is a compile error with its position inside the condition source.
// Line and Column are 1-based.
type Error struct {
	Source  string
	Line    int
	Column  int
	Message string
	// Snippet is the source line with a caret under the error.
	Snippet string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Message)
}

func wrapError(src string, err error) error {
	if fe, ok := err.(*file.Error); ok {
		return &Error{Source: src, Line: fe.Line, Column: fe.Column + 1, Message: fe.Message, Snippet: strings.TrimPrefix(fe.Snippet, "\n")}
	}
	return &Error{Source: src, Line: 1, Column: 1, Message: err.Error()}
}

// RuntimeError is an error raised while evaluating a condition.
type RuntimeError struct {
	Source string
	Err    error
}

func (e *RuntimeError) Error() string { return "condition " + e.Source + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *RuntimeError) Unwrap() error { return e.Err }
