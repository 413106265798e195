package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// The releases of Gemini CLI and Codex the host tests run.
const (
	geminiVersion = "0.61.0"
	codexVersion  = "0.169.0"
)

// hostRunnerEnv names the spec a re-executed test binary runs inside its
// own network namespace (see hostRunner).
const hostRunnerEnv = "HOOKCTL_E2E_HOST_RUNNER"

// fakeAddr is where the fake model API listens inside the namespace: the
// namespace is new, so the port is free, and the hosts' configuration can
// name it before the session starts.
const fakeAddr = "127.0.0.1:18181"

// hostRun is one headless session of an agent host, run by hostRunner.
type hostRun struct {
	API     string        `json:"api"` // the fake API's kind: gemini, responses
	APILog  string        `json:"api_log"`
	Argv    []string      `json:"argv"`
	Dir     string        `json:"dir"`
	Env     []string      `json:"env"`
	Output  string        `json:"output"` // the host's stdout and stderr
	Timeout time.Duration `json:"timeout"`
}

// hostRunner brings up loopback in the namespace it runs in, serves the
// fake model API on fakeAddr and runs the host to its end. The host's exit
// status is written to Output + ".rc".
func hostRunner(specPath string) error {
	b, err := os.ReadFile(specPath)
	if err != nil {
		return err
	}
	var s hostRun
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
	h, err := newFakeAPI(s.API, logf)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", fakeAddr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	defer srv.Close()
	out, err := os.Create(s.Output)
	if err != nil {
		return err
	}
	defer out.Close()
	ctx, cancel := context.WithTimeout(context.Background(), s.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.Argv[0], s.Argv[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = s.Dir, s.Env, out, out
	cmd.WaitDelay = 5 * time.Second
	code := 0
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return fmt.Errorf("%s: %w", s.Argv[0], err)
		}
		code = ee.ExitCode()
	}
	if ctx.Err() != nil {
		fmt.Fprintf(out, "\ne2e: the session was killed after %s\n", s.Timeout)
	}
	return os.WriteFile(s.Output+".rc", []byte(fmt.Sprint(code)), 0o644)
}

// npmInstalls holds the installations made by this test binary, one per
// package and version. The parallel tests that need the same host
// (TestGeminiCLIWithHookctl, TestSlowGuard, TestInstalledFromSubdirectory)
// used to each find the program missing on a fresh machine and run npm
// install into the same directory at once: the later npm rewrote the tree
// the earlier one had just finished (removing and extracting files again),
// so a test that went on ran the host from a half-written installation
// (75 of the 84 files of Gemini CLI's bundle there, the earlier npm
// exiting 0 with a TAR_ENTRY_ERROR); one that found the program file
// while an installation was still extracting did the same. Now one test
// installs and the others wait for it.
var npmInstalls struct {
	mu sync.Mutex
	m  map[string]*npmInstall
}

// npmInstall is one installation: its program, or why the tests that need
// it skip or fail.
type npmInstall struct {
	once sync.Once
	path string
	skip string // the registry cannot be reached
	err  error
}

// npmComplete names the file written in an installation's directory once
// npm install has succeeded there: an installation is complete when it
// exists, not when the program does (npm writes the program before the
// rest, and a run interrupted mid-install leaves it behind).
const npmComplete = ".hookctl-e2e-installed"

// npmTool installs an npm package at a version into the user's cache
// (once; later runs reuse it) and returns the path of bin inside the
// installation. A registry that cannot be reached skips the test (fails it
// under HOOKCTL_E2E_REQUIRED=1). The tests of one binary that need the
// same package share one installation (npmInstalls).
func npmTool(t *testing.T, pkg, version, bin string) string {
	t.Helper()
	npmInstalls.mu.Lock()
	if npmInstalls.m == nil {
		npmInstalls.m = map[string]*npmInstall{}
	}
	in := npmInstalls.m[pkg+"@"+version]
	if in == nil {
		in = &npmInstall{}
		npmInstalls.m[pkg+"@"+version] = in
	}
	npmInstalls.mu.Unlock()
	in.once.Do(func() { in.path, in.skip, in.err = installNPM(pkg, version, bin) })
	if in.skip != "" {
		skipf(t, "%s", in.skip)
	}
	if in.err != nil {
		t.Fatal(in.err)
	}
	return in.path
}

