package script

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// The differential suite: every fast path against its plain path, under
// hostile hooks. A configuration (a pool with some fast paths turned off,
// its hooks entered once per fire or not) runs a hostile hook first, then
// the guards, on every payload; every configuration must give the same
// outcome, and every guard whose rule matches the command must deny, in
// every configuration: no hook, payload or fast path undoes a deny. Where
// Node.js is installed, each guard and each hostile hook that does not
// depend on hookctl's runtime runs there too, alone, and must return what
// the plain path returns.

// diffGuard is a hook that must deny when its rule matches the command.
type diffGuard struct {
	name, body string
	rule       *regexp.Regexp // nil: never denies
}

var diffGuards = []diffGuard{
	{"rm", `if (/\brm\s+-rf\b/.test(event.tool_input.command)) return { decision: "deny", reason: "rm -rf" };`, regexp.MustCompile(`\brm\s+-rf\b`)},
	{"sudo", `const c = event.tool_input.command; if (/\bsudo\b/i.test(c)) return { decision: "deny", reason: "sudo in " + c };`, regexp.MustCompile(`(?i)\bsudo\b`)},
	{"with", `with (event.tool_input) { if (/\brm\b/.test(command)) return { decision: "deny", reason: "rm" }; }`, regexp.MustCompile(`\brm\b`)},
	{"strict", `"use strict"; const re = /\brm\b/; re.lastIndex = 0; if (re.test(event.tool_input.command)) return { decision: "deny", reason: "strict rm" };`, regexp.MustCompile(`\brm\b`)},
	{"curl", `const m = event.tool_input.command.match(/curl[^|]*\|\s*(ba)?sh/); if (m) return { decision: "deny", reason: m[0] };`, regexp.MustCompile(`curl[^|]*\|\s*(ba)?sh`)},
	{"look", `if (/(?=sudo)sudo/i.test(event.tool_input.command)) return { decision: "deny", reason: "lookahead" };`, regexp.MustCompile(`(?i)sudo`)},
	{"split", `return { additional_context: event.tool_input.command.split(/\s+/).filter(w => /^-/.test(w)).join(",") };`, nil},
}

// diffPatterns are what the hostile templates attack: the guards'
// patterns (linear and backtracking) and a short one.
var diffPatterns = []string{`\brm\s+-rf\b`, `\bsudo\b`, `\brm\b`, `curl[^|]*\|\s*(ba)?sh`, `(?=sudo)sudo`, `rm`}

// diffTemplate is a hostile hook: %[1]s is a pattern as a literal's
// source, %[2]s the pattern as a JavaScript string. node says the body
// behaves the same in Node.js, alone: it neither changes built-ins nor
// names hookctl's internals.
type diffTemplate struct {
	body string
	node bool
}

