package script

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
)

// jobProbe is a native module a promise job calls once it has spun past
// its hook's deadline: each call records which hook was in progress ("" for
// none) and whether its deadline had passed.
type jobProbe struct {
	mu   sync.Mutex
	seen []string
}

func (jp *jobProbe) module(vm *VM, module *goja.Object) {
	_ = module.Get("exports").(*goja.Object).Set("ran", func(goja.FunctionCall) goja.Value {
		who := "no hook"
		if c := vm.Call(); c != nil {
			who = c.Hook
			if !c.Deadline.IsZero() && time.Now().After(c.Deadline) {
				who += " past its deadline"
			}
		}
		jp.mu.Lock()
		jp.seen = append(jp.seen, who)
		jp.mu.Unlock()
		return goja.Undefined()
	})
}

func (jp *jobProbe) calls() []string {
	jp.mu.Lock()
	defer jp.mu.Unlock()
	return append([]string(nil), jp.seen...)
}

// spinJob is a promise job that spins for longer than the hostile hook's
// timeout and then reports where it ran. Its words are spelled so that no
// scan of the source for "Promise", "then" or "require" finds them.
const spinJob = `() => { const end = Date.now() + 1500; while (Date.now() < end) {} globalThis["req" + "uire"]("probe").ran(); }`

// jobSpellings queue spinJob (JOB) in the hook's call, or while its result
// or thrown value is read, or while a module it requires loads: every way
// of reaching the job queue we could think of, most of them with no tell-tale
// word in the source.
func jobSpellings() map[string]string {
	q := strconv.Quote(`globalThis["Pro" + "mise"].resolve()["th" + "en"](` + spinJob + `)`)
	s := map[string]string{
		"computed names":   `globalThis["Pro" + "mise"].resolve()["th" + "en"](JOB);`,
		"Reflect":          `const P = Reflect.get(globalThis, "Pro" + "mise"); Reflect.apply(Reflect.get(P.prototype, "th" + "en"), P.resolve(), [JOB]);`,
		"aliases":          `const g = globalThis, k = ["Pro", "mise"].join(""), t = "th" + "en"; const P = g[k]; const p = P.resolve(1); p[t](JOB);`,
		"catch":            `globalThis["Pro" + "mise"].reject(1).catch(JOB);`,
		"finally":          `globalThis["Pro" + "mise"].resolve().finally(JOB);`,
		"all":              `globalThis["Pro" + "mise"].all([1]).finally(JOB);`,
		"constructor":      `new globalThis["Pro" + "mise"]((r) => r()).finally(JOB);`,
		"thenable":         `globalThis["Pro" + "mise"].resolve({ ["th" + "en"](r) { (JOB)(); r(); } });`,
		"async":            `(async () => { await 0; (JOB)(); })();`,
		"await thenable":   `(async () => { await { then(r) { (JOB)(); r(); } }; })();`,
		"await in finally": `(async () => { try { return 1; } finally { await null; (JOB)(); } })();`,
		"indirect eval":    `globalThis["ev" + "al"](` + q + `);`,
		"Func" + "tion":    `new globalThis["Func" + "tion"](` + q + `)();`,
		"result getter":    `return { get decision() { globalThis["Pro" + "mise"].resolve()["th" + "en"](JOB); return "allow"; } };`,
		"result proxy":     `return new Proxy({}, { ownKeys() { globalThis["Pro" + "mise"].resolve()["th" + "en"](JOB); return []; } });`,
		"nested getter":    `return { updated_input: { get command() { globalThis["Pro" + "mise"].resolve()["th" + "en"](JOB); return "ls"; } } };`,
		"thrown toString":  `throw { toString() { globalThis["Pro" + "mise"].resolve()["th" + "en"](JOB); return "x"; } };`,
		"returned promise": `return globalThis["Pro" + "mise"].resolve({ ["th" + "en"](r) { (JOB)(); r({}); } });`,
		"rejection stack":  `return globalThis["Pro" + "mise"].reject({ get stack() { globalThis["Pro" + "mise"].resolve()["th" + "en"](JOB); return "s"; } });`,
		"module load":      `globalThis["req" + "uire"]("./queue.js"); return;`,
	}
	for k, v := range s {
		s[k] = strings.ReplaceAll(v, "JOB", spinJob)
	}
	return s
}