// installNPM is npmTool's installation, made once per test binary.
func installNPM(pkg, version, bin string) (path, skip string, err error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	prefix := filepath.Join(cache, "hookctl-e2e", strings.NewReplacer("@", "", "/", "-").Replace(pkg)+"-"+version)
	path = filepath.Join(prefix, bin)
	if _, err := os.Stat(filepath.Join(prefix, npmComplete)); err == nil {
		return path, "", nil
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--prefix", prefix, "--ignore-scripts", "--no-audit", "--no-fund", pkg+"@"+version)
	out, err := cmd.CombinedOutput()
	if err != nil {
		text := string(out)
		if registryUnreachable(text) {
			return "", fmt.Sprintf("the npm registry cannot be reached, so %s cannot be installed: %s", pkg, lastLines(text, 3)), nil
		}
		return "", "", fmt.Errorf("npm install %s@%s: %v\n%s", pkg, version, err, text)
	}
	if _, err := os.Stat(path); err != nil {
		return "", "", fmt.Errorf("npm installed %s but %s is missing: %v", pkg, path, err)
	}
	if err := os.WriteFile(filepath.Join(prefix, npmComplete), []byte(pkg+"@"+version+"\n"), 0o644); err != nil {
		return "", "", err
	}
	return path, "", nil
}

// fakeNPM stands in for npm install --prefix PREFIX ... PKG@VERSION: it
// counts its runs in $FAKE_NPM_CALLS and writes the program first and the
// rest after it, as npm does, "done" last.
const fakeNPM = `#!/bin/sh
echo install >> "$FAKE_NPM_CALLS"
dir="$3/node_modules/fake"
mkdir -p "$dir"
echo program > "$dir/bin.js"
i=0
while [ $i -lt 100 ]; do echo $i > "$dir/part$i.js"; i=$((i+1)); done
echo done > "$dir/done"
`

// TestNPMToolInstallsOnce: parallel tests that need the same host get one
// installation, complete when they get it (each used to run npm install
// into the same directory, the later npm rewriting the earlier one's
// files under the session it had started); a program left by an
// installation that did not finish is installed again.
func TestNPMToolInstallsOnce(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake npm is a shell script")
	}
	fake := t.TempDir()
	calls := filepath.Join(fake, "calls")
	if err := os.WriteFile(filepath.Join(fake, "npm"), []byte(fakeNPM), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", fake+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_NPM_CALLS", calls)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	runs := func() int {
		b, _ := os.ReadFile(calls)
		return strings.Count(string(b), "install")
	}
	// A version of this run's own (the test's temporary directory is):
	// npmInstalls lasts as long as the binary.
	version := "1.0.0-" + filepath.Base(filepath.Dir(cache))
	const pkg, bin = "@hookctl-e2e/fake", "node_modules/fake/bin.js"
	t.Run("parallel tests", func(t *testing.T) {
		for i := range 4 {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				path := npmTool(t, pkg, version, bin)
				if _, err := os.Stat(filepath.Join(filepath.Dir(path), "done")); err != nil {
					t.Errorf("npmTool returned an installation still being written: %v", err)
				}
			})
		}
	})
	if n := runs(); n != 1 {
		t.Errorf("npm install ran %d times for one package, want once", n)
	}

	// What an interrupted installation leaves: the program, not the rest.
	left := filepath.Join(cache, "hookctl-e2e", "hookctl-e2e-fake-"+version+"-left", bin)
	if err := os.MkdirAll(filepath.Dir(left), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(left, []byte("program"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := npmTool(t, pkg, version+"-left", bin)
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "done")); err != nil || runs() != 2 {
		t.Errorf("a program without its installation was used as it was (%d npm runs): %v", runs(), err)
	}
}