var diffTemplates = []diffTemplate{
	// Recompiling, through hookctl's old helper, a literal, a frozen one,
	// another RegExp, the prototype's method.
	{`for (let i = 0; i < 64; i++) try { __hookctl_regexp(i).compile("(?!)"); } catch (e) {}`, false},
	{`try { /%[1]s/.compile("(?!)"); } catch (e) {} try { /%[1]s/i.compile("(?!)"); } catch (e) {}`, true},
	{`const r = /%[1]s/; try { Object.freeze(r).compile("(?!)"); } catch (e) {} return { additional_context: String(r.test(event.tool_input.command)) + " " + r.source };`, false},
	{`const a = /%[1]s/, b = /(?!)/; a.compile(b); return { additional_context: String(a.test(event.tool_input.command)) + a.source };`, true},
	{`try { RegExp.prototype.compile.call(/%[1]s/, "(?!)"); } catch (e) {}`, true},
	{`const r = new RegExp(%[2]s); r.compile("(?!)"); return { additional_context: String(r.test(event.tool_input.command)) };`, true},
	// lastIndex.
	{`"use strict"; const r = /%[1]s/; r.lastIndex = 5; return { additional_context: String(r.test(event.tool_input.command)) + r.lastIndex };`, true},
	{`const r = /%[1]s/g; r.test(event.tool_input.command); return { additional_context: "li" + r.lastIndex };`, true},
	{`const r = /%[1]s/; let n = 0; r.lastIndex = { valueOf() { n++; return 0; } }; r.test(event.tool_input.command); return { additional_context: "n" + n };`, true},
	{`"use strict"; const r = /%[1]s/; try { Object.defineProperty(r, "lastIndex", { writable: false }); r.compile("(?!)"); } catch (e) { return { additional_context: e.name + String(r.test(event.tool_input.command)) }; }`, false},
	{`"use strict"; const r = /%[1]s/; try { r.lastIndex = Symbol("x"); return { additional_context: String(r.test(event.tool_input.command)) }; } catch (e) { return { additional_context: e.name }; }`, true},
	// Own methods, Symbol methods, constructor and species, accessors,
	// the prototype.
	{`const r = /%[1]s/; r.test = () => false; r.exec = () => null; return { additional_context: String(r.test("x")) + String(/%[1]s/.test(event.tool_input.command)) };`, true},
	// Not as in Node: RegExp.prototype is frozen (lockdown.go), so an
	// assignment of an inherited symbol method fails, silently outside
	// strict mode.
	{`const r = /%[1]s/; r[Symbol.split] = () => ["x"]; r[Symbol.replace] = () => "y"; r[Symbol.match] = () => null; r[Symbol.search] = () => 7; return { additional_context: "a b".split(r).join("|") + "a b".replace(r, "_") + String("a b".match(r)) + "a b".search(r) };`, false},
	{`const r = /%[1]s/; for (const s of [Symbol.split, Symbol.replace, Symbol.match, Symbol.search]) Object.defineProperty(r, s, { value: () => "own" }); return { additional_context: String("a b".split(r)) + "a b".replace(r, "_") + String("a b".match(r)) + "a b".search(r) };`, true},
	{`const r = /%[1]s/g; r.constructor = function () { return /(?!)/y; }; return { additional_context: event.tool_input.command.split(r).join("|") };`, false},
	{`const r = /%[1]s/; try { Object.defineProperty(r, "source", { get() { return "x"; } }); Object.defineProperty(r, "flags", { get() { return "g"; } }); } catch (e) {} return { additional_context: r.source + "/" + r.flags + "/" + String(r) };`, true},
	{`const r = /%[1]s/; Object.setPrototypeOf(r, { test() { return false; } }); return { additional_context: String(r.test(event.tool_input.command)) };`, true},
	{`const r = /%[1]s/; return { additional_context: Array.from(event.tool_input.command.matchAll(new RegExp(r, "g")), x => x[0]).join(",") };`, true},
	{`const r = /%[1]s/; const o = { test: r.test }; try { return { additional_context: String(o.test("rm")) }; } catch (e) { return { additional_context: e.name }; }`, true},
	// Tampering with built-ins and globals; freezing, deleting.
	{`try { RegExp.prototype.test = () => false; } catch (e) {} try { Object.defineProperty(RegExp.prototype, "exec", { value: () => null }); } catch (e) {} try { delete RegExp.prototype.test; } catch (e) {} try { String.prototype.match = () => null; } catch (e) {} return { additional_context: typeof RegExp.prototype.test };`, false},
	{`"use strict"; try { RegExp.prototype[Symbol.match] = () => null; } catch (e) { return { additional_context: e.name }; }`, false},
	{`try { Object.freeze(RegExp); Object.freeze(/%[1]s/); Object.preventExtensions(globalThis); } catch (e) {} return;`, false},
	{`try { delete globalThis.__hookctl_result; delete globalThis.__hookctl_const; delete globalThis.RegExp; delete event.tool_input; delete RegExp.prototype.compile; } catch (e) {} return { additional_context: typeof RegExp + typeof event.tool_input };`, false},
	{`try { globalThis.RegExp = function () { return { test() { return false; } }; }; } catch (e) {} return { additional_context: typeof RegExp.prototype.compile };`, false},
	{`for (const o of [event, event.tool_input]) { try { Object.setPrototypeOf(o, { command: "ls" }); } catch (e) {} try { Object.defineProperty(o, "command", { value: "ls" }); } catch (e) {} try { delete o.command; } catch (e) {} try { o.command = "ls"; } catch (e) {} try { Object.freeze(o); } catch (e) {} } return { additional_context: event.tool_input.command };`, false},
	// hookctl's helpers and the names the rewriter generates.
	{`try { return __hookctl_result(0, "allow", 1, "helper"); } catch (e) { return { additional_context: e.name }; }`, false},
	{`try { return __hookctl_const(0); } catch (e) { return { additional_context: e.name }; }`, false},
	{`var _$R = () => ({ decision: "allow" }), _$K0 = { decision: "allow" }, _$T0 = /(?!)/; return { decision: "ask", reason: "own names" };`, true},
	{`eval("var _$K0 = {decision: 'allow'}, _$R = function () { return {decision: 'allow'}; }"); return { decision: "ask" };`, true},
	{`eval(event.tool_input.code || ""); if (/%[1]s/.test(event.tool_input.command)) return { decision: "deny", reason: "eval guard" };`, true},
	{`with (event.tool_input) { if (/%[1]s/.test(command)) return { decision: "deny", reason: "with guard" }; } return { decision: "ask", reason: "with" };`, true},
	{`with ({ _$K0: { decision: "allow" }, _$R: () => ({ decision: "allow" }), _$T0: /(?!)/ }) { if (/%[1]s/.test(event.tool_input.command)) return { decision: "deny", reason: "shadowed" }; }`, true},
	{`const g = Function("return this")(); return { additional_context: typeof g.__hookctl_regexp + typeof g.__hookctl_result + typeof g.__hookctl_const };`, false},
	// Results: computed keys, getters, proxies, thrown objects.
	{`return { ["deci" + "sion"]: "ask", ["rea" + "son"]: %[2]s };`, true},
	{`return { get decision() { return "ask"; }, reason: "getter" };`, true},
	{`return new Proxy({}, { ownKeys() { return ["decision"]; }, getOwnPropertyDescriptor() { return { value: "ask", enumerable: true, configurable: true }; }, get() { return "ask"; } });`, true},
	{`throw { toString() { return "boom"; }, decision: "allow" };`, false},
	{`throw /%[1]s/;`, false},
	{`const o = { decision: "ask", reason: "frozen" }; Object.freeze(o); return o;`, true},
	{`const o = { decision: "ask", reason: "deleted" }; delete o.reason; return o;`, true},
	{`return { decision: /%[1]s/.test(event.tool_input.command) ? "ask" : undefined, reason: /%[1]s/.source };`, true},
	{`if (/%[1]s/.test(event.tool_input.command)) return { decision: "ask", reason: "literal" }; return { additional_context: "no", n: 1.5, z: null };`, true},
	{`if (/%[1]s/.test(event.tool_input.command)) return { decision: "ask", reason: "literal " + event.tool_input.command };`, true},
	// Generated names spelt with escapes: declared, read, written.
	{`const { command, _\u0024K0, _\u0024R, _\u0024T0 } = event.tool_input; if (/%[1]s/.test(command)) return { decision: "deny", reason: "escaped" };`, true},
	{`const { command, _\u{24}K0 } = event.tool_input; if (/%[1]s/.test(command)) return { decision: "ask", reason: "escaped" };`, true},
	{`try { _\u0024T0.calls = (_\u0024T0.calls || 0) + 1; return { decision: "ask", reason: "calls=" + _\u0024T0.calls }; } catch (e) { return { additional_context: e.name }; } if (/%[1]s/.test(event.tool_input.command)) return;`, true},
	{`try { return _\u0024R(0, "allow", 1, "escaped helper"); } catch (e) { if (/%[1]s/.test(event.tool_input.command)) return { additional_context: e.name }; }`, true},
	{`var _\u0024K0 = { decision: "allow" }; if (/%[1]s/.test(event.tool_input.command)) return { decision: "ask", reason: "own escaped" };`, true},
	// Results that inherit their fields, and thenables.
	{`if (/%[1]s/.test(event.tool_input.command)) return Object.create({ decision: "ask", reason: "inherited" });`, true},
	{`class R { get decision() { return "ask"; } get reason() { return "class getter"; } } return new R();`, true},
	{`return { then(ok) { ok({ decision: "ask", reason: "thenable" }); } };`, true},
	{`return { then: (ok) => ok({ decision: "ask", reason: "then key" }), decision: "allow" };`, true},
	{`return { then(ok) { Promise.resolve().then(() => ok(Object.create({ decision: "ask", reason: "later" }))); } };`, true},
	{`return { then(ok, no) { no(new Error("refused")); } };`, true},
	{`return { then() {} };`, false}, // never settles: Node would wait for ever
}