// jobsEngine registers, on pool p, the hostile body as a PreToolUse hook
// with a short timeout, then a deny that must stand, both of one pool, so
// that the fire enters a runtime (unless the pool says not to).
func jobsEngine(t *testing.T, p *Pool, hostile string, timeout time.Duration) *engine.Engine {
	t.Helper()
	e, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	for i, h := range []struct {
		id, body string
		timeout  time.Duration
	}{
		{"hostile", hostile, timeout},
		{"deny", `if (/\brm\s+-rf\b/.test(event.tool_input.command)) return { decision: "deny", reason: "no rm -rf" };`, 10 * time.Second},
	} {
		prog, err := p.CompileInline("hooks.hcl", h.body, 1)
		if err != nil {
			t.Fatalf("%s: %v", h.id, err)
		}
		if err := e.Register(engine.Hook{ID: h.id, Event: "PreToolUse", Priority: -i, Handler: p.Handler(prog), Timeout: h.timeout}); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// fireBounded fires rm -rf and fails the test, rather than hang it, when no
// outcome comes back within a minute (the hooks' own timeouts are a
// fraction of that).
func fireBounded(t *testing.T, e *engine.Engine) engine.Outcome {
	t.Helper()
	type fired struct {
		out engine.Outcome
		err error
	}
	done := make(chan fired, 1)
	go func() {
		out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{
			"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"},
		}})
		done <- fired{out, err}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	select {
	case f := <-done:
		if f.err != nil {
			t.Fatal(f.err)
		}
		return f.out
	case <-ctx.Done():
		t.Fatal("the fire never returned: a hook's promise job runs on with no deadline")
		return engine.Outcome{}
	}
}

func jobsPool(t *testing.T, opts ...Option) (*Pool, *jobProbe) {
	t.Helper()
	dir := t.TempDir()
	queue := `globalThis["Pro" + "mise"].resolve()["th" + "en"](` + spinJob + `); module.exports = {};`
	if err := os.WriteFile(filepath.Join(dir, "queue.js"), []byte(queue), 0o600); err != nil {
		t.Fatal(err)
	}
	jp := &jobProbe{}
	p, err := NewPool(dir, append([]Option{WithModule("probe", jp.module)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p, jp
}

// TestJobsNeverEscapeTheirHook: however a hook reaches the promise job
// queue, a job it queues runs inside its call, under its deadline, or not
// at all: never after the call, when the fire's entry is left, as no hook
// and with no deadline. The deny after it stands, the fire returns, and
// the runtime is discarded (no job is left in any runtime). With the entry
// on and off alike.
func TestJobsNeverEscapeTheirHook(t *testing.T) {
	for name, body := range jobSpellings() {
		for _, nested := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/nested=%v", name, nested), func(t *testing.T) {
				t.Parallel()
				p, jp := jobsPool(t, WithNestedEntry(nested))
				e := jobsEngine(t, p, body, 150*time.Millisecond)
				out := fireBounded(t, e)
				if nested && p.nested.Load() == 0 {
					t.Fatal("the fire did not enter a runtime: the test tests nothing")
				}
				if out.Decision != "deny" {
					t.Fatalf("decision %q, want the deny: %+v", out.Decision, out.Hooks)
				}
				tr, _ := out.Hook("hostile")
				if tr.Status != engine.StatusTimeout && tr.Status != engine.StatusError {
					// A hook that threw keeps its own error.
					t.Errorf("the hostile hook: %s %v, want a timeout or an error", tr.Status, tr.Error)
				}
				if seen := jp.calls(); len(seen) != 0 {
					t.Fatalf("the job ran outside its hook's deadline, as %q", seen)
				}
				if st := p.Stats(); st.InUse != 0 || st.Discarded == 0 {
					t.Fatalf("stats %+v: the runtime that held the job was not discarded", st)
				}
			})
		}
	}
}