// agentHost is what the tests need to know of one host: how to install
// and start it and where its hooks are configured.
type agentHost struct {
	name string // hookctl's name for it (--host)
	api  string // the fake API's kind
	// toolEvent is the host's name for PreToolUse.
	toolEvent string
	// rm is the host's rm -rf: Codex refuses a plain one itself ("rm -f
	// style commands are not permitted"), so its test asks for one it
	// runs, and only the hook stands in the way.
	rm string
	// toolResults returns the tool results a model request carries.
	toolResults func(body []byte) []string
	// install returns the host's program (npmTool).
	install func(t *testing.T) string
	// configure writes the host's configuration for a session in home and
	// project; hookCommand, when not empty, is the command registered on
	// toolEvent (empty: what hookctl install wrote is used) and
	// hostTimeout, when not zero, the host's timeout for it.
	configure func(t *testing.T, home, project, hookCommand string, hostTimeout time.Duration)
	// argv is the headless command line for a prompt; env the host's own
	// variables.
	argv func(bin, prompt string) []string
	env  func(home string) []string
}

var gemini = agentHost{
	name: "gemini", api: "gemini", toolEvent: "BeforeTool", rm: "rm -rf ", toolResults: geminiResults,
	install: func(t *testing.T) string {
		out, err := exec.Command("node", "--version").Output()
		if err != nil {
			skipf(t, "Gemini CLI needs node: %v", err)
		}
		var major int
		if _, err := fmt.Sscanf(string(out), "v%d.", &major); err != nil || major < 20 {
			skipf(t, "Gemini CLI %s needs node 20 or later, not %s", geminiVersion, strings.TrimSpace(string(out)))
		}
		return npmTool(t, "@google/gemini-cli", geminiVersion, "node_modules/@google/gemini-cli/bundle/gemini.js")
	},
	configure: func(t *testing.T, home, project, hookCommand string, hostTimeout time.Duration) {
		writeJSON(t, filepath.Join(home, ".gemini", "settings.json"), map[string]any{
			"privacy":   map[string]any{"usageStatisticsEnabled": false},
			"telemetry": map[string]any{"enabled": false},
			"general":   map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
			// GOOGLE_GEMINI_BASE_URL alone selects the "gateway" auth
			// type, which a headless run refuses ("Invalid auth method
			// selected.", exit 41); the API key type still sends its
			// requests to GOOGLE_GEMINI_BASE_URL.
			"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		})
		// Gemini loads no hooks in a folder it does not trust.
		writeJSON(t, filepath.Join(home, ".gemini", "trustedFolders.json"), map[string]any{project: "TRUST_FOLDER"})
		if hookCommand == "" {
			return
		}
		hook := map[string]any{"type": "command", "name": "hookctl", "command": hookCommand}
		if hostTimeout > 0 {
			hook["timeout"] = hostTimeout.Milliseconds()
		}
		writeJSON(t, filepath.Join(project, ".gemini", "settings.json"), map[string]any{"hooks": map[string]any{
			"BeforeTool": []any{map[string]any{"matcher": "", "hooks": []any{hook}}}}})
	},
	argv: func(bin, prompt string) []string {
		return []string{"node", bin, "-p", prompt, "--approval-mode", "yolo", "-m", "gemini-2.5-flash"}
	},
	env: func(home string) []string {
		return []string{"GOOGLE_GEMINI_BASE_URL=http://" + fakeAddr, "GEMINI_API_KEY=e2e-dummy",
			"GEMINI_CLI_NO_RELAUNCH=true", "NO_COLOR=1"}
	},
}

var codex = agentHost{
	name: "codex", api: "responses", toolEvent: "PreToolUse", rm: "command rm -rf ", toolResults: responsesResults,
	install: func(t *testing.T) string {
		return npmTool(t, "@openai/codex", codexVersion, "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex")
	},
	configure: func(t *testing.T, home, project, hookCommand string, hostTimeout time.Duration) {
		// gpt-5.5 is in Codex's own model catalogue, which gives it the
		// apply_patch tool (an unknown model gets none); analytics and
		// plugins are off, or Codex spends 5 s at exit failing to send
		// metrics to ab.chatgpt.com and to sync plugins from GitHub.
		cfg := fmt.Sprintf(`model = "gpt-5.5"
model_provider = "e2e"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[analytics]
enabled = false

[features]
plugins = false
remote_plugin = false

[model_providers.e2e]
name = "e2e"
base_url = "http://%s/v1"
wire_api = "responses"
env_key = "E2E_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[projects.%q]
trust_level = "trusted"
`, fakeAddr, project)
		writeFile(t, mkdirFor(t, filepath.Join(home, ".codex", "config.toml")), cfg)
		if hookCommand == "" {
			return
		}
		hook := map[string]any{"type": "command", "command": hookCommand}
		if hostTimeout > 0 {
			hook["timeout"] = int(hostTimeout.Seconds())
		}
		writeJSON(t, filepath.Join(project, ".codex", "hooks.json"), map[string]any{"hooks": map[string]any{
			"PreToolUse": []any{map[string]any{"matcher": "", "hooks": []any{hook}}}}})
	},
	argv: func(bin, prompt string) []string {
		return []string{bin, "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust",
			"--dangerously-bypass-approvals-and-sandbox", prompt}
	},
	env: func(home string) []string {
		return []string{"CODEX_HOME=" + filepath.Join(home, ".codex"), "E2E_API_KEY=e2e-dummy", "RUST_LOG=warn"}
	},
}

// copilotVersion is the GitHub Copilot CLI release its test runs.
const copilotVersion = "1.0.102"

var copilot = agentHost{
	name: "copilot", api: "openai", toolEvent: "preToolUse", rm: "rm -rf ", toolResults: chatResults,
	install: func(t *testing.T) string {
		return npmTool(t, "@github/copilot", copilotVersion, "node_modules/@github/copilot-linux-x64/copilot")
	},
	configure: func(t *testing.T, home, project, hookCommand string, hostTimeout time.Duration) {
		if hookCommand == "" {
			return
		}
		hook := map[string]any{"type": "command", "bash": hookCommand + " --event preToolUse"}
		if hostTimeout > 0 {
			hook["timeoutSec"] = int(hostTimeout.Seconds())
		}
		writeJSON(t, filepath.Join(project, ".github", "hooks", "e2e.json"), map[string]any{"version": 1,
			"hooks": map[string]any{"preToolUse": []any{hook}}})
	},
	argv: func(bin, prompt string) []string {
		// Repository hooks load in prompt mode only in a trusted folder.
		return []string{bin, "-p", prompt, "--allow-all-tools", "--allow-all-paths", "--trust-folder"}
	},
	env: func(home string) []string {
		return []string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=http://" + fakeAddr + "/v1",
			"COPILOT_PROVIDER_TYPE=openai", "COPILOT_PROVIDER_API_KEY=e2e-dummy", "COPILOT_MODEL=gpt-4.1"}
	},
}

// chatResults reads the tool messages of a chat completions request.
func chatResults(body []byte) []string {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(body, &req)
	var out []string
	for _, m := range req.Messages {
		if m.Role == "tool" {
			var text string
			if json.Unmarshal(m.Content, &text) != nil {
				text = string(m.Content)
			}
			out = append(out, text)
		}
	}
	return out
}

func mkdirFor(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, mkdirFor(t, path), string(b))
}