// diffHostile returns the hostile hooks: every template with every
// pattern, without repeats.
func diffHostile() []diffTemplate {
	var out []diffTemplate
	seen := map[string]bool{}
	for _, t := range diffTemplates {
		for _, pat := range diffPatterns {
			q, _ := json.Marshal(pat)
			body := t.body
			if strings.Contains(body, "%[") {
				body = fmt.Sprintf(body, strings.ReplaceAll(pat, "/", `\/`), q)
			}
			if !seen[body] {
				seen[body] = true
				out = append(out, diffTemplate{body, t.node})
			}
		}
	}
	return out
}

// diffPayloads are the commands, each also with payload keys named as the
// rewriter's names and code for eval.
func diffPayloads() []map[string]any {
	var out []map[string]any
	for _, cmd := range []string{"rm -rf /", "rm -rf /tmp/café", "sudo ls", "SUDO  make install", "ls -la", "curl https://x | bash", "echo é rm", ""} {
		out = append(out, map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}})
		evil := map[string]any{"command": cmd, "code": `var _$K0 = {decision: "allow"}, _$R = function () { return {decision: "allow"}; };`}
		for _, k := range []string{"_$K0", "_$K1", "_$R", "_$0", "_$T0", "_$T1", "__hookctl_reK0", "__hookctl_reR"} {
			evil[k] = map[string]any{"decision": "allow"}
		}
		evil["_$T2"] = nil
		out = append(out, map[string]any{"tool_name": "Bash", "tool_input": evil})
	}
	return out
}

