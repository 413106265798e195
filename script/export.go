package script

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/dop251/goja"
)

// Everything that leaves a script as Go data (a result, ctx.state, a log
// attribute, a native module's argument) goes through one converter that
// walks the JavaScript value itself, checking its limits before it
// allocates: goja's own Export would build a sparse array of length 2^32-1
// element by element, and a cyclic object would recurse until the stack
// overflowed. A value past a limit is an error of the hook (*ExportError,
// thrown into the script where a script asked for the conversion).
//
// The conversion follows JSON.stringify: undefined, functions and symbols
// are left out of objects and are null in arrays; NaN and the infinities
// are null; a Date is its RFC 3339 time. Whole numbers become int64, as
// goja exports integers. The read-only views of the event payload give back
// the payload's own Go data, which is not copied.

// Export limits: per conversion, so per result, per state assignment, per
// log call, per argument.
const (
	// MaxExportDepth is how deeply objects and arrays may nest.
	MaxExportDepth = 100
	// MaxExportValues bounds the values (properties, array elements, the
	// value itself) one conversion visits.
	MaxExportValues = 200_000
	// MaxExportBytes bounds the bytes of the strings (keys and values) one
	// conversion produces.
	MaxExportBytes = 32 << 20
)

// ErrExportLimit is what every *ExportError matches with errors.Is.
var ErrExportLimit = errors.New("value cannot leave the script")

// ExportError is a value that cannot be turned into Go data: it is cyclic,
// too deep, or too large.
type ExportError struct {
	// Path locates the value inside what was converted, e.g.
	// "updated_input.args[2]" ("" for the value itself).
	Path string
	// Limit names the limit: "cycle", "depth", "values", "bytes" or
	// "length" (an array longer than the values left).
	Limit string
	// Max is the limit's value (0 for a cycle).
	Max int
}

func (e *ExportError) Error() string {
	at := ""
	if e.Path != "" {
		at = " at " + e.Path
	}
	switch e.Limit {
	case "cycle":
		return "value" + at + " is cyclic: it cannot leave the script"
	case "depth":
		return fmt.Sprintf("value%s nests deeper than %d levels: it cannot leave the script", at, e.Max)
	case "bytes":
		return fmt.Sprintf("value%s holds more than %d bytes of strings: it cannot leave the script", at, e.Max)
	case "length":
		return fmt.Sprintf("array%s is longer than the %d values a converted value may hold: it cannot leave the script", at, e.Max)
	}
	return fmt.Sprintf("value%s holds more than %d values: it cannot leave the script", at, e.Max)
}

// Unwrap returns ErrExportLimit.
func (e *ExportError) Unwrap() error { return ErrExportLimit }

var (
	roMapType   = reflect.TypeOf((*roMap)(nil))
	roArrayType = reflect.TypeOf((*roArray)(nil))
)

// exporter is one conversion: its budgets, the objects on the path from
// the root (for cycles), and the path itself, turned into text only for an
// error.
type exporter struct {
	values, bytes int
	stack         []*goja.Object
	// root is the key of the value being converted in a result, a log
	// call or state ("" for a lone value); path the steps below it.
	root string
	path []pathSeg
	// strs, when set, shares the boxed values of short strings between
	// results (see stringCache).
	strs *stringCache
}

// stringCache holds the boxed values of short strings a runtime's results
// return. A hook returns the same few strings call after call ("deny", a
// fixed reason, a context line); boxing a string into an any allocates,
// the cached value does not. Bounded: strings up to maxCachedString
// bytes, maxCachedStrings of them, the first ones seen. Strings are
// immutable, so sharing them between results is safe. One runtime's
// calls use it, one at a time.
type stringCache struct{ m map[string]any }

const (
	maxCachedString  = 128
	maxCachedStrings = 512
)