// TestJobsRunAsTheirHook: a job that finishes in time runs inside its
// hook's call, as that hook, nested or not.
func TestJobsRunAsTheirHook(t *testing.T) {
	quick := strings.ReplaceAll(jobSpellings()["computed names"], "1500", "0")
	for _, nested := range []bool{true, false} {
		p, jp := jobsPool(t, WithNestedEntry(nested))
		e := jobsEngine(t, p, quick+` return { additional_context: "queued" };`, 10*time.Second)
		out := fireBounded(t, e)
		if out.Decision != "deny" || out.AdditionalContext != "queued" {
			t.Fatalf("nested=%v: %+v", nested, out)
		}
		if seen := jp.calls(); len(seen) != 1 || seen[0] != "hostile" {
			t.Fatalf("nested=%v: the job ran as %q, want once as \"hostile\"", nested, seen)
		}
	}
}

// TestJobsStayUnderTheMemoryLimit: a job that allocates is interrupted by
// the memory watchdog as part of its hook's call, long before its (long)
// deadline; it never allocates on with no watchdog after the hook.
func TestJobsStayUnderTheMemoryLimit(t *testing.T) {
	p, _ := jobsPool(t, WithMemoryLimit(32<<20))
	// About 170 MB if nothing stops it: far past the limit, bounded all
	// the same.
	hog := `globalThis["Pro" + "mise"].resolve()["th" + "en"](() => { const keep = []; for (let i = 0; i < 40; i++) keep.push(new Array(1 << 18).fill(i)); globalThis.kept = keep; });`
	e := jobsEngine(t, p, hog, 30*time.Second)
	out := fireBounded(t, e)
	if p.nested.Load() == 0 {
		t.Fatal("the fire did not enter a runtime")
	}
	if out.Decision != "deny" {
		t.Fatalf("decision %q: %+v", out.Decision, out.Hooks)
	}
	tr, _ := out.Hook("hostile")
	if tr.Status != engine.StatusError || !strings.Contains(tr.Error, ErrMemoryLimit.Error()) {
		t.Fatalf("the hostile hook: %s %v, want the memory limit", tr.Status, tr.Error)
	}
}

// differentialBodies are hooks, hostile and plain, that the differential
// test chains: promise jobs in every form, thrown values and results that
// run code when read, unsettled promises, timeouts, a deny. None reads
// what an earlier hook left in its runtime's globals: which runtime a hook
// lands on after another broke one is the pool's choice, not the entry's.
var differentialBodies = []string{
	`if (/\brm\s+-rf\b/.test(event.tool_input.command)) return { decision: "deny", reason: "no rm -rf" };`,
	`return { updated_input: { command: event.tool_input.command + " #" } };`,
	`const v = await Promise.resolve(event.tool_input.command); return { additional_context: "awaited " + v };`,
	`globalThis["Pro" + "mise"].resolve()["th" + "en"](() => { ctx.state.n = (ctx.state.n || 0) + 1; }); return { additional_context: "queued " + (ctx.state.n || 0) };`,
	`return (async () => { await null; return { decision: "ask", reason: "async ask" }; })();`,
	`return { get decision() { globalThis["Pro" + "mise"].resolve()["th" + "en"](() => { ctx.state.g = 1; }); return "allow"; } };`,
	`throw { toString() { globalThis["Pro" + "mise"].resolve()["th" + "en"](() => {}); return "thrown"; } };`,
	`return Promise.reject(new Error("rejected"));`,
	`return new Promise(() => {});`,
	`return globalThis["Pro" + "mise"].resolve({ ["th" + "en"](r) { r({ decision: "deny", reason: "thenable" }); } });`,
	`for (;;) {}`,
	`globalThis["Pro" + "mise"].resolve()["th" + "en"](() => { for (;;) {} }); return { decision: "allow" };`,
	`const f = () => globalThis["Pro" + "mise"].resolve()["th" + "en"](f); f(); return { decision: "allow" }; // endless`,
	`const e = new Error("x"); Object.defineProperty(e, "message", { get() { throw 1; } }); throw e;`,
	`return new Proxy({}, { ownKeys() { globalThis["Pro" + "mise"].resolve()["th" + "en"](() => {}); return ["reason"]; }, getOwnPropertyDescriptor() { return { value: "proxy", enumerable: true, configurable: true }; }, get() { return "proxy"; } });`,
	`queueMicrotask(() => {}); return;`,
	`globalThis["ev" + "al"]("globalThis['Pro' + 'mise'].resolve()['th' + 'en'](() => { globalThis.__evaled = true; })"); return { additional_context: "eval" };`,
	`return { decision: "deny", reason: "plain deny" };`,
	`let n = 0; globalThis["Pro" + "mise"].resolve()["th" + "en"](() => { n = 1; }); throw { toString() { return "jobs ran first: " + n; } };`,
}

