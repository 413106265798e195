package script_test

import (
	"errors"
	"io"
	"log/slog"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
)

// hostileValues build, in a variable v, values that cannot leave the
// script, with the limit each one hits.
var hostileValues = map[string]struct{ build, limit string }{
	"cycle":              {`const v = {}; v.v = v;`, "cycle"},
	"cycle through list": {`const v = [1, {}]; v[1].back = v;`, "cycle"},
	"sparse 2^32-1":      {`const v = []; v.length = 4294967295;`, "length"},
	"sparse 2^20":        {`const v = []; v.length = 1 << 20;`, "length"},
	"deep":               {`let v = {}; for (let i = 0; i < 1000; i++) v = { v };`, "depth"},
	"deep arrays":        {`let v = []; for (let i = 0; i < 1000; i++) v = [v];`, "depth"},
	"shared doubling":    {`let v = [1]; for (let i = 0; i < 40; i++) v = [v, v];`, "values"},
	"long array":         {`const v = new Array(210000).fill(0);`, "length"},
	"many keys":          {`const v = {}; for (let i = 0; i < 210000; i++) v["k" + i] = i;`, "values"},
	"huge string":        {`const v = { s: "x".repeat(33 << 20) };`, "bytes"},
	"huge key":           {`const v = { ["k".repeat(33 << 20)]: 1 };`, "bytes"},
}

// heavy values take long to build: they are tried in fewer places.
var heavy = map[string]bool{"long array": true, "many keys": true, "huge string": true, "huge key": true}

func exportLimit(t *testing.T, err error, limit string) {
	t.Helper()
	var ee *script.ExportError
	if !errors.As(err, &ee) || ee.Limit != limit || !errors.Is(err, script.ErrExportLimit) {
		t.Fatalf("got %v, want an *ExportError for the %q limit", err, limit)
	}
}

