package hcl

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

func convertValue(v cty.Value, want cty.Type) (cty.Value, error) {
	return convert.Convert(v, want)
}

// toGo turns a cty value into plain Go data: string, bool, int64 or
// float64, []any, map[string]any, nil.
func toGo(v cty.Value) (any, error) {
	if v.IsNull() {
		return nil, nil
	}
	if !v.IsKnown() {
		return nil, fmt.Errorf("value is not known")
	}
	v, _ = v.Unmark()
	t := v.Type()
	switch {
	case t == cty.String:
		return v.AsString(), nil
	case t == cty.Bool:
		return v.True(), nil
	case t == cty.Number:
		bf := v.AsBigFloat()
		if bf.IsInt() {
			if i, acc := bf.Int64(); acc == big.Exact {
				return i, nil
			}
		}
		f, _ := bf.Float64()
		return f, nil
	case t.IsListType() || t.IsTupleType() || t.IsSetType():
		out := make([]any, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			g, err := toGo(e)
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		}
		return out, nil
	case t.IsMapType() || t.IsObjectType():
		out := make(map[string]any, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			g, err := toGo(e)
			if err != nil {
				return nil, err
			}
			out[k.AsString()] = g
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported value of type %s", t.FriendlyName())
}

// evaluator evaluates attributes, collecting diagnostics.
type evaluator struct {
	ctx   *hcl2.EvalContext
	diags hcl2.Diagnostics
}

func (ev *evaluator) errorf(r hcl2.Range, summary, format string, args ...any) {
	ev.diags = append(ev.diags, &hcl2.Diagnostic{
		Severity: hcl2.DiagError, Summary: summary, Detail: Detailf(format, args...), Subject: r.Ptr(),
	})
}

func (ev *evaluator) warnf(r hcl2.Range, summary, format string, args ...any) {
	ev.diags = append(ev.diags, &hcl2.Diagnostic{
		Severity: hcl2.DiagWarning, Summary: summary, Detail: Detailf(format, args...), Subject: r.Ptr(),
	})
}

// value evaluates an attribute converted to want, reporting a wrong type
// with the attribute's range.
func (ev *evaluator) value(a *hcl2.Attribute, want cty.Type) (cty.Value, bool) {
	v, d := a.Expr.Value(ev.ctx)
	d = interpolationHints(a.Expr, d)
	ev.diags = append(ev.diags, d...)
	if d.HasErrors() {
		return cty.NilVal, false
	}
	if !v.IsWhollyKnown() {
		// It uses a local that failed to evaluate (that local's error is
		// reported too); cty panics on reading an unknown value.
		ev.errorf(a.Expr.Range(), "Invalid value", "Attribute %q: value is not known.", a.Name)
		return cty.NilVal, false
	}
	if v.IsNull() {
		return v, true
	}
	if want == cty.DynamicPseudoType {
		return v, true
	}
	cv, err := convert.Convert(v, want)
	if err != nil {
		ev.errorf(a.Expr.Range(), "Incorrect attribute value type",
			"Attribute %q must be %s: %s.", a.Name, want.FriendlyName(), err)
		return cty.NilVal, false
	}
	return cv, true
}

func (ev *evaluator) str(a *hcl2.Attribute) (string, bool) {
	v, ok := ev.value(a, cty.String)
	if !ok || v.IsNull() {
		return "", ok
	}
	return v.AsString(), true
}

func (ev *evaluator) boolean(a *hcl2.Attribute) (bool, bool) {
	v, ok := ev.value(a, cty.Bool)
	if !ok || v.IsNull() {
		return false, ok
	}
	return v.True(), true
}

func (ev *evaluator) integer(a *hcl2.Attribute) (int, bool) {
	v, ok := ev.value(a, cty.Number)
	if !ok || v.IsNull() {
		return 0, ok
	}
	bf := v.AsBigFloat()
	i, acc := bf.Int64()
	if !bf.IsInt() || acc != big.Exact || i > 1<<31 || i < -(1<<31) {
		ev.errorf(a.Expr.Range(), "Invalid number", "Attribute %q must be a whole number.", a.Name)
		return 0, false
	}
	return int(i), true
}

func (ev *evaluator) strings(a *hcl2.Attribute) ([]string, bool) {
	v, ok := ev.value(a, cty.List(cty.String))
	if !ok || v.IsNull() {
		return nil, ok
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() {
			ev.errorf(a.Expr.Range(), "Invalid list", "Attribute %q must not contain null.", a.Name)
			return nil, false
		}
		out = append(out, e.AsString())
	}
	return out, true
}

// duration evaluates a duration written as a string ("500ms", "5s", "2m").
func (ev *evaluator) duration(a *hcl2.Attribute) (time.Duration, bool) {
	s, ok := ev.str(a)
	if !ok || s == "" {
		return 0, ok
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		ev.errorf(a.Expr.Range(), "Invalid duration",
			"Attribute %q must be a duration such as \"500ms\", \"5s\" or \"2m\", not %q.", a.Name, s)
		return 0, false
	}
	return d, true
}

// size evaluates a byte size written as a string ("512MB", "1GiB", "64k")
// or a number of bytes.
func (ev *evaluator) size(a *hcl2.Attribute) (int64, bool) {
	v, ok := ev.value(a, cty.DynamicPseudoType)
	if !ok || v.IsNull() {
		return 0, ok
	}
	bad := func() (int64, bool) {
		ev.errorf(a.Expr.Range(), "Invalid size",
			"Attribute %q must be a size such as \"512MB\", \"1GiB\" or a number of bytes.", a.Name)
		return 0, false
	}
	if !v.IsWhollyKnown() {
		return bad()
	}
	if v.Type() == cty.Number {
		n, acc := v.AsBigFloat().Int64()
		if acc != big.Exact || n < 0 {
			return bad()
		}
		return n, true
	}
	if v.Type() != cty.String {
		return bad()
	}
	n, err := parseSize(v.AsString())
	if err != nil {
		return bad()
	}
	return n, true
}

// parseSize reads "512MB", "1GiB", "64k", "1000": decimal (k, MB, GB) and
// binary (KiB, MiB, GiB) units, case-insensitive, B optional.
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9') {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("no number in %q", s)
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, err
	}
	unit := strings.ToLower(strings.TrimSpace(s[i:]))
	mult := map[string]int64{"": 1, "b": 1,
		"k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("unknown unit %q", unit)
	}
	if n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * mult, nil
}

// goValue evaluates an attribute into plain Go data.
func (ev *evaluator) goValue(a *hcl2.Attribute) (any, bool) {
	v, ok := ev.value(a, cty.DynamicPseudoType)
	if !ok {
		return nil, false
	}
	g, err := toGo(v)
	if err != nil {
		ev.errorf(a.Expr.Range(), "Invalid value", "Attribute %q: %s.", a.Name, err)
		return nil, false
	}
	return g, true
}
