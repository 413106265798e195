package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// claudeVersion is the Claude Code release the fixtures were captured
// with.
const claudeVersion = "2.1.329"

const runnerEnv = "HOOKCTL_E2E_RUNNER"

// requiredEnv, set to 1 (CI sets it), turns the skips for a missing tool,
// a machine without network namespaces or an unreachable npm registry into
// failures: where the end-to-end test is required, not running it is a
// failure, not a pass.
const requiredEnv = "HOOKCTL_E2E_REQUIRED"

// skipf skips the test saying why, or fails it when the end-to-end tests
// are required (requiredEnv).
func skipf(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv(requiredEnv) == "1" {
		t.Fatalf("%s=1 and the end-to-end test cannot run: "+format, append([]any{requiredEnv}, args...)...)
	}
	skip(t, format, args...)
}

// skipLogEnv names a file each skipped end-to-end test appends a line to
// (its name and why), so that a run of the whole tree can list them.
const skipLogEnv = "HOOKCTL_E2E_SKIPLOG"

// skip skips the test saying why, and notes it in the skip log.
func skip(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if p := os.Getenv(skipLogEnv); p != "" {
		if f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600); err == nil {
			fmt.Fprintf(f, "%s: %s\n", t.Name(), msg)
			f.Close()
		}
	}
	t.Skip(msg)
}

func TestMain(m *testing.M) {
	if spec := os.Getenv(runnerEnv); spec != "" {
		if err := runner(spec); err != nil {
			fmt.Fprintln(os.Stderr, "e2e runner:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if spec := os.Getenv(hostRunnerEnv); spec != "" {
		if err := hostRunner(spec); err != nil {
			fmt.Fprintln(os.Stderr, "e2e host runner:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	if buildOnce.dir != "" {
		os.RemoveAll(buildOnce.dir)
	}
	os.Exit(code)
}

// runSpec is what the runner does inside the namespace.
type runSpec struct {
	Claude   string   `json:"claude"`
	Hookctl  string   `json:"hookctl"`
	Home     string   `json:"home"`
	Project  string   `json:"project"`
	Config   string   `json:"config"`
	Events   []string `json:"events"`
	Serve    bool     `json:"serve"`
	Prompt   string   `json:"prompt"`
	APILog   string   `json:"api_log"`
	Stream   string   `json:"stream"`
	StateDir string   `json:"state_dir"`
	// Health is where the runner saves serve's /healthz after the
	// session.
	Health string `json:"health"`
	// NoTrust leaves the configuration untrusted.
	NoTrust bool `json:"no_trust"`
}

// runner brings up loopback, serves the fake API (and hookctl serve), and
// runs one headless Claude Code session.
func runner(specPath string) error {
	b, err := os.ReadFile(specPath)
	if err != nil {
		return err
	}
	var s runSpec
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if out, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		return fmt.Errorf("ip link set lo up: %v: %s", err, out)
	}
	logf, err := os.Create(s.APILog)
	if err != nil {
		return err
	}
	defer logf.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	api := &http.Server{Handler: &fakeAPI{log: logf}}
	go api.Serve(ln)
	defer api.Close()

	// The configuration is trusted first (hookctl claude and serve refuse
	// an untrusted one), in a trust file of the test's own.
	hookEnv := append(os.Environ(), "HOOKCTL_STATE_DIR="+s.StateDir,
		"HOOKCTL_TRUST_FILE="+filepath.Join(s.StateDir, "trusted.json"), "HOOKCTL_ALLOW_UNTRUSTED=")
	if !s.NoTrust {
		trustCmd := exec.Command(s.Hookctl, "trust", "--config", s.Config)
		trustCmd.Env = hookEnv
		if out, err := trustCmd.CombinedOutput(); err != nil {
			return fmt.Errorf("hookctl trust: %v: %s", err, out)
		}
	}
	hook := func(event string) map[string]any {
		if s.Serve {
			return map[string]any{"type": "http", "url": "http://127.0.0.1:18799/claude", "timeout": 30}
		}
		return map[string]any{"type": "command", "command": s.Hookctl + " claude --config " + s.Config, "timeout": 30}
	}
	if s.Serve {
		srv := exec.Command(s.Hookctl, "serve", "--config", s.Config, "--listen", "127.0.0.1:18799")
		srv.Env = hookEnv
		srv.Stderr = os.Stderr
		if err := srv.Start(); err != nil {
			return err
		}
		defer func() {
			srv.Process.Signal(os.Interrupt)
			srv.Wait()
		}()
		if err := waitHTTP("http://127.0.0.1:18799/healthz"); err != nil {
			return err
		}
	}
	hooks := map[string]any{}
	for _, ev := range s.Events {
		hooks[ev] = []any{map[string]any{"hooks": []any{hook(ev)}}}
	}
	settings, _ := json.Marshal(map[string]any{"hooks": hooks})
	settingsPath := filepath.Join(s.Home, "settings.json")
	if err := os.WriteFile(settingsPath, settings, 0o644); err != nil {
		return err
	}
	trust, _ := json.Marshal(map[string]any{"hasCompletedOnboarding": true, "projects": map[string]any{
		s.Project: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}}})
	if err := os.WriteFile(filepath.Join(s.Home, ".claude.json"), trust, 0o644); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.Claude, "-p", s.Prompt, "--output-format", "stream-json", "--verbose",
		"--include-hook-events", "--settings", settingsPath, "--permission-mode", "bypassPermissions")
	cmd.Dir = s.Project
	cmd.Env = append(hookEnv,
		"HOME="+s.Home,
		"ANTHROPIC_BASE_URL=http://"+ln.Addr().String(),
		"ANTHROPIC_API_KEY=sk-ant-e2e-dummy",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		"IS_SANDBOX=1",
	)
	out, err := os.Create(s.Stream)
	if err != nil {
		return err
	}
	defer out.Close()
	cmd.Stdout = out
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("claude: %w", err)
	}
	if s.Serve {
		// What serve saw of Claude Code's requests: how many, and how
		// many it refused (a Content-Type, Host or Origin it does not
		// answer).
		resp, err := http.Get("http://127.0.0.1:18799/healthz")
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		return os.WriteFile(s.Health, b, 0o644)
	}
	return nil
}

