package script

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// Text for messages: thrown values, ctx.log messages and console output.
//
// JavaScript turns an array into text with Array.prototype.join, which goja
// runs in Go without looking at the interrupt flag: an array whose length
// was set to 2^32-1 has no elements, but joining it writes four billion
// commas, past any deadline and any memory. So arrays are joined here,
// element by element, and the text stops at maxMessage bytes; every other
// object gives its own toString, as JavaScript would.

// text returns v as a message, at most about maxMessage bytes. It runs the
// toString of objects other than arrays (script code that may throw: call
// it in JavaScript or inside the runtime's exception handling).
func (vm *VM) text(v goja.Value) string {
	var b strings.Builder
	vm.writeText(&b, v, nil)
	return truncate(b.String())
}

func (vm *VM) writeText(b *strings.Builder, v goja.Value, seen []*goja.Object) {
	if b.Len() > maxMessage {
		return
	}
	o, isObj := v.(*goja.Object)
	if !isObj {
		b.WriteString(cut(describePrimitive(v)))
		return
	}
	if o.ClassName() != "Array" || !vm.joinsAsArray(o) {
		b.WriteString(cut(o.String()))
		return
	}
	for _, s := range seen {
		if s == o {
			return // a cycle joins as "", as in JavaScript
		}
	}
	seen = append(seen, o)
	n := o.Get("length").ToInteger()
	for i := int64(0); i < n && b.Len() <= maxMessage; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if e := o.Get(strconv.FormatInt(i, 10)); e != nil && !goja.IsUndefined(e) && !goja.IsNull(e) {
			vm.writeText(b, e, seen)
		}
	}
}

// joinsAsArray reports whether o's toString is Array.prototype.toString,
// which joins it (a script may have given an array its own).
func (vm *VM) joinsAsArray(o *goja.Object) bool {
	ts, _ := o.Get("toString").(*goja.Object)
	return ts != nil && ts == vm.arrayToString
}

// consoleModule is console: log, info and debug log at the info level,
// warn and error at theirs, to the pool's logger. The first argument may
// hold %s (text), %d (number), %j (JSON) and %%; the other arguments follow
// as text.
func (vm *VM) consoleModule(module *goja.Object) {
	exports := module.Get("exports").(*goja.Object)
	for _, m := range []struct {
		name  string
		level slog.Level
	}{{"log", slog.LevelInfo}, {"info", slog.LevelInfo}, {"debug", slog.LevelInfo}, {"warn", slog.LevelWarn}, {"error", slog.LevelError}} {
		level := m.level
		_ = exports.Set(m.name, func(c goja.FunctionCall) goja.Value {
			vm.console(level, c.Arguments)
			return goja.Undefined()
		})
	}
}

func (vm *VM) console(level slog.Level, args []goja.Value) {
	log := vm.pool.log
	if !log.Enabled(context.Background(), level) {
		return
	}
	var b strings.Builder
	format := ""
	if len(args) > 0 && !goja.IsUndefined(args[0]) {
		format = vm.text(args[0])
	}
	rest := args[min(1, len(args)):]
	pct := false
	for _, r := range format {
		if b.Len() > maxMessage {
			break
		}
		switch {
		case !pct && r == '%':
			pct = true
			continue
		case !pct:
			b.WriteRune(r)
			continue
		}
		pct = false
		if len(rest) == 0 || !strings.ContainsRune("sdj", r) {
			b.WriteByte('%')
			if r != '%' || len(rest) == 0 {
				b.WriteRune(r)
			}
			continue
		}
		v := rest[0]
		rest = rest[1:]
		switch r {
		case 's':
			vm.writeText(&b, v, nil)
		case 'd':
			b.WriteString(v.ToNumber().String())
		case 'j':
			j, err := json.Marshal(vm.export(v))
			if err != nil {
				panic(vm.rt.NewTypeError("console: %%j: %s", err.Error()))
			}
			b.WriteString(cut(string(j)))
		}
	}
	for _, v := range rest {
		if b.Len() > maxMessage {
			break
		}
		b.WriteByte(' ')
		vm.writeText(&b, v, nil)
	}
	var attrs []any
	if call := vm.cur; call != nil {
		attrs = append(attrs, "hook", call.Hook, "event", call.Event)
	}
	log.Log(context.Background(), level, truncate(b.String()), attrs...)
}
