package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/ostest"
)

// binaries builds hookctl and hookctl-client side by side.
func binaries(t *testing.T) (client, full string) {
	t.Helper()
	dir := t.TempDir()
	for _, pkg := range []string{"./", "../hookctl"} {
		cmd := exec.Command("go", "build", "-o", dir+"/", pkg)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	return filepath.Join(dir, "hookctl-client"), filepath.Join(dir, "hookctl")
}

type env struct {
	t            *testing.T
	client, full string
	dir          string
	vars         []string
	mu           sync.Mutex
	daemons      []int // the daemons the clients said they started
}

func newEnv(t *testing.T) *env {
	client, full := binaries(t)
	dir := t.TempDir()
	rt := filepath.Join(dir, "rt")
	if err := os.Mkdir(rt, 0o700); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, client: client, full: full, dir: dir, vars: []string{
		"HOOKCTL_TRUST_FILE=" + dir + "/trust.json", "HOOKCTL_STATE_DIR=" + dir + "/state",
		"XDG_RUNTIME_DIR=" + rt, "TMPDIR=" + rt, "HOOKCTL_CLIENT_DEBUG=1", "HOOKCTL_DAEMON_IDLE=2s",
		"HOOKCTL_CONFIG=", "CLAUDE_PROJECT_DIR=", "HOOKCTL_ALLOW_UNTRUSTED=",
	}}
	t.Cleanup(func() {
		// The daemons of this test exit when idle; make it now.
		e.mu.Lock()
		defer e.mu.Unlock()
		for _, pid := range e.daemons {
			if p, err := os.FindProcess(pid); err == nil && ostest.Alive(pid) {
				p.Kill()
			}
		}
	})
	e.write("hooks.hcl", `hook "no-rm" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command contains \"rm -rf\""
  decision = "deny"
  reason   = "no rm -rf"
}
`)
	e.run(e.full, "", "trust", "--config", "hooks.hcl")
	return e
}

