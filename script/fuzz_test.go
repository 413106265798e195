package script_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
)

// hostileJob is a promise job that tells whose identity it runs as.
const hostileJob = `() => { require("probe").who(); ctx.state.owner = ctx.hook; }`

// hostileValue returns a JavaScript expression for a hostile value of
// kind k, built from the numbers N and the string S of the payload (so
// that a kind is one program, however many inputs run it), and the N the
// kind wants from the fuzzer's n.
func hostileValue(k uint8) string {
	switch k % 22 {
	case 0:
		return `(() => { const o = { s: S }; o.self = o; return o; })()`
	case 1:
		return `(() => { let o = S; for (let i = 0; i < N; i++) o = { o }; return o; })()`
	case 2:
		return `(() => { const a = [S]; a.length = N; return a; })()`
	case 3:
		return `(S || "x").repeat(N / Math.max(1, S.length))`
	case 4:
		return `new Proxy({ a: 1 }, { get() { throw new Error(S); }, ownKeys() { return ["a"]; },
			getOwnPropertyDescriptor() { return { value: 1, enumerable: true, configurable: true }; } })`
	case 5:
		return `new Proxy({}, { ownKeys() { for (;;) {} } })`
	case 6:
		return `new Proxy({ x: 1 }, { ownKeys(t) { Promise.resolve().then(` + hostileJob + `); return Reflect.ownKeys(t); } })`
	case 7:
		return `({ get a() { Promise.resolve().then(` + hostileJob + `); if (N % 2) throw S; return S; } })`
	case 8:
		return `({ get a() { for (;;) {} } })`
	case 9:
		return `({ [Symbol(S)]: 1, s: Symbol(S), a: [Symbol(), 1] })`
	case 10:
		return `({ b: BigInt(N) ** BigInt(N % 300) })`
	case 11:
		return `({ d: new Date(N), bad: new Date(NaN) })`
	case 12:
		return `({ t: new Float64Array(N), u: new Uint8Array([1, 2]), v: new DataView(new ArrayBuffer(4)) })`
	case 13:
		return `({ then(r) { Promise.resolve().then(` + hostileJob + `); r({ decision: S }); } })`
	case 14:
		return `({ toString() { throw { toString() { throw 1; } }; } })`
	case 15:
		return `({ toString() { for (;;) {} } })`
	case 16:
		return `(() => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; })()`
	case 17:
		return `(() => { const mk = () => ({ get a() { return mk(); } }); return mk(); })()`
	case 18:
		return `(() => { let v = [S]; for (let i = 0; i < N; i++) v = [v, v]; return v; })()`
	case 19:
		return `({ f() {}, c: class {}, n: NaN, i: -Infinity, u: undefined })`
	case 20:
		return `(() => { const e = new Error(S); Object.defineProperty(e, "message", { get() { Promise.resolve().then(` + hostileJob + `); throw 1; } }); return e; })()`
	default:
		return `({ valueOf() { Promise.resolve().then(` + hostileJob + `); return 1; }, toString() { Promise.resolve().then(` + hostileJob + `); return S; } })`
	}
}

// hostileN bounds the fuzzer's n to what kind k can use without merely
// exhausting memory.
func hostileN(k uint8, n int64) float64 {
	u := uint64(n)
	switch k % 22 {
	case 1:
		return float64(u % 3000)
	case 2:
		return float64(uint32(u))
	case 3:
		return float64(u % (1 << 23))
	case 10:
		return float64(u % 1000000)
	case 11:
		return float64(u % (1 << 45))
	case 12:
		return float64(u % 300000)
	case 18:
		return float64(u % 40)
	}
	return float64(u % 1000)
}

// hostileUse puts the value v where a hook hands values over.
func hostileUse(mode uint8, v string) string {
	switch mode % 9 {
	case 0:
		return `return ` + v + `;`
	case 1:
		return `return { updated_input: ` + v + ` };`
	case 2:
		return `throw ` + v + `;`
	case 3:
		return `return Promise.reject(` + v + `);`
	case 4:
		return `return (async () => ` + v + `)();`
	case 5:
		return `ctx.state.x = ` + v + `; return {};`
	case 6:
		return `ctx.log.info("m", { v: ` + v + ` }); return {};`
	case 7:
		return `return { decision: "allow", reason: ` + v + ` };`
	default:
		return `const r = {}; r.additional_context = ` + v + `; return r;`
	}
}

// FuzzHostileResults feeds hostile return and thrown values (cycles,
// proxies with throwing, looping and job-queuing traps, getters, sparse
// arrays of huge length, huge strings, deep nesting, symbols, BigInt,
// dates, typed arrays, thenables) through result reading. Whatever the
// value, no panic escapes, the call ends with a result or an error within
// a bound of its deadline, and the next call on the same runtime runs as
// itself: no job of the hostile hook runs as it, on its state.
func FuzzHostileResults(f *testing.F) {
	for k := range uint8(22) {
		f.Add(k, int64(k)*7919, "x", k%9, uint8(0))
	}
	f.Add(uint8(2), int64(4294967295), "", uint8(1), uint8(0))
	f.Add(uint8(0), int64(0), "s", uint8(2), uint8(1))
	pr := &probe{}
	p, err := script.NewPool("testdata/cfg", script.WithSize(1), script.WithModule("probe", pr.module),
		script.WithLogger(slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(p.Close)
	next := inline(f, p, `require("probe").who(); return { decision: "deny", reason: ctx.hook };`, "exec")
	compiled := map[string]engine.Handler{}
	f.Fuzz(func(t *testing.T, kind uint8, n int64, s string, mode, wrap uint8) {
		if len(s) > 256 {
			s = s[:256] // S seeds values; the kinds make them large
		}
		v := hostileValue(kind)
		if wrap%2 == 1 {
			// The second value has its own N.
			v = "({ a: " + v + ", b: [((N) => " + hostileValue(wrap/2) + ")(event.n2)] })"
		}
		body := "const N = event.n, S = event.s;\n" + hostileUse(mode, v)
		h, ok := compiled[body]
		if !ok {
			prog, err := p.CompileInline("fuzz.hcl", body, 1)
			if err != nil {
				t.Fatalf("%s: %v", body, err)
			}
			h = p.Handler(prog)
			compiled[body] = h
		}
		pr.reset()
		mine, theirs := engine.NewState(nil), engine.NewState(nil)
		c := namedCall("hostile", mine)
		c.Payload = map[string]any{"n": hostileN(kind, n), "n2": hostileN(wrap/2, n), "s": s}
		c.Timeout = 100 * time.Millisecond
		c.Deadline = time.Now().Add(c.Timeout)
		start := time.Now()
		_, _ = h.Handle(context.Background(), c)
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%s: the call took %s (deadline 100ms)", body, d)
		}
		res, err := next.Handle(context.Background(), namedCall("next", theirs))
		if err != nil || res["decision"] != "deny" || res["reason"] != "next" {
			t.Fatalf("%s: the next call: %v %v", body, res, err)
		}
		if v, ok := theirs.Get("owner"); ok {
			t.Fatalf("%s: a job of the hostile hook set the next hook's state: %v", body, v)
		}
		own := 0
		for _, pc := range pr.calls() {
			switch {
			case pc.hook == "next" && pc.state == theirs && pc.exec:
				own++
			case pc.hook == "hostile" && pc.state == mine && !pc.exec:
			default:
				t.Fatalf("%s: a call ran as %+v", body, pc)
			}
		}
		if own != 1 {
			t.Fatalf("%s: the next hook's identity was used %d times", body, own)
		}
	})
}