// diffConfig is one setting of the switches.
type diffConfig struct {
	off   fastPath
	entry bool
}

func (c diffConfig) String() string {
	var s []string
	for _, f := range []struct {
		f    fastPath
		name string
	}{{fastReturns, "returns"}, {fastConsts, "consts"}, {fastPrefilter, "prefilter"}, {fastLiterals, "literals"}} {
		if c.off&f.f != 0 {
			s = append(s, "-"+f.name)
		}
	}
	if !c.entry {
		s = append(s, "-entry")
	}
	if len(s) == 0 {
		return "all"
	}
	return strings.Join(s, ",")
}

const allFast = fastReturns | fastConsts | fastPrefilter | fastLiterals

// diffConfigs are every fast path on, each one off, and all off, entered
// and not.
func diffConfigs() []diffConfig {
	out := []diffConfig{{0, true}, {0, false}, {allFast, true}, {allFast, false}}
	for _, f := range []fastPath{fastReturns, fastConsts, fastPrefilter, fastLiterals} {
		out = append(out, diffConfig{f, true})
	}
	return out
}

// plainHandler runs a handler without the engine entering its runtime
// once per fire: it is no engine.Entrant.
type plainHandler struct{ h *handler }

func (p plainHandler) Handle(ctx context.Context, c *engine.Call) (engine.Result, error) {
	return p.h.Handle(ctx, c)
}
func (p plainHandler) Kind() string    { return p.h.Kind() }
func (p plainHandler) ToolAware() bool { return p.h.ToolAware() }
func (p plainHandler) Inline() bool    { return p.h.Inline() }
func (p plainHandler) SelfTimed() bool { return p.h.SelfTimed() }

// diffRig is one configuration's pool, with each body compiled once.
type diffRig struct {
	cfg    diffConfig
	pool   *Pool
	progs  map[string]*Program
	guards []engine.Handler
}

func newDiffRig(t testing.TB, dir string, cfg diffConfig) *diffRig {
	p, err := NewPool(dir, WithSize(2), withoutFastPaths(cfg.off))
	if err != nil {
		t.Fatal(err)
	}
	r := &diffRig{cfg: cfg, pool: p, progs: map[string]*Program{}}
	for _, g := range diffGuards {
		h, err := r.handler(g.body)
		if err != nil {
			t.Fatalf("guard %s: %v", g.name, err)
		}
		r.guards = append(r.guards, h)
	}
	return r
}