func waitHTTP(url string) error {
	for i := 0; i < 200; i++ {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	return fmt.Errorf("%s did not come up", url)
}

// setup builds hookctl and installs Claude Code, once per test binary.
type setup struct {
	claude, hookctl string
}

func prepare(t *testing.T) setup {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		skipf(t, "the end-to-end test runs the linux-x64 Claude Code binary")
	}
	for _, tool := range []string{"unshare", "ip", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			skipf(t, "the end-to-end test needs %s: %v", tool, err)
		}
	}
	if out, err := exec.Command("unshare", "-n", "true").CombinedOutput(); err != nil {
		skipf(t, "cannot create a network namespace here (unshare -n): %v: %s", err, out)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	prefix := filepath.Join(cache, "hookctl-e2e", "claude-code-"+claudeVersion)
	claudeBin := filepath.Join(prefix, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")
	if _, err := os.Stat(claudeBin); err != nil {
		if err := os.MkdirAll(prefix, 0o755); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "install", "--prefix", prefix, "--ignore-scripts", "--no-audit", "--no-fund",
			"@anthropic-ai/claude-code@"+claudeVersion)
		out, err := cmd.CombinedOutput()
		if err != nil {
			text := string(out)
			if registryUnreachable(text) {
				skipf(t, "the npm registry cannot be reached, so Claude Code cannot be installed: %s", lastLines(text, 3))
			}
			t.Fatalf("npm install @anthropic-ai/claude-code@%s: %v\n%s", claudeVersion, err, text)
		}
		if _, err := os.Stat(claudeBin); err != nil {
			t.Fatalf("npm installed Claude Code but %s is missing: %v", claudeBin, err)
		}
	}
	bin := filepath.Join(t.TempDir(), "hookctl")
	build := exec.Command("go", "build", "-o", bin, "github.com/hookctl/hookctl/cmd/hookctl")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build hookctl: %v\n%s", err, out)
	}
	return setup{claude: claudeBin, hookctl: bin}
}

