package conditions

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/expr-lang/expr/builtin"
)

// Type is a type name a function declaration may use for a parameter or a
// result. Each maps onto the Go type expr checks calls with.
type Type string

// The type names of function declarations.
const (
	TypeString Type = "string" // string
	TypeInt    Type = "int"    // int (an integer literal)
	TypeFloat  Type = "float"  // float64 (a float literal, a JSON number)
	TypeBool   Type = "bool"   // bool
	TypeList   Type = "list"   // []any (a list literal, a JSON array)
	TypeMap    Type = "map"    // map[string]any (a JSON object)
	TypeAny    Type = "any"    // any value, unchecked
)

// typeOf maps each declaration type name onto its Go type.
var typeOf = map[Type]reflect.Type{
	TypeString: reflect.TypeFor[string](),
	TypeInt:    reflect.TypeFor[int](),
	TypeFloat:  reflect.TypeFor[float64](),
	TypeBool:   reflect.TypeFor[bool](),
	TypeList:   reflect.TypeFor[[]any](),
	TypeMap:    reflect.TypeFor[map[string]any](),
	TypeAny:    reflect.TypeFor[any](),
}

// Types lists the type names a declaration may use.
func Types() []Type {
	return []Type{TypeString, TypeInt, TypeFloat, TypeBool, TypeList, TypeMap, TypeAny}
}

// Valid reports whether t is one of Types.
func (t Type) Valid() bool { _, ok := typeOf[t]; return ok }

// Declaration is a condition function a configuration says the program
// that loads it supplies: its name and signature. A Compiler given
// declarations (Declare) checks calls against them whether or not the
// program registered the function.
type Declaration struct {
	Name   string
	Params []Type
	Result Type
}

// String is the signature as name(params) result.
func (d Declaration) String() string {
	ps := make([]string, len(d.Params))
	for i, p := range d.Params {
		ps[i] = string(p)
	}
	return d.Name + "(" + strings.Join(ps, ", ") + ") " + string(d.Result)
}

// funcType is the Go function type of d's signature (an invalid type name
// counts as any: its error is reported where it is written).
func (d Declaration) funcType() reflect.Type {
	in := make([]reflect.Type, len(d.Params))
	for i, p := range d.Params {
		in[i] = goType(p)
	}
	return reflect.FuncOf(in, []reflect.Type{goType(d.Result)}, false)
}

func goType(t Type) reflect.Type {
	if g, ok := typeOf[t]; ok {
		return g
	}
	return typeOf[TypeAny]
}

// MissingFunctionError is the error of a call of a function the
// configuration declares but the running program did not register: the
// hook whose condition calls it fails, and its on_error applies.
type MissingFunctionError struct{ Name string }

func (e *MissingFunctionError) Error() string {
	return "function " + e.Name + " is declared by the configuration but not supplied by this program"
}

// DeclarationError says why a Declaration cannot be used.
type DeclarationError struct {
	Name string
	// Reason is what is wrong, e.g. "is a built-in condition function".
	Reason string
	// Declared is the declared signature; Registered the signatures the
	// program registered the function with (empty unless they differ
	// from the declaration).
	Declared   string
	Registered []string
}

func (e *DeclarationError) Error() string {
	if len(e.Registered) > 0 {
		return fmt.Sprintf("function %s is declared as %s but this program registers it as %s", e.Name, e.Declared, strings.Join(e.Registered, " or "))
	}
	return "function " + e.Name + " " + e.Reason
}

