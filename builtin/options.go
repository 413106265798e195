package builtin

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"
)

// options holds a builtin's validated option values, defaults filled in,
// converted to string, bool, float64, time.Duration or []string.
type options map[string]any

// parseOptions checks given against the spec and fills in defaults.
func parseOptions(spec Spec, given map[string]any) (options, error) {
	out := make(options, len(spec.Options))
	for _, o := range spec.Options {
		if o.Default != nil {
			v, err := convert(o, o.Default)
			if err != nil {
				return nil, &OptionError{Builtin: spec.Name, Option: o.Name, Msg: "bad default: " + err.Error()}
			}
			out[o.Name] = v
		}
	}
	names := make([]string, 0, len(given))
	for k := range given {
		names = append(names, k)
	}
	slices.Sort(names) // report problems in a stable order
	for _, k := range names {
		i := slices.IndexFunc(spec.Options, func(o OptionSpec) bool { return o.Name == k })
		if i < 0 {
			known := make([]string, len(spec.Options))
			for j, o := range spec.Options {
				known[j] = o.Name
			}
			msg := "unknown option"
			if len(known) > 0 {
				msg += " (options: " + strings.Join(known, ", ") + ")"
			} else {
				msg += " (this builtin takes no options)"
			}
			return nil, &OptionError{Builtin: spec.Name, Option: k, Msg: msg}
		}
		v, err := convert(spec.Options[i], given[k])
		if err != nil {
			return nil, &OptionError{Builtin: spec.Name, Option: k, Msg: err.Error()}
		}
		out[k] = v
	}
	return out, nil
}

// convert checks one value against its option's type.
func convert(o OptionSpec, v any) (any, error) {
	switch o.Type {
	case TypeString:
		if s, ok := v.(string); ok {
			return s, nil
		}
	case TypeBool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case TypeNumber:
		if f, ok := number(v); ok {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("must be a finite number, got %v", v)
			}
			return f, nil
		}
	case TypeDuration:
		switch d := v.(type) {
		case time.Duration:
			if d < 0 {
				return nil, fmt.Errorf("must not be negative, got %v", d)
			}
			return d, nil
		case string:
			p, err := time.ParseDuration(d)
			if err != nil {
				return nil, fmt.Errorf("must be a duration such as \"5m\" or \"30s\", got %q", d)
			}
			if p < 0 {
				return nil, fmt.Errorf("must not be negative, got %q", d)
			}
			return p, nil
		}
		return nil, fmt.Errorf("must be a duration string such as \"5m\", got %s", describe(v))
	case TypeList:
		switch l := v.(type) {
		case []string:
			return slices.Clone(l), nil
		case []any:
			out := make([]string, len(l))
			for i, e := range l {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("must be a list of strings, element %d is %s", i, describe(e))
				}
				out[i] = s
			}
			return out, nil
		}
		return nil, fmt.Errorf("must be a list of strings, got %s", describe(v))
	default:
		return nil, fmt.Errorf("has unknown type %q", o.Type)
	}
	return nil, fmt.Errorf("must be a %s, got %s", o.Type, describe(v))
}

// number converts any Go number to float64.
func number(v any) (float64, bool) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		return rv.Float(), true
	}
	return 0, false
}

// describe names a value's type for error messages.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("string %q", x)
	case bool:
		return fmt.Sprintf("bool %v", x)
	case []any, []string:
		return "a list"
	case map[string]any:
		return "an object"
	}
	if _, ok := number(v); ok {
		return fmt.Sprintf("number %v", v)
	}
	return fmt.Sprintf("%T", v)
}

func (o options) str(name string) string {
	s, _ := o[name].(string)
	return s
}

func (o options) boolean(name string) bool {
	b, _ := o[name].(bool)
	return b
}

func (o options) num(name string) float64 {
	f, _ := o[name].(float64)
	return f
}

func (o options) duration(name string) time.Duration {
	d, _ := o[name].(time.Duration)
	return d
}

func (o options) list(name string) []string {
	l, _ := o[name].([]string)
	return l
}

// has reports whether the option has a value (given or default).
func (o options) has(name string) bool {
	_, ok := o[name]
	return ok
}

// mode reads a "mode" option that must be deny or ask.
func (b *build) mode() (string, error) {
	m := b.opts.str("mode")
	switch m {
	case "deny", "ask":
		return m, nil
	}
	return "", b.optErr("mode", "must be \"deny\" or \"ask\", got %q", m)
}

// positiveInt reads a number option that must be a whole number >= 1.
func (b *build) positiveInt(name string) (int, error) {
	f := b.opts.num(name)
	if f < 1 || f != math.Trunc(f) || f > math.MaxInt32 {
		return 0, b.optErr(name, "must be a whole number of at least 1, got %v", f)
	}
	return int(f), nil
}