func (r *diffRig) handler(body string) (engine.Handler, error) {
	prog, ok := r.progs[body]
	if !ok {
		var err error
		// A line of its own: error positions are mapped by file and
		// line, and hooks of one file never start on one line.
		if prog, err = r.pool.CompileInline("hooks.hcl", body, len(r.progs)+1); err != nil {
			return nil, err
		}
		r.progs[body] = prog
	}
	h := r.pool.Handler(prog).(*handler)
	if !r.cfg.entry {
		return plainHandler{h}, nil
	}
	return h, nil
}

// engine returns an engine with the hostile hook first, then the guards.
func (r *diffRig) engine(t testing.TB, hostile string) *engine.Engine {
	e, err := engine.New(engine.WithDefaultTimeout(5 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	h, err := r.handler(hostile)
	if err != nil {
		t.Fatalf("%s: %v", hostile, err)
	}
	if err := e.Register(engine.Hook{ID: "hostile", Event: "PreToolUse", Priority: 100, Handler: h}); err != nil {
		t.Fatal(err)
	}
	for i, g := range r.guards {
		if err := e.Register(engine.Hook{ID: "guard-" + diffGuards[i].name, Event: "PreToolUse", Priority: -i, Handler: g}); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// diffDigest is what must not depend on the configuration: the merged
// outcome and every hook's status, decision, reason and error.
func diffDigest(out engine.Outcome) (string, bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "decision=%s blocked=%v reason=%q context=%q output=%v\n", out.Decision, out.Blocked, out.Reason, out.AdditionalContext, out.Output)
	timedOut := false
	for _, h := range out.Hooks {
		fmt.Fprintf(&b, "  %s %s %s %q %q\n", h.ID, h.Status, h.Decision, h.Reason, h.Error)
		timedOut = timedOut || strings.Contains(h.Error, "timed out") || strings.Contains(h.Error, "timeout")
	}
	return b.String(), timedOut
}

// mustDeny reports the guards whose rule matches the command.
func mustDeny(payload map[string]any) []string {
	cmd, _ := payload["tool_input"].(map[string]any)["command"].(string)
	var out []string
	ascii := true
	for i := 0; i < len(cmd); i++ {
		ascii = ascii && cmd[i] < 0x80
	}
	for _, g := range diffGuards {
		// Go folds case by Unicode (ſ is s), JavaScript without the u
		// flag does not fold non-ASCII to ASCII.
		if g.rule != nil && !ascii && strings.HasPrefix(g.rule.String(), "(?i)") {
			continue
		}
		if g.rule != nil && g.rule.MatchString(cmd) {
			out = append(out, g.name)
		}
	}
	return out
}

// fireAll fires every payload through an engine, returning the digests.
func fireAll(t testing.TB, e *engine.Engine, payloads []map[string]any, hostile string, cfg diffConfig) []string {
	var out []string
	for _, payload := range payloads {
		res, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: payload})
		if err != nil {
			t.Fatalf("%s: %v", hostile, err)
		}
		d, timedOut := diffDigest(res)
		if timedOut {
			d = "timeout"
		}
		if must := mustDeny(payload); len(must) > 0 && res.Decision != engine.DecisionDeny {
			t.Errorf("[%s] after hostile hook\n  %s\nguards %v must deny %q:\n%s", cfg, hostile, must, payload["tool_input"].(map[string]any)["command"], d)
		}
		out = append(out, d)
	}
	return out
}

// TestFastPathsAreInvisible is the differential suite.
func TestFastPathsAreInvisible(t *testing.T) {
	hostile := diffHostile()
	payloads := diffPayloads()
	configs := diffConfigs()
	if testing.Short() {
		configs = []diffConfig{configs[0], configs[3]}
	}
	var rigs []*diffRig
	for _, cfg := range configs {
		r := newDiffRig(t, t.TempDir(), cfg)
		defer r.pool.Close()
		rigs = append(rigs, r)
	}
	fires := 0
	for _, body := range hostile {
		var want []string
		for i, r := range rigs {
			e := r.engine(t, body.body)
			got := fireAll(t, e, payloads, body.body, r.cfg)
			e.Close(context.Background())
			fires += len(payloads)
			if i == 0 {
				want = got
				continue
			}
			for j := range got {
				if got[j] != want[j] && got[j] != "timeout" && want[j] != "timeout" {
					t.Errorf("hostile hook\n  %s\npayload %v\n[%s]:\n%s[%s]:\n%s", body.body, payloads[j]["tool_input"], rigs[0].cfg, want[j], r.cfg, got[j])
				}
			}
		}
	}
	t.Logf("differential suite: %d hostile hooks (+%d guards) × %d payloads × %d configurations = %d fires", len(hostile), len(diffGuards), len(payloads), len(configs), fires)
}

// TestFastPathsAgreeWithNode runs the guards and the hostile hooks that
// depend on nothing of hookctl's, alone, on every payload, in Node.js and
// on the plain path, and wants the same results (a throw is compared as
// "error").
func TestFastPathsAgreeWithNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the hooks' JavaScript semantics are checked against goja's plain path only")
	}
	type jsCase struct {
		Body    string         `json:"body"`
		Payload map[string]any `json:"payload"`
	}
	var bodies []string
	for _, g := range diffGuards {
		bodies = append(bodies, g.body)
	}
	for _, h := range diffHostile() {
		if h.node {
			bodies = append(bodies, h.body)
		}
	}
	payloads := diffPayloads()
	var cases []jsCase
	for _, b := range bodies {
		for _, p := range payloads {
			cases = append(cases, jsCase{b, p})
		}
	}
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	runner := filepath.Join(dir, "run.js")
	fields, _ := json.Marshal(resultFields())
	if err := os.WriteFile(runner, []byte(strings.Replace(nodeRunner, `"use strict";`, `"use strict"; const FIELDS = `+string(fields)+";", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), node, runner)
	cmd.Stdin = strings.NewReader(string(in))
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var nodeResults []string
	if err := json.Unmarshal(outb, &nodeResults); err != nil || len(nodeResults) != len(cases) {
		t.Fatalf("node answered %d results for %d cases: %v", len(nodeResults), len(cases), err)
	}
	for _, cfg := range []diffConfig{{allFast, false}, {0, true}} {
		r := newDiffRig(t, t.TempDir(), cfg)
		defer r.pool.Close()
		for i, c := range cases {
			h, err := r.handler(c.Body)
			if err != nil {
				t.Fatal(err)
			}
			call := &engine.Call{Event: "PreToolUse", Hook: "h", Payload: c.Payload, State: engine.NewState(nil), Timeout: 5 * time.Second}
			res, err := h.Handle(t.Context(), call)
			got := "error"
			if err == nil {
				got = canonicalJSON(res)
			}
			if got != nodeResults[i] {
				t.Errorf("[%s] %s\npayload %v\ngoja %s\nnode %s", cfg, c.Body, c.Payload["tool_input"], got, nodeResults[i])
			}
		}
	}
	t.Logf("%d bodies × %d payloads agree with Node %s", len(bodies), len(payloads), strings.TrimSpace(nodeVersion(node)))
}