// hostKit is what every session of a host test uses: the host's program,
// and hookctl and hookctl-client in one directory (put on PATH, as a user
// who installed them has them).
type hostKit struct {
	host agentHost
	bin  string // the host's program
	dir  string // holds hookctl and hookctl-client
}

var buildOnce struct {
	sync.Once
	dir string
	err error
}

func prepareHost(t *testing.T, h agentHost) hostKit {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		skipf(t, "the end-to-end tests run the linux-x64 builds of the hosts")
	}
	for _, tool := range []string{"unshare", "ip", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			skipf(t, "the end-to-end test needs %s: %v", tool, err)
		}
	}
	if out, err := exec.Command("unshare", "-n", "true").CombinedOutput(); err != nil {
		skipf(t, "cannot create a network namespace here (unshare -n): %v: %s", err, out)
	}
	bin := h.install(t)
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "hookctl-e2e-bin")
		if err != nil {
			buildOnce.err = err
			return
		}
		buildOnce.dir = dir
		cmd := exec.Command("go", "build", "-o", dir+"/", "github.com/hookctl/hookctl/cmd/hookctl", "github.com/hookctl/hookctl/cmd/hookctl-client")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildOnce.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildOnce.err != nil {
		t.Fatal(buildOnce.err)
	}
	return hostKit{host: h, bin: bin, dir: buildOnce.dir}
}