// TestHostileValuesCannotLeave: a cyclic, sparse, deep or huge value
// returned, stored in ctx.state or logged is an error of the hook naming
// the limit, not a crash of the process; the runtime serves the next call.
func TestHostileValuesCannotLeave(t *testing.T) {
	p := newPool(t, script.WithSize(1), script.WithLogger(slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	ok := inline(t, p, `return { fine: true };`)
	for name, hv := range hostileValues {
		for _, use := range []string{
			`return { updated_input: { a: v } };`,
			`return { decision: "allow", updated_input: v };`,
			`const r = {}; r.updated_input = v; return r;`,
			`ctx.state.x = v; return {};`,
			`ctx.log.info("m", { v });`,
			`ctx.log.info("m", 1, v);`,
			`return Promise.resolve({ v });`,
		} {
			if heavy[name] && !strings.Contains(use, "updated_input: v") && !strings.Contains(use, "state") && !strings.Contains(use, "1, v") {
				continue
			}
			t.Run(name+"/"+use, func(t *testing.T) {
				h := inline(t, p, hv.build+"\n"+use)
				c := call(nil)
				c.Timeout, c.Deadline = time.Minute, time.Now().Add(time.Minute)
				_, err := run(t, h, c)
				exportLimit(t, err, hv.limit)
				if res, err := run(t, ok, call(nil)); err != nil || res["fine"] != true {
					t.Fatalf("the next call: %v %v", res, err)
				}
			})
		}
	}
}

// TestHostileValuesInNativeModules: a native module's argument goes
// through the same limits, with VM.Export (a RangeError carrying the
// *ExportError) and with Export (its message).
func TestHostileValuesInNativeModules(t *testing.T) {
	p := newPool(t, script.WithSize(1), script.WithModule("sink", func(vm *script.VM, module *goja.Object) {
		exports := module.Get("exports").(*goja.Object)
		_ = exports.Set("typed", func(c goja.FunctionCall) goja.Value { vm.Export(c.Argument(0)); return goja.Undefined() })
		_ = exports.Set("plain", func(c goja.FunctionCall) goja.Value { script.Export(c.Argument(0)); return goja.Undefined() })
	}))
	long := func() *engine.Call {
		c := call(nil)
		c.Timeout, c.Deadline = time.Minute, time.Now().Add(time.Minute)
		return c
	}
	for name, hv := range hostileValues {
		t.Run(name, func(t *testing.T) {
			_, err := run(t, inline(t, p, hv.build+`require("sink").typed(v);`), long())
			exportLimit(t, err, hv.limit)
			_, err = run(t, inline(t, p, hv.build+`require("sink").plain(v);`), long())
			if err == nil || !strings.Contains(err.Error(), "cannot leave the script") {
				t.Fatalf("plain Export: %v", err)
			}
			caught := inline(t, p, hv.build+`try { require("sink").typed(v); } catch (e) { return { caught: e instanceof Error && e.name === "RangeError" }; }`)
			if res, err := run(t, caught, long()); err != nil || res["caught"] != true {
				t.Fatalf("a script cannot catch the error: %v %v", res, err)
			}
		})
	}
}

// TestConsoleOfHostileValues: console, ctx.log messages and thrown values
// turn values into text without goja's Array.prototype.join, which ignores
// the deadline: a sparse array of length 2^32-1 used to write four billion
// commas. Each of these ends quickly, with the hook's own output or error.
func TestConsoleOfHostileValues(t *testing.T) {
	var out strings.Builder
	p := newPool(t, script.WithSize(1), script.WithLogger(slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	const sparse = `const a = []; a.length = 4294967295; a[0] = "first"; `
	for body, want := range map[string]string{
		`const v = {}; v.v = v; console.log(v); console.log("%s", v);`:          "[object Object]",
		`const v = [1, 2]; v.push(v); console.log("%s|%d|%%", v, "3", "rest");`: "1,2,|3|% rest",
		sparse + `console.log(a);`:            "first,,,",
		sparse + `console.log("%s", [a]);`:    "first,,,",
		sparse + `console.warn("x", a, a);`:   "x first,,,",
		sparse + `ctx.log.info(a);`:           "first,,,",
		sparse + `ctx.log.info([[a], 1]);`:    "first,,,",
		`console.log("%j", { b: [1, "x"] });`: `{\"b\":[1,\"x\"]}`,
		`const a = [1, 2]; Object.defineProperty(a, "toString", { value: () => "own" }); console.log(a);`: "own",
	} {
		out.Reset()
		c := call(nil)
		c.Timeout, c.Deadline = 5*time.Second, time.Now().Add(5*time.Second)
		start := time.Now()
		if _, err := run(t, inline(t, p, body), c); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s took %s", body, d)
		}
		if !strings.Contains(out.String(), want) || len(out.String()) > 20<<10 {
			t.Errorf("%s: logged %d bytes: %.200s, want %q", body, out.Len(), out.String(), want)
		}
	}
	for _, body := range []string{
		sparse + `throw a;`,
		sparse + `throw [a];`,
		sparse + `return Promise.reject(a);`,
		`const v = {}; v.v = v; console.log("%j", v);`,
	} {
		start := time.Now()
		_, err := run(t, inline(t, p, body), call(nil))
		if err == nil || len(err.Error()) > 20<<10 {
			t.Errorf("%s: %v", body, err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s took %s", body, d)
		}
	}
}

// TestExportFollowsJSON: what the converter gives for ordinary values.
func TestExportFollowsJSON(t *testing.T) {
	p := newPool(t)
	h := inline(t, p, `
		const shared = { s: 1 };
		const r = {
			n: 3, f: 1.5, big: 2n ** 70n, nan: NaN, inf: -Infinity, s: "é", t: true, nul: null,
			fn() {}, sym: Symbol("x"), und: undefined,
			list: [1, undefined, () => 1, Symbol("y"), null],
			date: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
			bytes: new Uint8Array([1, 2, 3]),
			a: shared, b: shared,
			payload: event.tool_input,
		};
		Object.defineProperty(r, "hidden", { value: "own, not enumerable", enumerable: false });
		r.nested = { fn() {}, keep: 1 };
		Object.defineProperty(r.nested, "hidden", { value: 1, enumerable: false });
		return r;`)
	payload := map[string]any{"tool_input": map[string]any{"command": "ls"}}
	res, err := run(t, h, call(payload))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"n": int64(3), "f": 1.5, "nan": nil, "inf": nil, "s": "é", "t": true, "nul": nil,
		"date": "2024-01-02T03:04:05Z", "hidden": "own, not enumerable"}
	for k, v := range want {
		if got, ok := res[k]; !ok || got != v {
			t.Errorf("%s = %#v (%v), want %#v", k, got, ok, v)
		}
	}
	for _, k := range []string{"fn", "sym", "und"} {
		if _, ok := res[k]; ok {
			t.Errorf("%s is in the result", k)
		}
	}
	if b, ok := res["big"].(*big.Int); !ok || b.String() != "1180591620717411303424" {
		t.Errorf("big = %#v", res["big"])
	}
	if l, ok := res["list"].([]any); !ok || len(l) != 5 || l[0] != int64(1) || l[1] != nil || l[2] != nil || l[3] != nil || l[4] != nil {
		t.Errorf("list = %#v", res["list"])
	}
	if b, ok := res["bytes"].([]uint8); !ok || len(b) != 3 || b[2] != 3 {
		t.Errorf("bytes = %#v", res["bytes"])
	}
	a, _ := res["a"].(map[string]any)
	b, _ := res["b"].(map[string]any)
	if a["s"] != int64(1) || b["s"] != int64(1) {
		t.Errorf("shared: %#v %#v", a, b)
	}
	if n, _ := res["nested"].(map[string]any); len(n) != 1 || n["keep"] != int64(1) {
		t.Errorf("nested = %#v", res["nested"])
	}
	if pl, _ := res["payload"].(map[string]any); pl["command"] != "ls" {
		t.Errorf("payload = %#v", res["payload"])
	}
	// ctx.state keeps the same data.
	st := engine.NewState(nil)
	c := call(nil)
	c.State = st
	if _, err := run(t, inline(t, p, `ctx.state.x = { d: new Date(0), l: [1, "a"] };`), c); err != nil {
		t.Fatal(err)
	}
	if x, _ := st.Get("x"); x.(map[string]any)["d"] != "1970-01-01T00:00:00Z" {
		t.Errorf("state: %#v", x)
	}
}
