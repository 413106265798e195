// Package opencode_test runs the OpenCode plugin (hookctl.js) under Node
// against a real hookctl server.
package opencode_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/server"
)

const hooks = `
hook "no-rm-rf" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command contains \"rm -rf\""
  decision = "deny"
  reason   = "rm -rf is not allowed by policy"
}
hook "pip-to-uv" {
  event   = "PreToolUse"
  matcher = "Bash"
  when    = "tool_input.command startsWith \"pip install\""
  js      = "return { updated_input: { ...event.tool_input, command: 'uv ' + event.tool_input.command } }"
}
hook "ask-push" {
  event    = "PreToolUse"
  when     = "tool == \"Bash\" && tool_input.command contains \"git push\""
  decision = "ask"
  reason   = "pushing needs a human"
}
hook "lint" {
  event              = "PostToolUse"
  matcher            = "Edit"
  additional_context = "run the linter"
}
`

// driver calls the plugin as OpenCode does and prints what happened to
// each call: thrown (blocked, with the message) or the args it would run.
const driver = `
import { Hookctl } from "./hookctl.js";
const plugin = await Hookctl({ directory: "/p" });
const results = [];
for (const [tool, args] of JSON.parse(process.argv[2])) {
  const input = { tool, sessionID: "s1", callID: "c1", args };
  const output = { args: { ...args } };
  try {
    await plugin["tool.execute.before"](input, output);
    const after = { title: "", output: "done", metadata: {} };
    await plugin["tool.execute.after"](input, after);
    results.push({ args: output.args, output: after.output });
  } catch (e) {
    results.push({ error: e.message });
  }
}
console.log(JSON.stringify(results));
`

type result struct {
	Args   map[string]any `json:"args"`
	Output string         `json:"output"`
	Error  string         `json:"error"`
}

func runPlugin(t *testing.T, url string, calls [][]any) []result {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile("hookctl.js")
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"hookctl.js": src, "driver.mjs": []byte(driver)} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	arg, _ := json.Marshal(calls)
	cmd := exec.Command("node", filepath.Join(dir, "driver.mjs"), string(arg))
	cmd.Env = append(os.Environ(), "HOOKCTL_URL="+url, "HOOKCTL_ON_ASK=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var rs []result
	if err := json.Unmarshal(out, &rs); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return rs
}

func TestPlugin(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("the OpenCode plugin test needs node")
	}
	cfg, err := assemble.LoadSource("hooks.hcl", []byte(hooks), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	eng, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	if err := eng.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(server.NewServer(eng, nil))
	defer srv.Close()

	rs := runPlugin(t, srv.URL, [][]any{
		{"bash", map[string]any{"command": "rm -rf /", "description": "d"}},
		{"bash", map[string]any{"command": "pip install requests", "description": "d"}},
		{"bash", map[string]any{"command": "git push"}},
		{"edit", map[string]any{"filePath": "a.go"}},
		{"bash", map[string]any{"command": "ls"}},
	})
	if rs[0].Error != "rm -rf is not allowed by policy" {
		t.Errorf("rm -rf: %+v", rs[0])
	}
	if rs[1].Args["command"] != "uv pip install requests" || rs[1].Args["description"] != "d" {
		t.Errorf("pip: %+v", rs[1])
	}
	if rs[2].Error == "" {
		t.Errorf("an ask ran the tool: %+v", rs[2])
	}
	if rs[3].Output != "done\n\nrun the linter" {
		t.Errorf("edit: %+v", rs[3])
	}
	if rs[4].Error != "" || rs[4].Args["command"] != "ls" || rs[4].Output != "done" {
		t.Errorf("ls: %+v", rs[4])
	}

	// No server: every call is blocked, never allowed.
	srv.Close()
	rs = runPlugin(t, srv.URL, [][]any{{"bash", map[string]any{"command": "ls"}}})
	if rs[0].Error == "" {
		t.Errorf("with hookctl unreachable the tool ran: %+v", rs[0])
	}
}