func (e *env) write(name, content string) {
	e.t.Helper()
	if err := os.WriteFile(filepath.Join(e.dir, name), []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// run runs a binary in the test directory and returns stdout, stderr and
// the exit status.
func (e *env) run(bin, stdin string, args ...string) (string, string, int) {
	e.t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = e.dir
	cmd.Env = append(os.Environ(), e.vars...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	e.mu.Lock()
	for _, m := range startedPID.FindAllStringSubmatch(errb.String(), -1) {
		pid, _ := strconv.Atoi(m[1])
		e.daemons = append(e.daemons, pid)
	}
	e.mu.Unlock()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Error(err)
	}
	return out.String(), errb.String(), code
}

const rm = `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
const ls = `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"}}`

// TestClientAndDaemon: the first call starts the daemon, later calls are
// answered by it, with the same replies as hookctl claude.
func TestClientAndDaemon(t *testing.T) {
	e := newEnv(t)
	want, _, _ := e.run(e.full, rm, "claude", "--config", "hooks.hcl")
	for i := range 3 {
		out, errOut, code := e.run(e.client, rm, "claude", "--config", "hooks.hcl")
		if code != 0 || out != want || !strings.Contains(out, `"permissionDecision":"deny"`) {
			t.Fatalf("call %d: exit %d\n%s\n%s", i, code, out, errOut)
		}
		if !strings.Contains(errOut, "answered by the daemon") {
			t.Fatalf("call %d was not answered by the daemon: %s", i, errOut)
		}
		if i == 0 && !strings.Contains(errOut, "starting one") {
			t.Fatalf("the first call did not start the daemon: %s", errOut)
		}
	}
	if out, _, code := e.run(e.client, ls, "claude", "--config", "hooks.hcl"); code != 0 || out != "" {
		t.Fatalf("ls: %d %q", code, out)
	}
	// The same arguments as the full binary, for every host subcommand.
	crush := `{"event":"PreToolUse","session_id":"s","tool_name":"bash","tool_input":{"command":"rm -rf /"}}`
	if out, _, _ := e.run(e.client, crush, "hook", "--host", "crush", "--config", "hooks.hcl"); !strings.Contains(out, `"decision":"deny"`) {
		t.Fatalf("crush: %s", out)
	}
	// Anything else is the full binary's.
	if _, errOut, code := e.run(e.client, "", "validate", "--config", "hooks.hcl"); code != 0 || !strings.Contains(errOut, "ok (1 hook(s)") {
		t.Fatalf("validate: %d %s", code, errOut)
	}
}

// TestDaemonChecksTrustAndReloads: a changed configuration is not run
// until trusted again (the daemon checks trust on every call, as
// hookctl claude does), and once trusted its new hooks answer.
func TestDaemonChecksTrustAndReloads(t *testing.T) {
	e := newEnv(t)
	e.run(e.client, rm, "claude", "--config", "hooks.hcl")
	e.write("hooks.hcl", `hook "no-ls" {
  event    = "PreToolUse"
  when     = "tool_input.command == \"ls\""
  decision = "deny"
  reason   = "ls is denied now"
}
`)
	out, _, _ := e.run(e.client, ls, "claude", "--config", "hooks.hcl")
	if !strings.Contains(out, "changed since it was trusted") {
		t.Fatalf("a changed configuration ran: %s", out)
	}
	e.run(e.full, "", "trust", "--config", "hooks.hcl")
	out, errOut, _ := e.run(e.client, ls, "claude", "--config", "hooks.hcl")
	if !strings.Contains(out, "ls is denied now") || !strings.Contains(errOut, "answered by the daemon") {
		t.Fatalf("after trust: %s %s", out, errOut)
	}
}

// TestClientFallsBackNeverAllows: without a usable daemon the client runs
// the engine itself; without the engine it blocks.
func TestClientFallsBackNeverAllows(t *testing.T) {
	e := newEnv(t)
	// A runtime directory the daemon cannot use.
	e.write("rtfile", "")
	e.vars = append(e.vars, "XDG_RUNTIME_DIR="+filepath.Join(e.dir, "rtfile"), "TMPDIR="+filepath.Join(e.dir, "rtfile"))
	out, errOut, code := e.run(e.client, rm, "claude", "--config", "hooks.hcl")
	if code != 0 || !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(errOut, "itself") {
		t.Fatalf("fallback: %d %s %s", code, out, errOut)
	}
	e.vars = append(e.vars, "HOOKCTL_BIN="+filepath.Join(e.dir, "no-such-hookctl"))
	out, errOut, code = e.run(e.client, ls, "claude", "--config", "hooks.hcl")
	if code != 2 || !strings.Contains(errOut, "blocked") {
		t.Fatalf("no engine: %d %s %s", code, out, errOut)
	}
}

// TestDaemonExitsWhenIdle: the daemon removes its socket and exits after
// HOOKCTL_DAEMON_IDLE without calls.
func TestDaemonExitsWhenIdle(t *testing.T) {
	e := newEnv(t)
	e.vars = append(e.vars, "HOOKCTL_DAEMON_IDLE=300ms")
	e.run(e.client, rm, "claude", "--config", "hooks.hcl")
	socks, _ := filepath.Glob(filepath.Join(e.dir, "rt", "hookctl", "*.sock"))
	if len(socks) != 1 {
		t.Fatalf("sockets: %v", socks)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(socks[0]); err != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the idle daemon did not exit")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestConcurrentFirstCalls: clients that all find no daemon start one
// each; one serves, the others exit, and every call is answered.
func TestConcurrentFirstCalls(t *testing.T) {
	e := newEnv(t)
	type res struct {
		out, errOut string
		code        int
	}
	results := make(chan res, 6)
	for range 6 {
		go func() {
			out, errOut, code := e.run(e.client, rm, "claude", "--config", "hooks.hcl")
			results <- res{out, errOut, code}
		}()
	}
	// Every daemon a client started says its pid on the client's stderr,
	// before the client exits: none can start unseen, however late.
	var pids []int
	for range 6 {
		r := <-results
		if r.code != 0 || !strings.Contains(r.out, `"permissionDecision":"deny"`) {
			t.Fatalf("a call: %d %q", r.code, r.out)
		}
		for _, m := range startedPID.FindAllStringSubmatch(r.errOut, -1) {
			pid, _ := strconv.Atoi(m[1])
			pids = append(pids, pid)
		}
	}
	if len(pids) == 0 {
		t.Fatal("no client started a daemon")
	}
	// The ones that lost the race exit (they find the socket served);
	// two that both serve would both stay.
	deadline := time.Now().Add(30 * time.Second)
	for {
		var alive []int
		for _, pid := range pids {
			if ostest.Alive(pid) {
				alive = append(alive, pid)
			}
		}
		if len(alive) <= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("daemons %v of %v still run: more than one serves", alive, pids)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// And the one left answers.
	if _, errOut, _ := e.run(e.client, rm, "claude", "--config", "hooks.hcl"); !strings.Contains(errOut, "answered by the daemon") || strings.Contains(errOut, "starting one") {
		t.Fatalf("after the race: %s", errOut)
	}
}

// startedPID finds the client's "started daemon pid N" debug lines.
var startedPID = regexp.MustCompile(`started daemon pid (\d+)`)

// TestEachCallHasItsOwnEnvironment: a daemon started by one environment
// never runs another's calls. A command hook that denies in prod, and a
// condition reading env(), must see each call's DEPLOY_ENV, as hookctl
// claude does: DEPLOY_ENV=dev first, then prod, must deny.
func TestEachCallHasItsOwnEnvironment(t *testing.T) {
	e := newEnv(t)
	e.write("env.hcl", `hook "no-prod-cmd" {
  event   = "PreToolUse"
  matcher = "Bash"
  command = "if [ \"$DEPLOY_ENV\" = prod ]; then echo 'command: not in prod' >&2; exit 2; fi"
}
hook "no-prod-env" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "${env("DEPLOY_ENV", "") == "prod"}"
  decision = "deny"
  reason   = "condition: not in prod"
}
`)
	e.run(e.full, "", "trust", "--config", "env.hcl")
	base := e.vars
	call := func(bin, deploy string) (string, string) {
		e.vars = append(base[:len(base):len(base)], "DEPLOY_ENV="+deploy)
		out, errOut, _ := e.run(bin, ls, "claude", "--config", "env.hcl")
		return out, errOut
	}
	want, _ := call(e.full, "prod")
	if !strings.Contains(want, "not in prod") {
		t.Fatalf("hookctl claude does not deny in prod: %s", want)
	}
	if out, errOut := call(e.client, "dev"); strings.Contains(out, "deny") || !strings.Contains(errOut, "answered by the daemon") {
		t.Fatalf("dev: %s %s", out, errOut)
	}
	for i := range 2 {
		out, errOut := call(e.client, "prod")
		if out != want {
			t.Fatalf("prod call %d after dev: %q, hookctl claude says %q\n%s", i, out, want, errOut)
		}
	}
	if out, _ := call(e.client, "dev"); strings.Contains(out, "deny") {
		t.Fatalf("dev after prod: %s", out)
	}
}

// TestNestedCallStartsNoDaemon: a call from one of hookctl's own hooks
// (HOOKCTL_DEPTH set) is refused by the full binary with the host's
// block, and starts no daemon.
func TestNestedCallStartsNoDaemon(t *testing.T) {
	e := newEnv(t)
	e.vars = append(e.vars, "HOOKCTL_DEPTH=1")
	out, errOut, code := e.run(e.client, ls, "claude", "--config", "hooks.hcl")
	if code != 0 || !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "hookctl's own hooks") {
		t.Fatalf("nested: exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(errOut, "starting one") {
		t.Fatalf("a nested call started a daemon: %s", errOut)
	}
	if socks, _ := filepath.Glob(filepath.Join(e.dir, "rt", "hookctl", "*.sock")); len(socks) != 0 {
		t.Fatalf("sockets: %v", socks)
	}
}

// TestEachCallHasItsOwnUmaskAndLimits: a daemon started with umask 022 and
// no file size limit never runs a call made with umask 077 or a file size
// limit: its command hooks must see the caller's, as under hookctl claude.
func TestEachCallHasItsOwnUmaskAndLimits(t *testing.T) {
	e := newEnv(t)
	e.write("attrs.hcl", `hook "umask" {
  event   = "PreToolUse"
  matcher = "Bash"
  command = "if [ \"$(umask)\" = 0077 ]; then echo 'command: umask 077' >&2; exit 2; fi"
}
hook "fsize" {
  event   = "PreToolUse"
  matcher = "Bash"
  command = "if [ \"$(ulimit -S -f)\" = 4096 ]; then echo 'command: fsize 4096' >&2; exit 2; fi"
}
`)
	e.run(e.full, "", "trust", "--config", "attrs.hcl")
	// sh sets the umask and limit, then becomes the program.
	call := func(bin, setup string) (string, string) {
		out, errOut, _ := e.run("/bin/sh", ls, "-c", setup+`; exec "$0" "$@"`, bin, "claude", "--config", "attrs.hcl")
		return out, errOut
	}
	if out, errOut := call(e.client, "umask 022; ulimit -S -f unlimited"); strings.Contains(out, "deny") || !strings.Contains(errOut, "answered by the daemon") {
		t.Fatalf("umask 022: %s %s", out, errOut)
	}
	for _, setup := range []string{"umask 077; ulimit -S -f unlimited", "umask 022; ulimit -S -f 4096"} {
		want, _ := call(e.full, setup)
		if !strings.Contains(want, "deny") {
			t.Fatalf("hookctl claude does not deny with %q: %s", setup, want)
		}
		for i := range 2 {
			if out, errOut := call(e.client, setup); out != want {
				t.Fatalf("%q, call %d: %q, hookctl claude says %q\n%s", setup, i, out, want, errOut)
			}
		}
	}
	if out, _ := call(e.client, "umask 022; ulimit -S -f unlimited"); strings.Contains(out, "deny") {
		t.Fatalf("umask 022 again: %s", out)
	}
}

// TestDaemonAnswersAsHookctl: the typed request the client sends carries
// every flag and the environment's modes: each call answered by the
// daemon gives hookctl's own stdout, stderr and exit status, and a call
// the parser does not take (--help, an unknown flag) is hookctl's.
func TestDaemonAnswersAsHookctl(t *testing.T) {
	e := newEnv(t)
	e.write("untrusted.hcl", `hook "deny-all" {
  event    = "PreToolUse"
  decision = "deny"
  reason   = "untrusted hook ran"
}
`)
	ask := `hook "ask" {
  event    = "PreToolUse"
  decision = "ask"
  reason   = "asks"
}
`
	e.write("ask.hcl", ask)
	e.run(e.full, "", "trust", "--config", "ask.hcl")
	// A prompt rewrite no host applies: the host's block, by either way.
	e.write("prompt.hcl", `hook "redact" {
  event = "UserPromptSubmit"
  js    = "return { prompt: event.prompt.replace('hunter2', '***') }"
}
`)
	e.run(e.full, "", "trust", "--config", "prompt.hcl")
	prompt := `{"hook_event_name":"UserPromptSubmit","session_id":"s","prompt":"my password is hunter2"}`
	beforeAgent := `{"hook_event_name":"BeforeAgent","session_id":"s","prompt":"my password is hunter2"}`
	crush := `{"event":"PreToolUse","session_id":"s","tool_name":"bash","tool_input":{"command":"ls"}}`
	debug := regexp.MustCompile(`(?m)^hookctl-client: .*\n`)
	for _, c := range []struct {
		stdin string
		env   []string
		args  []string
		viaD  bool   // answered by the daemon
		want  string // in the answer's stdout, when set
	}{
		{rm, nil, []string{"claude", "-c", "hooks.hcl"}, true, ""},
		{rm, nil, []string{"claude", "--config=untrusted.hcl"}, true, ""},
		{rm, nil, []string{"claude", "--config", "untrusted.hcl", "--on-untrusted", "warn"}, true, ""},
		{rm, []string{"HOOKCTL_ON_UNTRUSTED=warn"}, []string{"claude", "--config", "untrusted.hcl"}, true, ""},
		{rm, []string{"HOOKCTL_ON_UNTRUSTED=warn"}, []string{"claude", "--config", "untrusted.hcl", "--on-untrusted=block"}, true, ""},
		{rm, nil, []string{"claude", "--config", "untrusted.hcl", "--allow-untrusted"}, true, ""},
		{rm, []string{"HOOKCTL_ALLOW_UNTRUSTED=1"}, []string{"claude", "--config", "untrusted.hcl"}, true, ""},
		{rm, nil, []string{"claude", "--config", "missing.hcl", "--on-config-error", "warn"}, true, ""},
		{rm, nil, []string{"claude", "--config", "hooks.hcl", "--on-ask", "maybe"}, true, ""},
		{crush, nil, []string{"hook", "--host", "crush", "--config", "ask.hcl"}, true, ""},
		{crush, nil, []string{"hook", "--host", "crush", "--config", "ask.hcl", "--on-ask", "allow"}, true, ""},
		{crush, []string{"HOOKCTL_ON_ASK=allow"}, []string{"hook", "--config", "ask.hcl"}, true, ""},
		{crush, nil, []string{"hook", "--host", "nohost", "--config", "ask.hcl"}, true, ""},
		{`{"hook_event_name":"BeforeTool","tool_name":"x"}`, nil, []string{"hook", "--config", "ask.hcl", "--log-level", "debug"}, true, ""},
		{prompt, nil, []string{"claude", "--config", "prompt.hcl"}, true, `"decision":"block".*cannot apply.*my password is \*\*\*`},
		{beforeAgent, nil, []string{"hook", "--host", "gemini", "--config", "prompt.hcl"}, true, `"decision":"block".*cannot apply`},
		{rm, nil, []string{"claude", "--config", "hooks.hcl", "--bogus"}, false, ""},
		{rm, nil, []string{"claude", "--help"}, false, ""},
	} {
		saved := e.vars
		e.vars = append(slices.Clone(e.vars), c.env...)
		wantOut, wantErr, wantCode := e.run(e.full, c.stdin, c.args...)
		out, errOut, code := e.run(e.client, c.stdin, c.args...)
		e.vars = saved
		if via := strings.Contains(errOut, "answered by the daemon"); via != c.viaD {
			t.Errorf("%q %v: answered by the daemon: %v, want %v\n%s", c.args, c.env, via, c.viaD, errOut)
		}
		errOut = debug.ReplaceAllString(errOut, "")
		if c.want != "" && !regexp.MustCompile(c.want).MatchString(out) {
			t.Errorf("%q: stdout %q, want %s", c.args, out, c.want)
		}
		if out != wantOut || errOut != wantErr || code != wantCode {
			t.Errorf("%q %v:\nclient: exit %d\n%s\n%s\nhookctl: exit %d\n%s\n%s", c.args, c.env, code, out, errOut, wantCode, wantOut, wantErr)
		}
	}
}

// TestModeErrorsBlockThroughTheDaemon: a mode's environment variable that
// is not one (HOOKCTL_ON_ASK=Allow, HOOKCTL_ON_UNTRUSTED=yes,
// HOOKCTL_ON_CONFIG_ERROR=1) or an unknown --host is answered by the
// daemon with the host's block naming it, never with exit 1 (a go-ahead
// to the host).
func TestModeErrorsBlockThroughTheDaemon(t *testing.T) {
	e := newEnv(t)
	crush := `{"event":"PreToolUse","session_id":"s","tool_name":"bash","tool_input":{"command":"ls"}}`
	for _, c := range []struct {
		env   string
		stdin string
		args  []string
		want  string
	}{
		{"HOOKCTL_ON_ASK=Allow", ls, []string{"claude", "--config", "hooks.hcl"}, `"permissionDecision":"deny","permissionDecisionReason":"hookctl: HOOKCTL_ON_ASK \"Allow\": want deny or allow`},
		{"HOOKCTL_ON_UNTRUSTED=yes", crush, []string{"hook", "--host", "crush", "--config", "hooks.hcl"}, `"decision":"deny","reason":"hookctl: HOOKCTL_ON_UNTRUSTED \"yes\": want block or warn`},
		{"HOOKCTL_ON_CONFIG_ERROR=1", ls, []string{"claude", "--config", "hooks.hcl"}, `HOOKCTL_ON_CONFIG_ERROR \"1\": want block or warn`},
		{"", crush, []string{"hook", "--host", "crsh", "--config", "hooks.hcl"}, `"decision":"deny","reason":"hookctl: --host \"crsh\": want one of`},
	} {
		saved := e.vars
		e.vars = append(slices.Clone(e.vars), c.env)
		out, errOut, code := e.run(e.client, c.stdin, c.args...)
		e.vars = saved
		if code != 0 || !strings.Contains(out, c.want) || !strings.Contains(errOut, "answered by the daemon") {
			t.Errorf("%s %q: exit %d\n%s\n%s", c.env, c.args, code, out, errOut)
		}
	}
}

// TestDaemonSeesARewriteThatKeptSizeAndTime: a configuration rewritten
// with the same size and its modification time set back (sed -i, then
// touch -d; cp -p, rsync -a, tar) and trusted again is the daemon's new
// configuration, as it is hookctl claude's: it denies what it now denies.
func TestDaemonSeesARewriteThatKeptSizeAndTime(t *testing.T) {
	e := newEnv(t)
	cfg := func(word string) string {
		return `hook "no-word" {
  event    = "PreToolUse"
  when     = "tool_input.command contains \"` + word + `\""
  decision = "deny"
  reason   = "no ` + word + `"
}
`
	}
	call := func(word string) (string, string) {
		out, errOut, _ := e.run(e.client, `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"echo `+word+`"}}`, "claude", "--config", "word.hcl")
		return out, errOut
	}
	e.write("word.hcl", cfg("AAAA"))
	e.run(e.full, "", "trust", "--config", "word.hcl")
	if out, errOut := call("BBBB"); strings.Contains(out, "deny") || !strings.Contains(errOut, "answered by the daemon") {
		t.Fatalf("before: %s %s", out, errOut)
	}
	path := filepath.Join(e.dir, "word.hcl")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// As sed -i does it: a new file renamed over the old one.
	e.write("word.hcl.tmp", cfg("BBBB"))
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	e.run(e.full, "", "trust", "--config", "word.hcl")
	want, _, _ := e.run(e.full, `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"echo BBBB"}}`, "claude", "--config", "word.hcl")
	if !strings.Contains(want, "no BBBB") {
		t.Fatalf("hookctl claude does not deny BBBB: %s", want)
	}
	if out, errOut := call("BBBB"); out != want || !strings.Contains(errOut, "answered by the daemon") {
		t.Fatalf("the daemon answered from the old configuration: %q, hookctl claude says %q\n%s", out, want, errOut)
	}
}

// TestClientBlockIsTheHostsBlock: when neither the daemon nor hookctl can
// run, the client answers the host's block: under Copilot CLI (no exit
// status blocks there) a deny reply on stdout, as hookctl hook gives.
func TestClientBlockIsTheHostsBlock(t *testing.T) {
	e := newEnv(t)
	e.vars = append(e.vars, "HOOKCTL_BIN="+filepath.Join(e.dir, "no-such-hookctl"))
	copilot := `{"sessionId":"s","timestamp":1,"cwd":"/tmp","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`
	out, errOut, code := e.run(e.client, copilot, "hook", "--host", "copilot", "--event", "preToolUse", "--config", "hooks.hcl")
	if code != 0 || !strings.Contains(out, `{"permissionDecision":"deny","permissionDecisionReason":"hookctl-client: `) || !strings.Contains(errOut, "blocked") {
		t.Fatalf("copilot: exit %d\n%s\n%s", code, out, errOut)
	}
	out, errOut, code = e.run(e.client, ls, "hook", "--host", "crush", "--config", "hooks.hcl")
	if code != 2 || out != "" || !strings.Contains(errOut, "blocked") {
		t.Fatalf("crush: exit %d\n%s\n%s", code, out, errOut)
	}
}