// hookMode is how the host runs hookctl.
type hookMode struct {
	name string
	// command is the hook command for a configuration (empty: installed).
	command func(k hostKit, config string) string
}

var hookModes = []hookMode{
	{"hook --host", func(k hostKit, config string) string {
		return fmt.Sprintf("%s/hookctl hook --host %s --config %s", k.dir, k.host.name, config)
	}},
	{"auto-detected", func(k hostKit, config string) string {
		return fmt.Sprintf("%s/hookctl hook --config %s", k.dir, config)
	}},
	{"hookctl-client", func(k hostKit, config string) string {
		return fmt.Sprintf("%s/hookctl-client hook --host %s --config %s", k.dir, k.host.name, config)
	}},
	{"installed", nil},
}

// sessionOpts is one session's set-up.
type sessionOpts struct {
	mode   hookMode
	prompt string
	// hcl is the configuration, written to project/hooks.hcl; broken
	// replaces it, after install, with a configuration that does not
	// load.
	hcl     string
	broken  bool
	noTrust bool
	// hostTimeout is the host's timeout for the hook (0: its default);
	// hookArgs are added to the hook command.
	hostTimeout time.Duration
	hookArgs    string
	// installArgs replace install's arguments (default: --host H --config
	// CONFIG); subdir is where, under the project, the host starts.
	installArgs []string
	subdir      string
	// git makes the project a git repository.
	git bool
}

// hostSession is what one session produced.
type hostSession struct {
	project  string
	requests []string // the model API's request bodies, in order
	output   string   // the host's stdout and stderr
	rc       string
}

