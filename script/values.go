package script

import (
	"slices"
	"time"

	"github.com/hookctl/hookctl/engine"

	"github.com/dop251/goja"
)

// toJS exposes a Go value to a script. Maps and lists become read-only
// objects over the Go data (nothing is copied, nothing can be changed);
// scalars become JavaScript values.
func toJS(rt *goja.Runtime, v any) goja.Value {
	switch x := v.(type) {
	case nil:
		return goja.Null()
	case string:
		return rt.ToValue(x)
	case bool:
		return rt.ToValue(x)
	case float64:
		return rt.ToValue(x)
	case int:
		return rt.ToValue(x)
	case int64:
		return rt.ToValue(x)
	case map[string]any:
		return rt.NewDynamicObject(&roMap{rt: rt, m: x})
	case []any:
		return rt.NewDynamicArray(&roArray{rt: rt, l: x})
	case []string:
		l := make([]any, len(x))
		for i, s := range x {
			l[i] = s
		}
		return rt.NewDynamicArray(&roArray{rt: rt, l: l})
	case time.Time:
		return newDate(rt, x)
	}
	return rt.ToValue(v)
}

func newDate(rt *goja.Runtime, t time.Time) goja.Value {
	d, err := rt.New(rt.Get("Date"), rt.ToValue(t.UnixMilli()))
	if err != nil {
		return goja.Undefined()
	}
	return d
}

// roMap is a read-only JavaScript view of a Go map. Nested maps and lists
// are wrapped once and cached, so event.tool_input === event.tool_input.
type roMap struct {
	rt *goja.Runtime
	m  map[string]any
	// tool, when set, is the payload's canonical tool name, shown as
	// engine.ToolField when the map has none (the engine adds it to the
	// payload only for handlers that do not do so themselves).
	tool string
	// cache holds the values read so far; a hook reads a handful of
	// fields, for which a short list beats a map. Past cacheListMax the
	// values go to big, so a script walking a large object stays linear.
	cache []cachedProp
	big   map[string]goja.Value
}

const cacheListMax = 16

type cachedProp struct {
	key string
	v   goja.Value
}

func (o *roMap) Get(key string) goja.Value {
	for i := range o.cache {
		if o.cache[i].key == key {
			return o.cache[i].v
		}
	}
	if c, ok := o.big[key]; ok {
		return c
	}
	v, ok := o.m[key]
	if !ok {
		if key != engine.ToolField || o.tool == "" {
			return nil
		}
		v = o.tool
	}
	c := toJS(o.rt, v)
	switch {
	case o.cache == nil:
		o.cache = make([]cachedProp, 0, 4)
		fallthrough
	case len(o.cache) < cacheListMax:
		o.cache = append(o.cache, cachedProp{key, c})
	default:
		if o.big == nil {
			o.big = map[string]goja.Value{}
		}
		o.big[key] = c
	}
	return c
}

func (o *roMap) Set(string, goja.Value) bool { return false }
func (o *roMap) Has(key string) bool {
	_, ok := o.m[key]
	return ok || key == engine.ToolField && o.tool != ""
}
func (o *roMap) Delete(string) bool { return false }

func (o *roMap) Keys() []string {
	keys := make([]string, 0, len(o.m)+1)
	for k := range o.m {
		keys = append(keys, k)
	}
	if _, ok := o.m[engine.ToolField]; !ok && o.tool != "" {
		keys = append(keys, engine.ToolField)
	}
	slices.Sort(keys)
	return keys
}

// roArray is a read-only JavaScript view of a Go list.
type roArray struct {
	rt *goja.Runtime
	l  []any
}

func (a *roArray) Len() int { return len(a.l) }

func (a *roArray) Get(i int) goja.Value {
	if i < 0 || i >= len(a.l) {
		return nil
	}
	return toJS(a.rt, a.l[i])
}

func (a *roArray) Set(int, goja.Value) bool { return false }
func (a *roArray) SetLen(int) bool          { return false }

// ctxObject is the handler's ctx argument: read-only, backed by the call
// in progress.
type ctxObject struct{ vm *VM }

var ctxKeys = []string{"allow", "deadline", "event", "hook", "log", "state"}

func (c *ctxObject) Get(key string) goja.Value {
	vm := c.vm
	call := vm.cur
	if call == nil {
		return nil
	}
	switch key {
	case "state":
		return vm.stateObj
	case "hook":
		if vm.hookVal == nil {
			vm.hookVal = vm.rt.ToValue(call.Hook)
		}
		return vm.hookVal
	case "event":
		if vm.eventVal == nil {
			vm.eventVal = vm.rt.ToValue(call.Event)
		}
		return vm.eventVal
	case "log":
		return vm.logObj
	case "deadline":
		if call.Deadline.IsZero() {
			return goja.Null()
		}
		return newDate(vm.rt, call.Deadline)
	case "allow":
		return toJS(vm.rt, vm.allow)
	}
	return nil
}

func (c *ctxObject) Set(string, goja.Value) bool { return false }
func (c *ctxObject) Has(key string) bool         { return slices.Contains(ctxKeys, key) }
func (c *ctxObject) Delete(string) bool          { return false }
func (c *ctxObject) Keys() []string              { return slices.Clone(ctxKeys) }

// stateObject is ctx.state: the chain's shared state. Values written from
// JavaScript are stored as plain Go data, so conditions (`state.x`) and
// other runtimes can read them; nested values read back are read-only
// (assign a new value to change one).
type stateObject struct{ vm *VM }

func (s *stateObject) Get(key string) goja.Value {
	call := s.vm.cur
	if call == nil || call.State == nil {
		return nil
	}
	v, ok := call.State.Get(key)
	if !ok {
		return nil
	}
	return toJS(s.vm.rt, v)
}

func (s *stateObject) Set(key string, val goja.Value) bool {
	call := s.vm.cur
	if call == nil || call.State == nil {
		return false
	}
	call.State.Set(key, s.vm.export(val))
	return true
}

func (s *stateObject) Has(key string) bool {
	call := s.vm.cur
	if call == nil || call.State == nil {
		return false
	}
	_, ok := call.State.Get(key)
	return ok
}

func (s *stateObject) Delete(key string) bool {
	call := s.vm.cur
	if call == nil || call.State == nil {
		return false
	}
	call.State.Delete(key)
	return true
}

func (s *stateObject) Keys() []string {
	call := s.vm.cur
	if call == nil || call.State == nil {
		return nil
	}
	keys := call.State.Keys()
	slices.Sort(keys)
	return keys
}