// outcomeText is what the differential test compares: the decision and
// output, and each hook's status and error.
func outcomeText(out engine.Outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "decision=%q reason=%q context=%q updated=%v\n", out.Decision, out.Reason, out.AdditionalContext, out.UpdatedInput)
	for _, h := range out.Hooks {
		msg := h.Error
		if h.Status == engine.StatusTimeout {
			// Where the interrupt lands in a chain of jobs is the
			// clock's choice, entry or not.
			msg = ""
		}
		fmt.Fprintf(&b, "  %s %s %q\n", h.ID, h.Status, msg)
	}
	return b.String()
}

// TestNestedEntryIsInvisible: the same chains of hooks fired with the same
// payloads, in the same order, with the nested entry on and off, give the
// same outcomes, hook by hook. The chains are drawn from
// differentialBodies with a fixed seed.
func TestNestedEntryIsInvisible(t *testing.T) {
	chains := 60
	if testing.Short() {
		chains = 15
	}
	modes := [2]*Pool{}
	progs := [2][]*Program{}
	for i, on := range []bool{true, false} {
		p, _ := jobsPool(t, WithNestedEntry(on))
		modes[i] = p
		for _, body := range differentialBodies {
			prog, err := p.CompileInline("hooks.hcl", body, 1)
			if err != nil {
				t.Fatalf("%s: %v", body, err)
			}
			progs[i] = append(progs[i], prog)
		}
	}
	payloads := []string{"rm -rf /", "ls", "échò ☃"}
	rng := rand.New(rand.NewPCG(24, 2))
	for c := range chains {
		pick := make([]int, 2+rng.IntN(3))
		for i := range pick {
			pick[i] = rng.IntN(len(differentialBodies))
		}
		var got [2][]string
		for m, p := range modes {
			e, err := engine.New()
			if err != nil {
				t.Fatal(err)
			}
			for i, b := range pick {
				timeout := 5 * time.Second
				if body := differentialBodies[b]; strings.Contains(body, "for (;;)") || strings.Contains(body, "// endless") {
					timeout = 30 * time.Millisecond
				}
				if err := e.Register(engine.Hook{ID: fmt.Sprintf("h%d", i), Event: "PreToolUse", Priority: -i, Handler: p.Handler(progs[m][b]), Timeout: timeout}); err != nil {
					t.Fatal(err)
				}
			}
			for _, cmd := range payloads {
				out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{
					"session_id": fmt.Sprint("s", c), "tool_name": "Bash", "tool_input": map[string]any{"command": cmd},
				}})
				if err != nil {
					t.Fatal(err)
				}
				got[m] = append(got[m], outcomeText(out))
			}
			e.Close(context.Background())
		}
		for i := range payloads {
			if got[0][i] != got[1][i] {
				t.Fatalf("chain %v, payload %q:\nnested:\n%s\nnot nested:\n%s", pick, payloads[i], got[0][i], got[1][i])
			}
		}
	}
	if modes[0].nested.Load() == 0 || modes[1].nested.Load() != 0 {
		t.Fatalf("calls nested: %d with the entry, %d without", modes[0].nested.Load(), modes[1].nested.Load())
	}
}