// box returns s as an any, from the cache when it can.
func (c *stringCache) box(s string) any {
	if c == nil || len(s) > maxCachedString {
		return s
	}
	if v, ok := c.m[s]; ok {
		return v
	}
	v := any(s)
	if len(c.m) < maxCachedStrings {
		if c.m == nil {
			c.m = make(map[string]any)
		}
		c.m[s] = v
	}
	return v
}

type pathSeg struct {
	key string
	idx int // -1: key
}

// maxPathKey bounds a key in an error's path.
const maxPathKey = 64

func newExporter() exporter {
	return exporter{values: MaxExportValues, bytes: MaxExportBytes}
}

func (x *exporter) fail(limit string, max int) error {
	var b strings.Builder
	for _, s := range append([]pathSeg{{key: x.root, idx: -1}}, x.path...) {
		if s.idx < 0 && s.key == "" {
			continue
		}
		if s.idx >= 0 {
			fmt.Fprintf(&b, "[%d]", s.idx)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		if len(s.key) > maxPathKey {
			b.WriteString(strings.ToValidUTF8(s.key[:maxPathKey], ""))
			b.WriteString("...")
			continue
		}
		b.WriteString(s.key)
	}
	return &ExportError{Path: b.String(), Limit: limit, Max: max}
}

// exportValue converts v; ok is false for a value JSON leaves out
// (undefined, a function, a symbol).
func exportValue(v goja.Value) (any, error) {
	x := newExporter()
	out, _, err := x.value(v, 0)
	return out, err
}

func (x *exporter) spend(values, bytes int) error {
	if x.values -= values; x.values < 0 {
		return x.fail("values", MaxExportValues)
	}
	if x.bytes -= bytes; x.bytes < 0 {
		return x.fail("bytes", MaxExportBytes)
	}
	return nil
}

func (x *exporter) value(v goja.Value, depth int) (out any, ok bool, err error) {
	if v == nil || goja.IsUndefined(v) {
		return nil, false, x.spend(1, 0)
	}
	if goja.IsNull(v) {
		return nil, true, x.spend(1, 0)
	}
	o, isObj := v.(*goja.Object)
	if !isObj {
		return x.primitive(v)
	}
	if err := x.spend(1, 0); err != nil {
		return nil, false, err
	}
	if _, isFn := goja.AssertFunction(o); isFn {
		return nil, false, nil
	}
	switch t := o.ExportType(); t {
	case roMapType:
		return o.Export().(*roMap).m, true, nil
	case roArrayType:
		return o.Export().(*roArray).l, true, nil
	}
	if depth >= MaxExportDepth {
		return nil, false, x.fail("depth", MaxExportDepth)
	}
	for _, a := range x.stack {
		if a == o {
			return nil, false, x.fail("cycle", 0)
		}
	}
	x.stack = append(x.stack, o)
	defer func() { x.stack = x.stack[:len(x.stack)-1] }()
	switch cls := o.ClassName(); {
	case cls == "Date":
		if t, isTime := o.Export().(time.Time); isTime {
			s := t.UTC().Format(time.RFC3339Nano)
			return s, true, x.spend(0, len(s))
		}
		return nil, true, nil
	case cls == "Array":
		return x.array(o, depth)
	case o.ExportType().Kind() == reflect.Slice:
		return x.typedArray(o)
	}
	return x.object(o, o.Keys(), depth)
}

func (x *exporter) primitive(v goja.Value) (any, bool, error) {
	if s, isStr := v.(goja.String); isStr {
		if err := x.spend(1, s.Length()); err != nil { // at least a byte a unit
			return nil, false, err
		}
		str := s.String()
		return x.strs.box(str), true, x.spend(0, len(str)-s.Length())
	}
	if err := x.spend(1, 0); err != nil {
		return nil, false, err
	}
	if _, isSym := v.(*goja.Symbol); isSym {
		return nil, false, nil
	}
	switch t := v.Export().(type) {
	case int64:
		return t, true, nil
	case float64:
		return exportFloat(t), true, nil
	case bool:
		return t, true, nil
	case *big.Int:
		return t, true, x.spend(0, t.BitLen()/8+1)
	case nil:
		return nil, false, nil
	default:
		return t, true, nil
	}
}

// exportFloat is a JavaScript number as a result holds it: an int64 when
// it is a safe integer, nil for NaN and the infinities (as JSON has them).
func exportFloat(f float64) any {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return nil
	case f == math.Trunc(f) && math.Abs(f) < 1<<53:
		return int64(f)
	}
	return f
}

