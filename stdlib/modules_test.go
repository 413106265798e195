package stdlib_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
	"github.com/hookctl/hookctl/state/kv"
	"github.com/hookctl/hookctl/stdlib"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent())
}

// env is a configuration directory, a project directory and a pool with
// the standard library.
type env struct {
	cfgDir, project string
	pool            *script.Pool
}

func newEnv(t *testing.T, o stdlib.Options) *env {
	t.Helper()
	e := &env{cfgDir: t.TempDir(), project: t.TempDir()}
	mods, err := stdlib.Modules(o)
	if err != nil {
		t.Fatal(err)
	}
	p, err := script.NewPool(e.cfgDir, append(mods, script.WithRoots(e.project))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	e.pool = p
	return e
}

// run compiles body as an inline handler with the given capabilities and
// runs it on payload.
func (e *env) run(t *testing.T, body string, payload map[string]any, allow ...string) (engine.Result, error) {
	t.Helper()
	prog, err := e.pool.CompileInline("test.hcl", body, 1)
	if err != nil {
		t.Fatal(err)
	}
	if payload == nil {
		payload = map[string]any{}
	}
	if _, ok := payload["cwd"]; !ok {
		payload["cwd"] = e.project
	}
	if _, ok := payload["session_id"]; !ok {
		payload["session_id"] = "s1"
	}
	return e.pool.Handler(prog, allow...).Handle(context.Background(), &engine.Call{
		Event: "PreToolUse", Hook: "t", Payload: payload, State: engine.NewState(nil),
		Timeout: 5 * time.Second, Deadline: time.Now().Add(5 * time.Second),
	})
}

func (e *env) must(t *testing.T, body string, payload map[string]any, allow ...string) engine.Result {
	t.Helper()
	r, err := e.run(t, body, payload, allow...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDecisionModule(t *testing.T) {
	e := newEnv(t, stdlib.Options{})
	bash := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "pip install x", "timeout": 5.0}}
	r := e.must(t, `const d = require("hookctl/decision"); return d.rewrite(event, { command: "uv pip install x" }, d.context("rewritten"));`, bash)
	ui := r["updated_input"].(map[string]any)
	if ui["command"] != "uv pip install x" || ui["timeout"] != int64(5) || r["additional_context"] != "rewritten" {
		t.Fatalf("%v", r)
	}
	r = e.must(t, `const d = require("hookctl/decision"); return d.merge(d.deny("no"), d.systemMessage("m"));`, nil)
	if r["decision"] != "deny" || r["reason"] != "no" || r["system_message"] != "m" {
		t.Fatalf("%v", r)
	}
	r = e.must(t, `return require("hookctl/decision").stop("budget");`, nil)
	if r["continue"] != false || r["stop_reason"] != "budget" {
		t.Fatalf("%v", r)
	}
	// blockStop respects stop_hook_active, or a loop budget.
	body := `return require("hookctl/decision").blockStop(event, "keep going");`
	if r := e.must(t, body, map[string]any{"stop_hook_active": false}); r["decision"] != "block" {
		t.Fatalf("%v", r)
	}
	if r := e.must(t, body, map[string]any{"stop_hook_active": true}); r != nil {
		t.Fatalf("blocked while stop_hook_active: %v", r)
	}
	loops := `return require("hookctl/decision").blockStop(event, "again", { maxLoops: 2 });`
	if r := e.must(t, loops, map[string]any{"stop_hook_active": true, "loop_count": 1}); r["decision"] != "block" {
		t.Fatalf("%v", r)
	}
	if r := e.must(t, loops, map[string]any{"stop_hook_active": true, "loop_count": 2}); r != nil {
		t.Fatalf("%v", r)
	}
}

func TestPathModule(t *testing.T) {
	e := newEnv(t, stdlib.Options{Home: "/home/u"})
	r := e.must(t, `const p = require("hookctl/path"); return { additional_context: [
		p.resolve("src/../.env"), p.expand("~/.ssh/id_rsa"), p.isInside("src/a.go", event.cwd), p.isInside("/etc/passwd", event.cwd),
		p.match("/x/keys/a.pem", "*.pem"), p.matchAny("/x/.env", [".env", "*.key"]), p.basename("/a/b.txt"), p.extname("b.tar.gz"),
		p.join("a", "b", "../c"), p.isAbsolute("/x"), p.home() ].join("|") };`, nil)
	want := strings.Join([]string{filepath.Join(e.project, ".env"), "/home/u/.ssh/id_rsa", "true", "false", "true", "true", "b.txt", ".gz", "a/c", "true", "/home/u"}, "|")
	if r["additional_context"] != want {
		t.Fatalf("got  %v\nwant %v", r["additional_context"], want)
	}
}

func TestShellModule(t *testing.T) {
	e := newEnv(t, stdlib.Options{})
	r := e.must(t, `const sh = require("hookctl/shell");
		const segs = sh.parse("sudo bash -c 'rm -rf ~' && echo 'rm -rf /'");
		return { additional_context: JSON.stringify({
			names: segs.map(s => s.name), wrappers: segs[0].wrappers, argv: segs[1].argv,
			commands: sh.commands("ls | grep x; make"), has: sh.has("env X=1 rm a", "rm"), words: sh.words("a 'b c'") }) };`, nil)
	var got map[string]any
	if err := json.Unmarshal([]byte(r["additional_context"].(string)), &got); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	want := `{"argv":["echo","rm -rf /"],"commands":["ls","grep","make"],"has":true,"names":["rm","echo"],"words":["a","b c"],"wrappers":["sudo","bash -c"]}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

func TestFSModuleRootsAndCapabilities(t *testing.T) {
	e := newEnv(t, stdlib.Options{})
	if err := os.WriteFile(filepath.Join(e.project, "notes.txt"), []byte("hello world"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("nope"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.must(t, `const fs = require("hookctl/fs");
		return { additional_context: [fs.read("notes.txt", { maxBytes: 5 }), fs.exists("notes.txt"), fs.exists("missing"),
			fs.stat("notes.txt").size, fs.list(".").join(","), fs.glob("*.txt").join(",")].join("|") };`, nil)
	if r["additional_context"] != "hello|true|false|11|notes.txt|notes.txt" {
		t.Fatalf("%v", r)
	}
	if _, err := e.run(t, `return { x: require("hookctl/fs").read(`+jsString(outside)+`) };`, nil); err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Fatalf("read outside the roots: %v", err)
	}
	if r := e.must(t, `return { additional_context: require("hookctl/fs").read(`+jsString(outside)+`) };`, nil, "read"); r["additional_context"] != "nope" {
		t.Fatalf("read with the read capability: %v", r)
	}
	if _, err := e.run(t, `require("hookctl/fs").write("out.txt", "x");`, nil); err == nil || !strings.Contains(err.Error(), `"write" capability`) {
		t.Fatalf("write without capability: %v", err)
	}
	e.must(t, `const fs = require("hookctl/fs"); fs.write("out.txt", "a"); fs.append("out.txt", "b");`, nil, "write")
	if b, _ := os.ReadFile(filepath.Join(e.project, "out.txt")); string(b) != "ab" {
		t.Fatalf("wrote %q", b)
	}
	if _, err := e.run(t, `require("hookctl/fs").write(`+jsString(outside)+`, "x");`, nil, "write", "read"); err == nil {
		t.Fatal("wrote outside the roots")
	}
}

func TestExecModule(t *testing.T) {
	e := newEnv(t, stdlib.Options{})
	if _, err := e.run(t, `require("hookctl/exec").run(["echo", "hi"]);`, nil); err == nil || !strings.Contains(err.Error(), `"exec" capability`) {
		t.Fatalf("exec without capability: %v", err)
	}
	r := e.must(t, `const r = require("hookctl/exec").run(["sh", "-c", "echo $X; cat; exit 3"], { input: "in", env: { X: "ex" } });
		return { additional_context: r.code + ":" + r.stdout.replace(/\n/g, "/") };`, nil, "exec")
	if r["additional_context"] != "3:ex/in" {
		t.Fatalf("%v", r)
	}
	r = e.must(t, `const r = require("hookctl/exec").run(["sleep", "5"], { timeout: "100ms" });
		return { additional_context: String(r.timedOut) };`, nil, "exec")
	if r["additional_context"] != "true" {
		t.Fatalf("%v", r)
	}
	if _, err := e.run(t, `require("hookctl/exec").run("rm -rf /");`, nil, "exec"); err == nil || !strings.Contains(err.Error(), "argv") {
		t.Fatalf("a string command was accepted: %v", err)
	}
}

func TestKVModule(t *testing.T) {
	e := newEnv(t, stdlib.Options{})
	body := `const kv = require("hookctl/kv");
		const n = kv.incr("count");
		kv.set("obj", { a: [1, 2] }, { ttl: "1h" });
		return { additional_context: [n, kv.get("obj").a[1], kv.get("missing", { default: "d" }), kv.keys().join(",")].join("|") };`
	if r := e.must(t, body, map[string]any{"session_id": "A"}); r["additional_context"] != "1|2|d|count,obj" {
		t.Fatalf("%v", r)
	}
	if r := e.must(t, body, map[string]any{"session_id": "A"}); r["additional_context"] != "2|2|d|count,obj" {
		t.Fatalf("%v", r)
	}
	// Another session has its own state; project scope is shared.
	if r := e.must(t, body, map[string]any{"session_id": "B"}); r["additional_context"] != "1|2|d|count,obj" {
		t.Fatalf("%v", r)
	}
	proj := `return { additional_context: String(require("hookctl/kv").incr("p", 5, { scope: "project" })) };`
	e.must(t, proj, map[string]any{"session_id": "A"})
	if r := e.must(t, proj, map[string]any{"session_id": "B"}); r["additional_context"] != "10" {
		t.Fatalf("%v", r)
	}
	if _, err := e.run(t, `require("hookctl/kv").get("x", { scope: "galaxy" });`, nil); err == nil {
		t.Fatal("bad scope accepted")
	}
}

func TestLogSecretsTranscript(t *testing.T) {
	e := newEnv(t, stdlib.Options{})
	if _, err := e.run(t, `require("hookctl/log").append("audit.jsonl", { a: 1 });`, nil); err == nil {
		t.Fatal("log.append without the write capability")
	}
	e.must(t, `require("hookctl/log").append("audit.jsonl", { tool: event.tool_name, token: "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB" }, { redact: true });`,
		map[string]any{"tool_name": "Bash"}, "write")
	b, err := os.ReadFile(filepath.Join(e.project, "audit.jsonl"))
	if err != nil || !strings.Contains(string(b), `"tool":"Bash"`) || strings.Contains(string(b), "ghp_0123") {
		t.Fatalf("%s %v", b, err)
	}
	r := e.must(t, `const s = require("hookctl/secrets"); const t = "key AKIAQ3EGRTPKX5H7W2MN here";
		return { additional_context: [s.contains(t), s.redact(t), s.scan(t)[0].kind].join("|") };`, nil)
	if !strings.HasPrefix(r["additional_context"].(string), "true|key [REDACTED:") {
		t.Fatalf("%v", r)
	}
	tp := filepath.Join(t.TempDir(), "t.jsonl")
	lines := `{"type":"user","message":{"role":"user","content":"fix the bug"}}
{"type":"assistant","message":{"role":"assistant","model":"claude-x","content":[{"type":"text","text":"Done, tests pass."}],"usage":{"input_tokens":10,"output_tokens":5}}}
`
	if err := os.WriteFile(tp, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	r = e.must(t, `const tr = require("hookctl/transcript"); const s = tr.read();
		return { additional_context: [tr.lastAssistantText(), s.model, s.usage.outputTokens, s.messages].join("|") };`,
		map[string]any{"transcript_path": tp})
	if r["additional_context"] != "Done, tests pass.|claude-x|5|2" {
		t.Fatalf("%v", r)
	}
	if _, err := e.run(t, `require("hookctl/transcript").read("/etc/passwd");`, map[string]any{"transcript_path": tp}); err == nil {
		t.Fatal("read another file than the event's transcript")
	}
}

func TestHTTPModule(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"echo":`+string(b)+`,"auth":"`+r.Header.Get("X-Key")+`"}`)
	}))
	defer srv.Close()
	e := newEnv(t, stdlib.Options{HTTPAllow: []string{srv.URL + "/ok"}})
	body := `const r = require("hookctl/http").post(` + jsString(srv.URL+"/ok") + `, { tool: event.tool_name }, { headers: { "X-Key": "k" }, timeout: 2000 });
		return { additional_context: r.status + ":" + r.json.echo.tool + ":" + r.json.auth };`
	if _, err := e.run(t, body, map[string]any{"tool_name": "Bash"}); err == nil || !strings.Contains(err.Error(), `"net" capability`) {
		t.Fatalf("http without capability: %v", err)
	}
	if r := e.must(t, body, map[string]any{"tool_name": "Bash"}, "net"); r["additional_context"] != "200:Bash:k" {
		t.Fatalf("%v", r)
	}
	other := `require("hookctl/http").post(` + jsString(srv.URL+"/other") + `, {});`
	if _, err := e.run(t, other, nil, "net"); err == nil || !strings.Contains(err.Error(), "allowed URL list") {
		t.Fatalf("allowlist: %v", err)
	}
}

