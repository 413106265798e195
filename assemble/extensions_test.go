package assemble_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
)

// writeConfig writes hooks.hcl (and any other files) to a new directory
// and returns the path of hooks.hcl.
func writeConfig(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "hooks.hcl")
}

// loadInto assembles path for eng and loads it.
func loadInto(t *testing.T, eng *engine.Engine, path string, opts ...assemble.Option) {
	t.Helper()
	cfg, err := assemble.Load(path, append([]assemble.Option{assemble.WithEngine(eng)}, opts...)...)
	if err != nil {
		t.Fatalf("load:\n%v", err)
	}
	t.Cleanup(cfg.Close)
	if err := eng.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
}

// A condition function registered once, on the engine, works in the
// `when` of an HCL hook.
func TestEngineConditionFunctionsReachHCLHooks(t *testing.T) {
	isRelease := conditions.Function{Name: "isRelease", Fn: func(p ...any) (any, error) {
		s, _ := p[0].(string)
		return strings.HasPrefix(s, "release/"), nil
	}, Types: []any{new(func(string) bool)}}
	eng, err := assemble.NewEngine(engine.WithConditionOptions(conditions.WithFunctions(isRelease)))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	path := writeConfig(t, map[string]string{"hooks.hcl": `
hook "no-release-push" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "isRelease(tool_input.branch) and hasCommand(tool_input.command, 'git')"
  decision = "deny"
  reason   = "release branches are frozen"
}
`})
	loadInto(t, eng, path)
	out := fire(t, eng, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "git push", "branch": "release/1.2"}})
	if out.Decision != "deny" {
		t.Fatalf("the engine's function did not decide: %+v", out)
	}
	out = fire(t, eng, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "git push", "branch": "main"}})
	if out.Decision != "" {
		t.Fatalf("%+v", out)
	}
}

// A JavaScript module given once to the assembly is require-able from
// every script of the configuration, inline and file.
func TestModulesGivenOnceReachHCLScripts(t *testing.T) {
	eng, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	teams := script.WithModule("acme/teams", func(vm *script.VM, module *goja.Object) {
		exports := module.Get("exports").(*goja.Object)
		_ = exports.Set("owner", func(path string) string {
			if strings.HasPrefix(path, "billing/") {
				return "payments"
			}
			return "platform"
		})
	})
	path := writeConfig(t, map[string]string{
		"hooks.hcl": `
hook "inline" {
  event = "PreToolUse"
  js    = "return { additional_context: 'owner ' + require('acme/teams').owner(event.tool_input.file_path) }"
}
hook "file" {
  event  = "PostToolUse"
  script = "owner.js"
}
`,
		"owner.js": `const teams = require("acme/teams");
module.exports = function (event) { return { additional_context: "file owner " + teams.owner(event.tool_input.file_path) }; };
`})
	loadInto(t, eng, path, assemble.WithScriptOptions(teams))
	payload := map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"file_path": "billing/x.go"}}
	if out := fire(t, eng, "PreToolUse", payload); out.AdditionalContext != "owner payments" {
		t.Fatalf("inline: %+v", out)
	}
	if out := fire(t, eng, "PostToolUse", payload); out.AdditionalContext != "file owner payments" {
		t.Fatalf("file: %+v", out)
	}
}

// ctx.log of an HCL script reaches the engine's logger without a second
// logger given to the loader.
func TestCtxLogReachesTheEngineLogger(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	eng, err := assemble.NewEngine(engine.WithLogger(log))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	path := writeConfig(t, map[string]string{"hooks.hcl": `
hook "audit" {
  event = "UserPromptSubmit"
  js    = "ctx.log.info('prompt seen', { chars: event.prompt.length }); return {}"
}
`})
	loadInto(t, eng, path)
	fire(t, eng, "UserPromptSubmit", map[string]any{"prompt": "hello"})
	if !strings.Contains(buf.String(), "prompt seen") || !strings.Contains(buf.String(), "chars=5") {
		t.Fatalf("the engine's logger got %q", buf.String())
	}
}

// TestUnknownFunctionsFailTheLoad: a `when` calling a function the engine
// does not have, or a method of a payload value, fails the load at its
// position instead of failing (open) at every fire.
func TestUnknownFunctionsFailTheLoad(t *testing.T) {
	for src, want := range map[string]string{
		`when = "isRelease(tool_input.branch)"`:          "hooks.hcl:4:11: error[HK1401]: Invalid condition",
		`when = "tool_input.command.includes('rm -rf')"`: "hooks.hcl:4:30: error[HK1401]: Invalid condition",
	} {
		path := writeConfig(t, map[string]string{"hooks.hcl": "hook \"guard\" {\n  event    = \"PreToolUse\"\n  decision = \"deny\"\n  " + src + "\n}\n"})
		eng, err := assemble.NewEngine()
		if err != nil {
			t.Fatal(err)
		}
		_, err = assemble.Load(path, assemble.WithEngine(eng))
		eng.Close(context.Background())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}