func (x *exporter) array(o *goja.Object, depth int) (any, bool, error) {
	n := o.Get("length").ToInteger()
	if n > MaxExportValues {
		return nil, false, x.fail("length", MaxExportValues)
	}
	if n < 0 || n > int64(x.values) {
		return nil, false, x.fail("values", MaxExportValues)
	}
	out := make([]any, n)
	x.path = append(x.path, pathSeg{})
	defer func() { x.path = x.path[:len(x.path)-1] }()
	for i := range out {
		x.path[len(x.path)-1] = pathSeg{idx: i}
		v, _, err := x.value(o.Get(strconv.Itoa(i)), depth+1)
		if err != nil {
			return nil, false, err
		}
		out[i] = v
	}
	return out, true, nil
}

// typedArray copies a typed array's elements (goja's Export is a view of
// its buffer, which the script may change later).
func (x *exporter) typedArray(o *goja.Object) (any, bool, error) {
	view := reflect.ValueOf(o.Export())
	if view.Kind() != reflect.Slice {
		return nil, true, nil
	}
	n := view.Len()
	if err := x.spend(n, n*int(view.Type().Elem().Size())); err != nil {
		return nil, false, err
	}
	out := reflect.MakeSlice(view.Type(), n, n)
	reflect.Copy(out, view)
	return out.Interface(), true, nil
}

// object converts the properties keys of o.
func (x *exporter) object(o *goja.Object, keys []string, depth int) (any, bool, error) {
	if len(keys) > x.values {
		return nil, false, x.fail("values", MaxExportValues)
	}
	out := make(map[string]any, len(keys))
	x.path = append(x.path, pathSeg{idx: -1})
	defer func() { x.path = x.path[:len(x.path)-1] }()
	for _, k := range keys {
		x.path[len(x.path)-1] = pathSeg{key: k, idx: -1}
		if err := x.spend(0, len(k)); err != nil {
			return nil, false, err
		}
		v, keep, err := x.value(o.Get(k), depth+1)
		if err != nil {
			return nil, false, err
		}
		if keep {
			out[k] = v
		}
	}
	return out, true, nil
}

// export converts v for the script's runtime, throwing a RangeError
// carrying the *ExportError into the script when it cannot.
func (vm *VM) export(v goja.Value) any {
	out, err := exportValue(v)
	if err != nil {
		panic(vm.rangeError(err))
	}
	return out
}

// rangeError is a JavaScript RangeError whose cause is err (errors.As
// finds it in the hook's error).
func (vm *VM) rangeError(err error) goja.Value {
	e := vm.rt.NewGoError(err)
	_ = e.DefineDataProperty("name", vm.rt.ToValue("RangeError"), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return e
}

// Export turns a JavaScript value into plain Go data (maps, lists,
// strings, numbers, bools, nil) that outlives the call, seeing through the
// read-only views of event payloads. Native modules use it on their
// arguments. A value that is cyclic, nests deeper than MaxExportDepth or is
// larger than MaxExportValues or MaxExportBytes throws a RangeError into the
// script carrying the *ExportError.
func (vm *VM) Export(v goja.Value) any { return vm.export(v) }

// Export is VM.Export for native functions without the VM at hand; a value
// it cannot convert throws the *ExportError's message as a string. Call it
// only while a script runs (from a native function).
func Export(v goja.Value) any {
	out, err := exportValue(v)
	if err != nil {
		panic(goja.StringFromUTF16(utf16.Encode([]rune("RangeError: " + err.Error()))))
	}
	return out
}