// isIdent reports whether s is an identifier of the condition language
// (ASCII letters, digits and _, not starting with a digit).
func isIdent(s string) bool {
	for i, r := range s {
		switch {
		case r == '_', 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
		case '0' <= r && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// reservedWords are words of the condition language a function cannot be
// named after.
var reservedWords = []string{
	"and", "or", "not", "in", "matches", "contains", "startsWith", "endsWith",
	"nil", "true", "false", "let", "if", "else", "len", StateName,
}

// CheckDeclaration reports why d cannot be declared to c: a name that is
// not an identifier or is a word of the language, a name of a built-in
// function (expr's, hookctl's standard ones), or a function the program
// registered with a signature that does not accept every call the
// declaration allows. A declaration of a function the program did not
// register is fine: calls of it fail at run time (MissingFunctionError).
func (c *Compiler) CheckDeclaration(d Declaration) error {
	if !isIdent(d.Name) || slices.Contains(reservedWords, d.Name) || d.Name == lenName {
		return &DeclarationError{Name: d.Name, Reason: "is not a name a function can have (an identifier that is not a word of the condition language)"}
	}
	for _, b := range builtin.Builtins {
		if b.Name == d.Name {
			return &DeclarationError{Name: d.Name, Reason: "is a built-in function of the condition language (expr's); a program cannot supply it"}
		}
	}
	f, ok := c.registered(d.Name)
	if !ok {
		return nil
	}
	if f.Standard {
		return &DeclarationError{Name: d.Name, Reason: "is one of hookctl's standard condition functions; a program cannot supply it"}
	}
	if len(f.Types) == 0 {
		return nil // untyped: the declaration gives it its signature
	}
	want := d.funcType()
	var got []string
	for _, t := range f.Types {
		ft := funcOf(t)
		if ft != nil && accepts(ft, want) {
			return nil
		}
		got = append(got, signature(d.Name, ft))
	}
	return &DeclarationError{Name: d.Name, Reason: "has another signature", Declared: d.String(), Registered: got}
}

// registered returns the function the program registered under name.
func (c *Compiler) registered(name string) (Function, bool) {
	for _, f := range slices.Backward(c.funcs) {
		if f.Name == name {
			return f, true
		}
	}
	return Function{}, false
}

// funcOf is the function type of a Types entry (nil when it is none).
func funcOf(t any) reflect.Type {
	rt := reflect.TypeOf(t)
	if rt != nil && rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if rt == nil || rt.Kind() != reflect.Func {
		return nil
	}
	return rt
}

// accepts reports whether a Go function of type got takes every call a
// function of type want takes and returns what want promises: the same
// number of parameters (or a variadic tail), each parameter the declared
// type or any, and the declared result (anything for any).
func accepts(got, want reflect.Type) bool {
	n := want.NumIn()
	switch {
	case got.IsVariadic():
		if n < got.NumIn()-1 {
			return false
		}
	case got.NumIn() != n:
		return false
	}
	for i := range n {
		var p reflect.Type
		if got.IsVariadic() && i >= got.NumIn()-1 {
			p = got.In(got.NumIn() - 1).Elem()
		} else {
			p = got.In(i)
		}
		if p != want.In(i) && !isAny(p) {
			return false
		}
	}
	if got.NumOut() < 1 || got.NumOut() > 2 {
		return false
	}
	r := want.Out(0)
	return isAny(r) || got.Out(0) == r
}

func isAny(t reflect.Type) bool { return t.Kind() == reflect.Interface && t.NumMethod() == 0 }

// signature writes a Go function type in the declarations' words.
func signature(name string, t reflect.Type) string {
	if t == nil {
		return name + "(?)"
	}
	word := func(t reflect.Type) string {
		for n, g := range typeOf {
			if g == t {
				return string(n)
			}
		}
		return t.String()
	}
	ps := make([]string, t.NumIn())
	for i := range t.NumIn() {
		if t.IsVariadic() && i == t.NumIn()-1 {
			ps[i] = "..." + word(t.In(i).Elem())
			continue
		}
		ps[i] = word(t.In(i))
	}
	var outs []string
	for i := range t.NumOut() {
		outs = append(outs, word(t.Out(i)))
	}
	out := strings.Join(outs, ", ")
	if len(outs) > 1 {
		out = "(" + out + ")"
	}
	return name + "(" + strings.Join(ps, ", ") + ") " + out
}

// Declare returns a Compiler with c's options that also knows the
// declared functions, so that calls of them compile and are checked
// against the declared signature, the same checks with or without the
// program's function: one the program registered keeps its Go function
// (CheckDeclaration says whether its own signature accepts the
// declaration's calls); one it did not register at all is a stub whose
// every call fails with a *MissingFunctionError (never a silent false). Declarations CheckDeclaration refuses as a built-in name
// are left out (the built-in stays); c itself is not changed. With no
// declarations, Declare returns c.
func (c *Compiler) Declare(decls ...Declaration) *Compiler {
	if len(decls) == 0 {
		return c
	}
	opts := append(slices.Clip(c.options), func(n *Compiler) {
		for _, d := range decls {
			if c.builtinName(d.Name) {
				continue
			}
			typ := []any{reflect.New(d.funcType()).Interface()}
			f, ok := n.registered(d.Name)
			if !ok {
				name := d.Name
				f = Function{Name: name, Fn: func(...any) (any, error) { return nil, &MissingFunctionError{Name: name} }}
				if n.stubs == nil {
					n.stubs = map[string]bool{}
				}
				n.stubs[name] = true
			}
			f.Types = typ
			n.funcs = append(slices.Clip(n.funcs), f) // the last of a name wins
		}
	})
	return NewCompiler(opts...)
}

// builtinName reports whether name is a built-in or standard function.
func (c *Compiler) builtinName(name string) bool {
	if name == lenName {
		return true
	}
	for _, b := range builtin.Builtins {
		if b.Name == name {
			return true
		}
	}
	f, ok := c.registered(name)
	return ok && f.Standard
}

// Supplies reports whether the program registered a function named name
// with the compiler (WithFunctions); a declared function it did not
// register is not supplied.
func (c *Compiler) Supplies(name string) bool {
	_, ok := c.registered(name)
	return ok && !c.stubs[name]
}

// Unsupplied lists the declared functions the condition calls that the
// program which compiled it did not register: calling them fails. An
// engine refuses a condition whose unsupplied functions it supplies
// itself (compiled by another compiler than the engine's).
func (p *Program) Unsupplied() []string { return p.unsupplied }

// Calls reports whether the condition calls the function name (a
// function's name cannot be read as a value, so naming it is calling it).
func (p *Program) Calls(name string) bool { return p.roots[name] }