func TestUmbrellaModule(t *testing.T) {
	e := newEnv(t, stdlib.Options{})
	r := e.must(t, `const h = require("hookctl"); return Object.assign(h.decision.deny("x"), { additional_context: Object.keys(h).sort().join(",") });`, nil)
	if r["decision"] != "deny" || r["additional_context"] != strings.Join(stdlib.ModuleNames, ",") {
		t.Fatalf("%v", r)
	}
}

func TestConditionFunctions(t *testing.T) {
	eng, err := engine.New(engine.WithConditionOptions(conditionsWithStdlib()...))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	cases := []struct {
		when    string
		payload map[string]any
		want    bool
	}{
		{`glob(tool_input.file_path, "*.pem")`, map[string]any{"tool_input": map[string]any{"file_path": "/k/a.pem"}}, true},
		{`globAny(tool_input.file_path, [".env", "*.key"])`, map[string]any{"tool_input": map[string]any{"file_path": "/p/.env"}}, true},
		{`inside(tool_input.file_path, cwd)`, map[string]any{"cwd": "/p", "tool_input": map[string]any{"file_path": "/p/src/a.go"}}, true},
		{`inside(resolve(tool_input.file_path, cwd), cwd)`, map[string]any{"cwd": "/p", "tool_input": map[string]any{"file_path": "../q"}}, false},
		{`hasCommand(tool_input.command, "rm")`, map[string]any{"tool_input": map[string]any{"command": "sudo rm -rf x"}}, true},
		{`hasCommand(tool_input.command, "rm")`, map[string]any{"tool_input": map[string]any{"command": "echo 'rm -rf x'"}}, false},
		{`"git" in commands(tool_input.command)`, map[string]any{"tool_input": map[string]any{"command": "cd x && git push"}}, true},
		{`basename(tool_input.file_path) == ".env" and ext("a.go") == ".go"`, map[string]any{"tool_input": map[string]any{"file_path": "/x/.env"}}, true},
		{`hasSecret(prompt)`, map[string]any{"prompt": "my key is AKIAQ3EGRTPKX5H7W2MN"}, true},
		{`glob(missing, "*")`, map[string]any{}, false},
	}
	for i, tc := range cases {
		id := string(rune('a' + i))
		if err := eng.Register(engine.Hook{ID: id, Event: "UserPromptSubmit", When: tc.when, Handler: engine.Static(engine.Context(id))}); err != nil {
			t.Fatalf("%s: %v", tc.when, err)
		}
		out, err := eng.Fire(context.Background(), engine.Event{Name: "UserPromptSubmit", Payload: tc.payload})
		if err != nil {
			t.Fatal(err)
		}
		tr, _ := out.Hook(id)
		if got := tr.Status == engine.StatusDecided; got != tc.want {
			t.Errorf("%s = %v, want %v (%+v)", tc.when, got, tc.want, tr)
		}
		eng.Unregister(id)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func conditionsWithStdlib() []conditions.Option {
	return []conditions.Option{conditions.WithFunctions(stdlib.ConditionFunctions()...)}
}

// TestTypeDeclarationsCoverEveryModule keeps hookctl.d.ts in step with the
// modules.
func TestTypeDeclarationsCoverEveryModule(t *testing.T) {
	b, err := os.ReadFile("hookctl.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range stdlib.ModuleNames {
		if !strings.Contains(string(b), `declare module "hookctl/`+m+`"`) {
			t.Errorf("hookctl.d.ts does not declare hookctl/%s", m)
		}
	}
}

// TestHostileArgumentsAreHookErrors: a cyclic or huge sparse value given
// to kv.set, kv.cas, log.append or as an options object is an error of the
// hook naming the limit; the process and the pool go on.
func TestHostileArgumentsAreHookErrors(t *testing.T) {
	e := newEnv(t, stdlib.Options{})
	for _, body := range []string{
		`const o = {}; o.o = o; require("hookctl/kv").set("k", o);`,
		`const a = []; a.length = 4294967295; require("hookctl/kv").set("k", { a });`,
		`const o = {}; o.o = o; require("hookctl/kv").cas("k", null, o);`,
		`const o = {}; o.o = o; require("hookctl/log").append("audit.jsonl", o);`,
		`const a = []; a.length = 4294967295; require("hookctl/kv").get("k", { default: 1, x: a });`,
	} {
		_, err := e.run(t, body, nil, "write")
		var ee *script.ExportError
		if err == nil || !strings.Contains(err.Error(), "cannot leave the script") {
			t.Errorf("%s: %v", body, err)
		} else if strings.Contains(body, "kv\").set") && !errors.As(err, &ee) {
			t.Errorf("%s: %v is not an *ExportError", body, err)
		}
	}
	if r := e.must(t, `require("hookctl/kv").set("k", { fine: [1, 2] }); return { n: require("hookctl/kv").get("k").fine[1] };`, nil); r["n"] != int64(2) {
		t.Fatalf("%v", r)
	}
}

// TestKVNoSessionIsNotSessionNone: a payload without a session_id (or
// with "") has the scope of no session, which a real session named
// "none" (or "%none") does not share, in the memory and file stores.
func TestKVNoSessionIsNotSessionNone(t *testing.T) {
	file, err := kv.OpenFile(filepath.Join(t.TempDir(), "kv.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		name  string
		store kv.Store
	}{{"Memory", kv.NewMemory()}, {"File", file}} {
		t.Run(s.name, func(t *testing.T) { checkNoSessionIsNotSessionNone(t, s.store) })
	}
}

// checkNoSessionIsNotSessionNone counts with hookctl/kv on store in
// sessions "none" and "%none" and with no session_id or "": the last two
// share a count, the others each have their own.
func checkNoSessionIsNotSessionNone(t *testing.T, store kv.Store) {
	t.Helper()
	mods, err := stdlib.Modules(stdlib.Options{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	p, err := script.NewPool(t.TempDir(), mods...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	prog, err := p.CompileInline("test.hcl", `return { additional_context: String(require("hookctl/kv").incr("n")) };`, 1)
	if err != nil {
		t.Fatal(err)
	}
	count := func(payload map[string]any) string {
		t.Helper()
		r, err := p.Handler(prog).Handle(context.Background(), &engine.Call{
			Event: "PreToolUse", Hook: "t", Payload: payload, State: engine.NewState(nil),
			Timeout: 5 * time.Second, Deadline: time.Now().Add(5 * time.Second),
		})
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(r["additional_context"])
	}
	if n := count(map[string]any{}); n != "1" {
		t.Fatalf("no session_id: count %s, want 1", n)
	}
	if n := count(map[string]any{"session_id": ""}); n != "2" {
		t.Errorf("session_id \"\": count %s, want 2 (no session, as without one)", n)
	}
	for _, sid := range []string{"none", "%none"} {
		if n := count(map[string]any{"session_id": sid}); n != "1" {
			t.Errorf("session %q: count %s, want 1: it shares the scope of no session", sid, n)
		}
	}
}