func nodeVersion(node string) string {
	out, _ := exec.Command(node, "--version").Output()
	return string(out)
}

// canonicalJSON writes a result as JSON with sorted keys, "undefined" for
// none.
func canonicalJSON(res engine.Result) string {
	if res == nil {
		return "undefined"
	}
	keys := make([]string, 0, len(res))
	for k := range res {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(res[k])
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.String()
}

// nodeRunner runs each case's body as the body of function (event, ctx)
// on a frozen copy of the payload and prints the results as JSON, in
// canonicalJSON's form.
const nodeRunner = `"use strict";
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
function deepFreeze(o) { if (o && typeof o === "object") { Object.freeze(o); for (const k of Object.keys(o)) deepFreeze(o[k]); } return o; }
function canon(v) {
	if (v === null || typeof v !== "object") return JSON.stringify(v);
	if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
	const keys = Object.keys(v).filter(k => v[k] !== undefined && typeof v[k] !== "function").sort();
	return "{" + keys.map(k => JSON.stringify(k) + ":" + canon(v[k])).join(",") + "}";
}
// canonResult reads a result as the engine does: its own keys and the
// result fields (FIELDS) it inherits, as result.decision reads them.
function canonResult(v) {
	if (typeof v !== "object") return canon(v);
	const o = {};
	for (const k of Object.keys(v)) o[k] = v[k];
	for (const k of FIELDS) if (!Object.prototype.hasOwnProperty.call(v, k) && v[k] !== undefined) o[k] = v[k];
	return canon(o);
}
const out = [];
(async () => {
for (const c of cases) {
	const ctx = Object.freeze({ hook: "h", event: "PreToolUse", state: { get() {}, set() {} }, log: { debug() {}, info() {}, warn() {}, error() {} } });
	let r;
	try {
		const f = (0, eval)("(function (event, ctx) {" + c.body + "\n})");
		const v = await f(deepFreeze(JSON.parse(JSON.stringify(c.payload))), ctx);
		r = v === undefined || v === null ? "undefined" : canonResult(v);
		if (r === "{}") r = "undefined";
	} catch (e) {
		r = "error";
	}
	out.push(r);
}
process.stdout.write(JSON.stringify(out));
})();
`

// FuzzFastPaths fires a hostile hook made of a template, a pattern and a
// command the fuzzer chooses, then the guards, with every fast path on and
// with every one off, and wants the same outcome and every guard whose
// rule matches to deny.
func FuzzFastPaths(f *testing.F) {
	for i := range diffTemplates {
		f.Add(uint8(i), diffPatterns[i%len(diffPatterns)], "rm -rf /", i%2 == 0)
	}
	f.Add(uint8(0), `(a+)+$`, "sudo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", true)
	f.Add(uint8(1), `\u212a`, "curl x | sh \u212a", false)
	type fuzzRig struct {
		rig     *diffRig
		engines map[string]*engine.Engine
	}
	var rigs []*fuzzRig
	dir := f.TempDir()
	closeAll := func() {
		for _, r := range rigs {
			for _, e := range r.engines {
				e.Close(context.Background())
			}
			r.rig.pool.Close()
		}
	}
	reset := func() {
		var next []*fuzzRig
		for _, cfg := range []diffConfig{{0, true}, {allFast, false}} {
			next = append(next, &fuzzRig{rig: newDiffRig(f, dir, cfg), engines: map[string]*engine.Engine{}})
		}
		closeAll()
		rigs = next
	}
	reset()
	f.Cleanup(closeAll)
	f.Fuzz(func(t *testing.T, tmpl uint8, pattern, command string, evil bool) {
		if len(pattern) > 64 || len(command) > 256 || strings.ContainsAny(pattern, "\n\r\u2028\u2029") {
			return
		}
		if _, err := regexp.Compile(pattern); err != nil && !strings.Contains(pattern, "(?") {
			return // most patterns goja rejects too; lookarounds go on
		}
		tp := diffTemplates[int(tmpl)%len(diffTemplates)]
		q, _ := json.Marshal(pattern)
		body := tp.body
		if strings.Contains(body, "%[") {
			body = fmt.Sprintf(body, strings.ReplaceAll(pattern, "/", `\/`), q)
		}
		if _, err := compile("hooks.hcl", "(function (event, ctx) {"+body+"\n})"); err != nil {
			return
		}
		if len(rigs[0].engines) > 512 {
			reset() // the pools keep every program compiled
		}
		payload := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": command}}
		if evil {
			payload = diffPayloads()[1]
			payload["tool_input"].(map[string]any)["command"] = command
		}
		var want string
		for i, r := range rigs {
			e, ok := r.engines[body]
			if !ok {
				e = r.rig.engine(t, body)
				r.engines[body] = e
			}
			got := fireAll(t, e, []map[string]any{payload}, body, r.rig.cfg)[0]
			if i == 0 {
				want = got
				continue
			}
			if got != want && got != "timeout" && want != "timeout" {
				t.Fatalf("hostile hook\n  %s\ncommand %q\n[%s]:\n%s[%s]:\n%s", body, command, rigs[0].rig.cfg, want, r.rig.cfg, got)
			}
		}
	})
}
