package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// crushEnv names a crush binary (charmbracelet/crush v0.90.0, built from
// its public source) for TestCrushGuards; without it the test is skipped.
const crushEnv = "HOOKCTL_E2E_CRUSH"

// openAIFake is an OpenAI-compatible chat completions API that asks for
// one bash tool call and records the tool result the agent sends back.
type openAIFake struct {
	command string
	mu      sync.Mutex
	results []string
}

func (f *openAIFake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
		Tools []any `json:"tools"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any) {
		b, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "e2e-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	last := req.Messages[len(req.Messages)-1]
	switch {
	case last.Role == "tool":
		text, _ := last.Content.(string)
		if parts, ok := last.Content.([]any); ok {
			for _, p := range parts {
				if m, ok := p.(map[string]any); ok {
					s, _ := m["text"].(string)
					text += s
				}
			}
		}
		f.mu.Lock()
		f.results = append(f.results, text)
		f.mu.Unlock()
		chunk(map[string]any{"role": "assistant", "content": "E2E-FINAL"}, nil)
		chunk(map[string]any{}, "stop")
	case len(req.Tools) > 0:
		args, _ := json.Marshal(map[string]any{"command": f.command, "description": "e2e"})
		chunk(map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"index": 0, "id": "call_e2e_1", "type": "function",
			"function": map[string]any{"name": "bash", "arguments": string(args)}}}}, nil)
		chunk(map[string]any{}, "tool_calls")
	default:
		// Titles and summaries.
		chunk(map[string]any{"role": "assistant", "content": "e2e"}, nil)
		chunk(map[string]any{}, "stop")
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// TestCrushGuards runs the real crush agent with hookctl hook --host crush
// as its PreToolUse hook: the model asks for rm -rf, the hook denies it,
// the directory survives and the model is told hookctl's reason; echo
// runs.
func TestCrushGuards(t *testing.T) {
	crush := os.Getenv(crushEnv)
	if crush == "" {
		skip(t, "set %s to a crush v0.90.0 binary to run the crush end-to-end test", crushEnv)
	}
	hookctl := buildHookctl(t)
	for _, tc := range []struct {
		name, command string
		blocked       bool
	}{
		{"rm -rf is denied", "rm -rf VICTIM", true},
		{"echo runs", "echo E2E-ECHO-RAN", false},
		{"pip install is rewritten", "pip install requests", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			project := filepath.Join(dir, "project")
			victim := filepath.Join(project, "build-cache")
			if err := os.MkdirAll(victim, 0o755); err != nil {
				t.Fatal(err)
			}
			cfg := filepath.Join(project, "hooks.hcl")
			writeFile(t, cfg, `hook "no-rm-rf" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command contains \"rm -rf\""
  decision = "deny"
  reason   = "E2E-HOOKCTL-DENY: rm -rf is not allowed by policy"
}

hook "pip-rewrite" {
  event   = "PreToolUse"
  matcher = "Bash"
  when    = "tool_input.command startsWith \"pip install\""
  js      = <<-JS
    return { decision: "allow", updated_input: { ...event.tool_input, command: "echo E2E-REWRITTEN " + event.tool_input.command } };
  JS
}
`)
			fake := &openAIFake{command: strings.ReplaceAll(tc.command, "VICTIM", victim)}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			srv := &http.Server{Handler: fake}
			go srv.Serve(ln)
			t.Cleanup(func() { srv.Close() })

			hookCmd := fmt.Sprintf("%s hook --host crush --config %s", hookctl, cfg)
			crushCfg := map[string]any{
				"providers": map[string]any{"e2e": map[string]any{
					"type": "openai-compat", "base_url": "http://" + ln.Addr().String() + "/v1", "api_key": "e2e",
					"models": []any{map[string]any{"id": "e2e-model", "name": "e2e", "context_window": 100000, "default_max_tokens": 1000}},
				}},
				"models": map[string]any{
					"large": map[string]any{"provider": "e2e", "model": "e2e-model"},
					"small": map[string]any{"provider": "e2e", "model": "e2e-model"},
				},
				"hooks":   map[string]any{"PreToolUse": []any{map[string]any{"matcher": "bash", "command": hookCmd, "timeout": 30}}},
				"options": map[string]any{"disable_provider_auto_update": true, "disable_metrics": true},
			}
			b, _ := json.Marshal(crushCfg)
			writeFile(t, filepath.Join(project, "crush.json"), string(b))
			home := filepath.Join(dir, "home")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, crush, "run", "--quiet", "clean up")
			cmd.Dir = project
			cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home+"/.config", "XDG_DATA_HOME="+home+"/.local/share",
				"CRUSH_GLOBAL_CONFIG="+home+"/.config/crush", "CRUSH_GLOBAL_DATA="+home+"/.local/share/crush",
				"CRUSH_DISABLE_PROVIDER_AUTO_UPDATE=1", "CRUSH_DISABLE_METRICS=1",
				"HOOKCTL_ALLOW_UNTRUSTED=1", "HOOKCTL_STATE_DIR="+dir+"/state")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("crush: %v\n%s", err, out)
			}
			fake.mu.Lock()
			results := fake.results
			fake.mu.Unlock()
			if len(results) != 1 {
				t.Fatalf("tool results the model saw: %q\ncrush: %s", results, out)
			}
			_, statErr := os.Stat(victim)
			t.Logf("the model saw: %q", results[0])
			if tc.blocked {
				if statErr != nil {
					t.Fatalf("rm -rf ran: %v", statErr)
				}
				if !strings.Contains(results[0], "E2E-HOOKCTL-DENY") {
					t.Fatalf("the model did not see hookctl's reason: %q", results[0])
				}
				return
			}
			want := "E2E-ECHO-RAN"
			if strings.HasPrefix(tc.command, "pip") {
				want = "E2E-REWRITTEN pip install requests"
			}
			if !strings.Contains(results[0], want) {
				t.Fatalf("the command did not run as %q: %q", want, results[0])
			}
		})
	}
}

// buildHookctl builds the hookctl binary for the test.
func buildHookctl(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "hookctl")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/hookctl/hookctl/cmd/hookctl")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