func registryUnreachable(out string) bool {
	for _, s := range []string{"ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT", "ECONNRESET", "network request", "getaddrinfo"} {
		if strings.Contains(out, s) {
			return true
		}
	}
	return false
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

const hooksHCL = `
settings {
  stop_block_cap = 2
}

hook "no-rm-rf" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "hasCommand(tool_input.command, 'rm') and tool_input.command matches ` + "`\\\\brm\\\\s+-rf\\\\b`" + `"
  decision = "deny"
  reason   = "E2E-DENY: rm -rf is not allowed by hookctl"
}

hook "prompt-context" {
  event              = "UserPromptSubmit"
  additional_context = "E2E-CONTEXT-MARKER from hookctl"
}

hook "keep-going" {
  event    = "Stop"
  when     = "last_assistant_message contains 'FAKE-TEXT'"
  decision = "block"
  reason   = "E2E-KEEP-GOING: one more pass"
}
`

// session is one Claude Code run and what it produced.
type session struct {
	requests []map[string]any // the API request bodies, in order
	stream   string
}

func run(t *testing.T, su setup, serve bool, prompt string) (session, string) {
	t.Helper()
	return runWith(t, su, runOpts{serve: serve, prompt: prompt, hcl: hooksHCL})
}

// runOpts is one session's set-up: the configuration (hcl, or written by
// prepareProject into the project), whether it is trusted, and the
// prompt.
type runOpts struct {
	serve   bool
	prompt  string
	hcl     string
	noTrust bool
	// prepareProject writes files into the project and returns the
	// configuration's path when it made one.
	prepareProject func(project string) string
}

func runWith(t *testing.T, su setup, o runOpts) (session, string) {
	t.Helper()
	dir := t.TempDir()
	project := filepath.Join(dir, "project")
	home := filepath.Join(dir, "home")
	for _, d := range []string{project, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	config := filepath.Join(dir, "hooks.hcl")
	if o.prepareProject != nil {
		if c := o.prepareProject(project); c != "" {
			config = c
		}
	}
	if o.hcl != "" {
		if err := os.WriteFile(config, []byte(o.hcl), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec := runSpec{Claude: su.claude, Hookctl: su.hookctl, Home: home, Project: project, Config: config,
		Events: []string{"PreToolUse", "UserPromptSubmit", "Stop"}, Serve: o.serve, Prompt: o.prompt, NoTrust: o.noTrust,
		APILog: filepath.Join(dir, "api.jsonl"), Stream: filepath.Join(dir, "stream.jsonl"), StateDir: filepath.Join(dir, "state"),
		Health: filepath.Join(dir, "health.json")}
	b, _ := json.Marshal(spec)
	specPath := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(specPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("unshare", "-n", os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), runnerEnv+"="+specPath)
	out, err := cmd.CombinedOutput()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			_ = ee.Sys().(syscall.WaitStatus)
		}
		t.Fatalf("claude session failed: %v\n%s", err, out)
	}
	var s session
	f, err := os.Open(spec.APILog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var rec struct {
			Path string         `json:"path"`
			Body map[string]any `json:"body"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) == nil && strings.HasPrefix(rec.Path, "/v1/messages") && rec.Body["tools"] != nil {
			s.requests = append(s.requests, rec.Body)
		}
	}
	st, _ := os.ReadFile(spec.Stream)
	s.stream = string(st)
	if o.serve {
		checkServeSaw(t, spec.Health)
	}
	return s, project
}

// checkServeSaw checks that serve answered every hook request Claude Code
// made: Claude Code's http hooks send Content-Type application/json to
// Host 127.0.0.1 with no Origin, which serve's browser checks let in.
func checkServeSaw(t *testing.T, healthPath string) {
	t.Helper()
	b, err := os.ReadFile(healthPath)
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		Requests float64 `json:"requests"`
		Load     struct {
			RefusedOrigin    *float64 `json:"refused_origin"`
			RefusedMediaType *float64 `json:"refused_media_type"`
		} `json:"load"`
	}
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatalf("serve's /healthz: %v: %s", err, b)
	}
	if h.Requests == 0 || h.Load.RefusedOrigin == nil || h.Load.RefusedMediaType == nil || *h.Load.RefusedOrigin != 0 || *h.Load.RefusedMediaType != 0 {
		t.Fatalf("serve refused some of Claude Code's hook requests (its Content-Type, Host or Origin): %s", b)
	}
}

func (s session) requestText(i int) string {
	if i >= len(s.requests) {
		return ""
	}
	b, _ := json.Marshal(s.requests[i]["messages"])
	return string(b)
}

// TestClaudeCodeWithHookctl is the end-to-end check of SPEC and the Claude
// Code issue: a PreToolUse deny stops an rm -rf (the target survives and
// the model is told the reason), an allowed command runs, UserPromptSubmit
// context reaches the model, a Stop block makes the agent continue and the
// cap ends it — through `hookctl claude`, then through `hookctl serve`.
func TestClaudeCodeWithHookctl(t *testing.T) {
	su := prepare(t)
	for _, mode := range []struct {
		name  string
		serve bool
	}{{"command hook", false}, {"http hook via serve", true}} {
		t.Run(mode.name, func(t *testing.T) {
			t.Run("deny stops rm -rf", func(t *testing.T) {
				victim := filepath.Join(t.TempDir(), "victim")
				if err := os.MkdirAll(filepath.Join(victim, "keep"), 0o755); err != nil {
					t.Fatal(err)
				}
				s, _ := run(t, su, mode.serve, "E2E-RUN: rm -rf "+victim)
				if _, err := os.Stat(filepath.Join(victim, "keep")); err != nil {
					t.Fatalf("the target of rm -rf is gone: %v", err)
				}
				if len(s.requests) < 2 {
					t.Fatalf("%d model requests:\n%s", len(s.requests), s.stream)
				}
				if !strings.Contains(s.requestText(1), "E2E-DENY: rm -rf is not allowed by hookctl") {
					t.Fatalf("the model was not told the reason: %s", s.requestText(1))
				}
			})
			t.Run("allowed command runs", func(t *testing.T) {
				marker := filepath.Join(t.TempDir(), "ran.txt")
				s, _ := run(t, su, mode.serve, "E2E-RUN: touch "+marker)
				if _, err := os.Stat(marker); err != nil {
					t.Fatalf("the allowed command did not run: %v\n%s", err, s.stream)
				}
			})
			t.Run("prompt context reaches the model", func(t *testing.T) {
				s, _ := run(t, su, mode.serve, "E2E-RUN: true")
				if len(s.requests) == 0 || !strings.Contains(s.requestText(0), "E2E-CONTEXT-MARKER from hookctl") {
					t.Fatalf("the first model request lacks the context: %s", s.requestText(0))
				}
			})
			t.Run("stop block continues until the cap", func(t *testing.T) {
				s, _ := run(t, su, mode.serve, "just answer")
				// One answer, then two blocked stops (stop_block_cap = 2),
				// then the guard lets the agent stop.
				if len(s.requests) != 3 {
					t.Fatalf("%d model requests, want 3:\n%s", len(s.requests), s.stream)
				}
				if !strings.Contains(s.requestText(1), "E2E-KEEP-GOING") || !strings.Contains(s.requestText(2), "E2E-KEEP-GOING") {
					t.Fatalf("the continuations lack the Stop hook's reason: %s", s.requestText(1))
				}
			})
		})
	}
}

// guardScript is a Claude Code command hook in the style public hook
// scripts are written: it reads the hook JSON and blocks rm -rf with exit
// 2, the reason on stderr.
const guardScript = `#!/bin/sh
input=$(cat)
case "$input" in
  *"rm -rf"*) echo "E2E-GUARD: rm -rf blocked by the project guard" >&2; exit 2;;
esac
exit 0
`

// TestClaudeCodeGuards: the paths that failed open before, through the
// real CLI: an imported .claude/hooks.hcl whose guard is named by a
// project-relative path, an OpenClaw-style block, and a configuration
// nobody trusted. In each the rm -rf target survives and the model is
// told why.
func TestClaudeCodeGuards(t *testing.T) {
	su := prepare(t)
	cases := []struct {
		name   string
		opts   func(victim string) runOpts
		reason string
	}{
		{"imported config with a project-relative guard", func(victim string) runOpts {
			return runOpts{prompt: "E2E-RUN: rm -rf " + victim, prepareProject: func(project string) string {
				if err := os.MkdirAll(filepath.Join(project, ".claude", "hooks"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(project, ".claude", "hooks", "guard.sh"), []byte(guardScript), 0o755); err != nil {
					t.Fatal(err)
				}
				settings := filepath.Join(project, ".claude", "settings.json")
				if err := os.WriteFile(settings, []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"sh .claude/hooks/guard.sh"}]}]}}`), 0o644); err != nil {
					t.Fatal(err)
				}
				config := filepath.Join(project, ".claude", "hooks.hcl")
				if out, err := exec.Command(su.hookctl, "import", "claude", settings, "-o", config).CombinedOutput(); err != nil {
					t.Fatalf("hookctl import: %v: %s", err, out)
				}
				return config
			}}
		}, "E2E-GUARD: rm -rf blocked by the project guard"},
		{"OpenClaw-style block", func(victim string) runOpts {
			return runOpts{prompt: "E2E-RUN: rm -rf " + victim, hcl: `
hook "openclaw-firewall" {
  event = "before_tool_call"
  js    = <<-JS
    if (String(event.tool_input.command).includes("rm -rf")) {
      return { block: true, blockReason: "E2E-OC-BLOCK: no recursive deletes" };
    }
  JS
}
`}
		}, "E2E-OC-BLOCK: no recursive deletes"},
		{"untrusted config blocks with the trust message", func(victim string) runOpts {
			return runOpts{prompt: "E2E-RUN: rm -rf " + victim, hcl: hooksHCL, noTrust: true}
		}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			victim := filepath.Join(t.TempDir(), "victim")
			if err := os.MkdirAll(filepath.Join(victim, "keep"), 0o755); err != nil {
				t.Fatal(err)
			}
			s, _ := runWith(t, su, tc.opts(victim))
			if _, err := os.Stat(filepath.Join(victim, "keep")); err != nil {
				t.Fatalf("the target of rm -rf is gone: %v\n%s", err, s.stream)
			}
			if tc.reason == "" {
				// Untrusted: the very first gate, UserPromptSubmit, blocks
				// the prompt, and Claude Code shows the user why.
				if len(s.requests) != 0 || !strings.Contains(s.stream, "blocked by hook") || !strings.Contains(s.stream, "then run `hookctl trust --config") {
					t.Fatalf("%d model requests; the user was not told to trust:\n%s", len(s.requests), s.stream)
				}
				return
			}
			if len(s.requests) < 2 || !strings.Contains(s.requestText(1), tc.reason) {
				t.Fatalf("the model was not told %q: %s\n%s", tc.reason, s.requestText(1), s.stream)
			}
		})
	}
}
