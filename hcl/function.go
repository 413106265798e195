package hcl

import (
	"errors"
	"strings"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hookctl/hookctl/conditions"
)

// FunctionBlock is a `function` block: a condition function the program
// that embeds hookctl supplies (conditions.WithFunctions), declared so
// that conditions calling it compile and are checked everywhere the
// configuration is loaded, the hookctl command included.
//
//	function "isOnCall" {
//	  params      = ["string"]
//	  result      = "bool"
//	  description = "the user is on call"
//	}
type FunctionBlock struct {
	conditions.Declaration
	Description string
	// Range is where the block is declared (its header).
	Range Range
}

var functionSchema = &hcl2.BodySchema{
	Attributes: []hcl2.AttributeSchema{
		{Name: "params"},
		{Name: "result", Required: true},
		{Name: "description"},
	},
}

// typeNames lists the type names of declarations, for messages.
func typeNames() string {
	var names []string
	for _, t := range conditions.Types() {
		names = append(names, string(t))
	}
	return strings.Join(names, ", ")
}

// decodeFunctions decodes the function blocks and makes the condition
// compiler know the functions they declare: the ones the program
// registered get checked against the declaration, the others become stubs
// whose calls fail at run time.
func (l *loader) decodeFunctions(blocks []*hcl2.Block) {
	if len(blocks) == 0 {
		return
	}
	seen := map[string]hcl2.Range{}
	var decls []conditions.Declaration
	for _, b := range blocks {
		// A declaration with a bad type is still declared (the bad type
		// as any), so that its calls report nothing more.
		fb, typed := l.decodeFunction(b)
		if prev, dup := seen[fb.Name]; dup {
			l.ev.errorf(b.LabelRanges[0], "Duplicate function", "Function %q is already declared at %s.", fb.Name, at(prev))
			continue
		}
		seen[fb.Name] = b.DefRange
		if err := l.conds.CheckDeclaration(fb.Declaration); err != nil {
			var de *conditions.DeclarationError
			switch {
			case !errors.As(err, &de) || len(de.Registered) == 0:
				l.ev.errorf(b.LabelRanges[0], "Function name taken", "%s.", err)
				continue
			case typed: // an untyped declaration cannot be compared
				l.ev.errorf(b.DefRange, "Function signature mismatch",
					"%s.\nThe program that loads this configuration registered %s with a signature that does not accept every call the declaration allows; make the declaration match the Go function (or the Go function match it).", err, fb.Name)
			}
		}
		decls = append(decls, fb.Declaration)
		l.cfg.Functions = append(l.cfg.Functions, fb)
	}
	l.conds = l.conds.Declare(decls...)
}

func (l *loader) decodeFunction(b *hcl2.Block) (*FunctionBlock, bool) {
	content, d := b.Body.Content(functionSchema)
	l.diags = append(l.diags, d...)
	fb := &FunctionBlock{Declaration: conditions.Declaration{Name: b.Labels[0], Result: conditions.TypeAny}, Range: b.DefRange}
	ok := !d.HasErrors()
	if a := content.Attributes["params"]; a != nil {
		exprs, diags := hcl2.ExprList(a.Expr)
		if diags.HasErrors() {
			l.ev.errorf(a.Expr.Range(), "Invalid list", "params lists the parameters' type names, e.g. params = [\"string\", \"int\"] (type names: %s).", typeNames())
			ok = false
		}
		for _, e := range exprs {
			t, good := l.typeName(e, "params")
			ok = ok && good
			fb.Params = append(fb.Params, t)
		}
	}
	if a := content.Attributes["result"]; a != nil {
		t, good := l.typeName(a.Expr, "result")
		ok = ok && good
		fb.Result = t
	}
	if a := content.Attributes["description"]; a != nil {
		fb.Description, _ = l.ev.str(a)
	}
	return fb, ok
}

// typeName evaluates one type name, reporting an unknown one at its own
// position.
func (l *loader) typeName(e hcl2.Expression, attr string) (conditions.Type, bool) {
	v, d := e.Value(l.ev.ctx)
	l.ev.diags = append(l.ev.diags, d...)
	if d.HasErrors() {
		return conditions.TypeAny, false
	}
	if !v.IsWhollyKnown() || v.IsNull() || !v.Type().Equals(cty.String) {
		l.ev.errorf(e.Range(), "Unknown type", "%s: a type name is a string, one of %s.", attr, typeNames())
		return conditions.TypeAny, false
	}
	t := conditions.Type(v.AsString())
	if !t.Valid() {
		l.ev.errorf(e.Range(), "Unknown type", "%s: %q is not a type name; use one of %s.", attr, string(t), typeNames())
		return conditions.TypeAny, false
	}
	return t, true
}