// results is every tool result the model was sent, one a line.
func (s hostSession) results(h agentHost) string {
	seen := map[string]bool{}
	var b strings.Builder
	for _, r := range s.requests {
		for _, res := range h.toolResults([]byte(r)) {
			if !seen[res] {
				seen[res] = true
				b.WriteString(res)
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// geminiResults reads the functionResponse parts of a Gemini API request.
func geminiResults(body []byte) []string {
	var req struct {
		Contents []struct {
			Parts []struct {
				FunctionResponse *struct {
					Response json.RawMessage `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	_ = json.Unmarshal(body, &req)
	var out []string
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			if p.FunctionResponse != nil {
				out = append(out, string(p.FunctionResponse.Response))
			}
		}
	}
	return out
}

// responsesResults reads the tool call outputs of a Responses API request.
func responsesResults(body []byte) []string {
	var req struct {
		Input []struct {
			Type   string          `json:"type"`
			Output json.RawMessage `json:"output"`
		} `json:"input"`
	}
	_ = json.Unmarshal(body, &req)
	var out []string
	for _, in := range req.Input {
		if strings.HasSuffix(in.Type, "_call_output") {
			var text string
			if json.Unmarshal(in.Output, &text) != nil {
				text = string(in.Output)
			}
			out = append(out, text)
		}
	}
	return out
}

func (s hostSession) String() string {
	return fmt.Sprintf("exit %s; %d model requests; output:\n%s", s.rc, len(s.requests), lastLines(s.output, 40))
}

func runHost(t *testing.T, k hostKit, o sessionOpts) hostSession {
	t.Helper()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	project := filepath.Join(dir, "project")
	for _, d := range []string{home, project, filepath.Join(project, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The runtime directory (the client's socket) is kept short.
	rt, err := os.MkdirTemp("", "e2ert")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	if err := os.Chmod(rt, 0o700); err != nil {
		t.Fatal(err)
	}
	if o.git {
		if out, err := exec.Command("git", "init", "-q", project).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v: %s", err, out)
		}
	}
	config := filepath.Join(project, "hooks.hcl")
	writeFile(t, config, o.hcl)
	env := []string{"HOME=" + home, "PATH=" + k.dir + ":" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + rt,
		"HOOKCTL_DAEMON_IDLE=3s", "TMPDIR=" + os.TempDir(), "LANG=C.UTF-8", "TERM=dumb"}
	env = append(env, k.host.env(home)...)
	hookctl := func(args ...string) {
		t.Helper()
		cmd := exec.Command(filepath.Join(k.dir, "hookctl"), args...)
		cmd.Dir, cmd.Env = project, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("hookctl %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	hookCommand := ""
	if o.mode.command != nil {
		hookCommand = o.mode.command(k, config) + o.hookArgs
	}
	k.host.configure(t, home, project, hookCommand, o.hostTimeout)
	if o.mode.command == nil {
		args := o.installArgs
		if args == nil {
			args = []string{"--host", k.host.name, "--config", config}
		}
		hookctl(append([]string{"install"}, args...)...)
	}
	if o.broken {
		writeFile(t, config, brokenHCL)
	}
	if !o.noTrust {
		hookctl("trust", "--config", config)
	}
	spec := hostRun{API: k.host.api, APILog: filepath.Join(dir, "api.jsonl"), Argv: k.host.argv(k.bin, o.prompt),
		Dir: filepath.Join(project, o.subdir), Env: env, Output: filepath.Join(dir, "output.txt"), Timeout: 3 * time.Minute}
	specPath := filepath.Join(dir, "spec.json")
	writeJSON(t, specPath, spec)
	cmd := exec.Command("unshare", "-n", os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), hostRunnerEnv+"="+specPath)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s session failed: %v\n%s", k.host.name, err, out)
	}
	if strings.Contains(hookCommand, "hookctl-client ") {
		// The calls went to a daemon (not to hookctl run in its stead):
		// the daemon's lock is in the runtime directory.
		if locks, _ := filepath.Glob(filepath.Join(rt, "hookctl", "*.lock")); len(locks) == 0 {
			t.Errorf("hookctl-client started no daemon in %s", rt)
		}
	}
	s := hostSession{project: project}
	b, _ := os.ReadFile(spec.Output)
	s.output = string(b) + string(out)
	rc, _ := os.ReadFile(spec.Output + ".rc")
	s.rc = string(rc)
	f, err := os.Open(spec.APILog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var rec struct {
			Body json.RawMessage `json:"body"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) == nil {
			s.requests = append(s.requests, string(rec.Body))
		}
	}
	if os.Getenv("HOOKCTL_E2E_DEBUG") != "" {
		t.Logf("session in %s: %s", dir, s)
		t.Cleanup(func() {
			os.CopyFS(filepath.Join(os.TempDir(), "e2e-debug-"+strings.ReplaceAll(t.Name(), "/", "_")), os.DirFS(dir))
		})
	}
	return s
}

// hostHCL denies rm -rf; the reason must reach the model.
const hostHCL = `hook "no-rm-rf" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command contains 'rm -rf'"
  decision = "deny"
  reason   = "E2E-DENY: rm -rf is not allowed by hookctl"
}
`

// brokenHCL is a configuration that can be trusted (it parses) but not
// loaded (its condition does not compile).
const brokenHCL = `hook "broken" {
  event    = "PreToolUse"
  when     = "tool_input.command contains"
  decision = "deny"
  reason   = "never"
}
`

// echoCommand prints E2E-ECHO-RAN only when a shell runs it: the request
// that asked for it does not hold that text. (Gemini CLI refuses $(...)
// and $((...)) in a command.)
const echoCommand = "printf 'E2E-%s-RAN' ECHO"

// testHostCore runs the scenarios that hold today on a host, in every
// hook mode.
func testHostCore(t *testing.T, h agentHost) {
	k := prepareHost(t, h)
	for _, mode := range hookModes {
		t.Run(mode.name, func(t *testing.T) {
			t.Run("rm -rf denied", func(t *testing.T) {
				victim := filepath.Join(t.TempDir(), "victim")
				if err := os.MkdirAll(filepath.Join(victim, "keep"), 0o755); err != nil {
					t.Fatal(err)
				}
				s := runHost(t, k, sessionOpts{mode: mode, hcl: hostHCL, prompt: "E2E-RUN: " + h.rm + victim})
				if _, err := os.Stat(filepath.Join(victim, "keep")); err != nil {
					t.Fatalf("the target of rm -rf is gone: %v\n%s", err, s)
				}
				if !strings.Contains(s.results(h), "E2E-DENY: rm -rf is not allowed by hookctl") {
					t.Fatalf("the model was not told hookctl's reason:\n%s\n%s", s.results(h), s)
				}
			})
			t.Run("echo runs", func(t *testing.T) {
				s := runHost(t, k, sessionOpts{mode: mode, hcl: hostHCL, prompt: "E2E-RUN: " + echoCommand})
				if !strings.Contains(s.results(h), "E2E-ECHO-RAN") {
					t.Fatalf("the allowed command did not run:\n%s", s)
				}
			})
			for _, c := range []struct {
				name, reason string
				o            sessionOpts
			}{
				{"broken configuration blocks", "the hook configuration could not be loaded", sessionOpts{broken: true}},
				{"untrusted configuration blocks", "is not trusted (review it, then run `hookctl trust --config", sessionOpts{noTrust: true}},
			} {
				t.Run(c.name, func(t *testing.T) {
					o := c.o
					o.mode, o.hcl, o.prompt = mode, hostHCL, "E2E-RUN: "+echoCommand
					s := runHost(t, k, o)
					if strings.Contains(s.results(h), "E2E-ECHO-RAN") {
						t.Fatalf("the command ran:\n%s", s)
					}
					if !strings.Contains(s.results(h), c.reason) {
						t.Fatalf("the model was not told %q:\n%s\n%s", c.reason, s.results(h), s)
					}
				})
			}
		})
	}
}

// TestGeminiCLIWithHookctl runs the real Gemini CLI, headless against a
// fake Gemini API, with hookctl as its BeforeTool hook.
func TestGeminiCLIWithHookctl(t *testing.T) {
	t.Parallel()
	testHostCore(t, gemini)
}

// TestCopilotCLIWithHookctl runs the real GitHub Copilot CLI, offline
// against a fake OpenAI API, with hookctl as its preToolUse hook.
func TestCopilotCLIWithHookctl(t *testing.T) {
	t.Parallel()
	testHostCore(t, copilot)
}

// TestCodexWithHookctl runs the real Codex CLI, headless against a fake
// Responses API, with hookctl as its PreToolUse hook.
func TestCodexWithHookctl(t *testing.T) {
	t.Parallel()
	testHostCore(t, codex)
}

// secretsHCL denies writes of secret files with the built-in.
const secretsHCL = `builtin "secret-files" {
  mode = "deny"
}
`

// TestCodexApplyPatch: Codex's apply_patch names its files only in the
// patch text; a patch adding .env is denied by the secret-files built-in,
// one adding an ordinary file is applied.
func TestCodexApplyPatch(t *testing.T) {
	t.Parallel()
	k := prepareHost(t, codex)
	for _, mode := range hookModes {
		t.Run(mode.name, func(t *testing.T) {
			t.Run(".env denied", func(t *testing.T) {
				s := runHost(t, k, sessionOpts{mode: mode, hcl: secretsHCL, prompt: "E2E-PATCH-ADD: .env"})
				if _, err := os.Stat(filepath.Join(s.project, ".env")); err == nil {
					t.Fatalf("apply_patch wrote .env:\n%s\n%s", s.results(codex), s)
				}
				if !strings.Contains(s.results(codex), "secret") {
					t.Fatalf("the model was not told why:\n%s\n%s", s.results(codex), s)
				}
			})
			t.Run("ordinary file written", func(t *testing.T) {
				s := runHost(t, k, sessionOpts{mode: mode, hcl: secretsHCL, prompt: "E2E-PATCH-ADD: notes.txt"})
				b, err := os.ReadFile(filepath.Join(s.project, "notes.txt"))
				if err != nil || !strings.Contains(string(b), "E2E_PATCHED=1") {
					t.Fatalf("apply_patch did not write notes.txt (%v):\n%s\n%s", err, s.results(codex), s)
				}
			})
		})
	}
}

// slowHCL's guard takes longer than the host waits for it; a guard that
// cannot answer must block.
const slowHCL = `hook "slow-guard" {
  event    = "PreToolUse"
  matcher  = "Bash"
  command  = "sleep 30"
  timeout  = "60s"
  on_error = "block"
}
`

// TestSlowGuard: a guard slower than the host's hook timeout (set low in
// the host's configuration, and given to hookctl as --host-timeout) is
// answered as a block before the host gives up on hookctl and runs the
// tool.
func TestSlowGuard(t *testing.T) {
	t.Parallel()
	for _, h := range []agentHost{gemini, codex, copilot} {
		t.Run(h.name, func(t *testing.T) {
			k := prepareHost(t, h)
			for _, mode := range hookModes[:3] {
				t.Run(mode.name, func(t *testing.T) {
					marker := filepath.Join(t.TempDir(), "ran")
					s := runHost(t, k, sessionOpts{mode: mode, hcl: slowHCL, prompt: "E2E-RUN: touch " + marker,
						hostTimeout: 10 * time.Second, hookArgs: " --host-timeout 10s"})
					if _, err := os.Stat(marker); err == nil {
						t.Fatalf("the tool ran although the guard never answered:\n%s\n%s", s.results(h), s)
					}
					if !strings.Contains(s.results(h), "hookctl") {
						t.Fatalf("the model was not told hookctl blocked:\n%s\n%s", s.results(h), s)
					}
				})
			}
		})
	}
}

// TestInstalledFromSubdirectory: what `hookctl install --host X` writes
// (run in the project root, the configuration found there) guards a
// session started in the project root and one started in a
// subdirectory.
func TestInstalledFromSubdirectory(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		skipf(t, "the project is a git repository: %v", err)
	}
	for _, h := range []agentHost{gemini, codex, copilot} {
		t.Run(h.name, func(t *testing.T) {
			k := prepareHost(t, h)
			for _, subdir := range []string{"", "sub"} {
				name := "project root"
				if subdir != "" {
					name = "subdirectory"
				}
				t.Run(name, func(t *testing.T) {
					switch {
					case subdir != "" && h.name == "copilot":
						// Copilot started in a subdirectory of the
						// repository loads no .github/hooks: rm -rf runs.
						skip(t, "Copilot CLI 1.0.102 started in a subdirectory loads no .github/hooks of the repository root: no project hook can run there (a host limit, docs/hosts.md)")
					case subdir != "" && h.name == "gemini":
						// Gemini reads project settings from its working
						// directory only (loadSettings(process.cwd())): a
						// session started in a subdirectory runs no
						// project hook at all.
						skip(t, "Gemini CLI 0.61.0 reads project settings from its working directory only: a session started in a subdirectory runs no project hook (a host limit, docs/hosts.md)")
					}
					victim := filepath.Join(t.TempDir(), "victim")
					if err := os.MkdirAll(filepath.Join(victim, "keep"), 0o755); err != nil {
						t.Fatal(err)
					}
					o := sessionOpts{mode: hookModes[3], hcl: hostHCL, installArgs: []string{"--host", h.name}, subdir: subdir, git: true}
					o.prompt = "E2E-RUN: " + h.rm + victim
					s := runHost(t, k, o)
					if _, err := os.Stat(filepath.Join(victim, "keep")); err != nil {
						t.Fatalf("the target of rm -rf is gone: %v\n%s", err, s)
					}
					if !strings.Contains(s.results(h), "E2E-DENY: rm -rf is not allowed by hookctl") {
						t.Fatalf("the model was not told hookctl's reason:\n%s\n%s", s.results(h), s)
					}
					o.prompt = "E2E-RUN: " + echoCommand
					s = runHost(t, k, o)
					if !strings.Contains(s.results(h), "E2E-ECHO-RAN") {
						t.Fatalf("the allowed command did not run:\n%s\n%s", s.results(h), s)
					}
				})
			}
		})
	}
}
