package lint

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
)

// TestFailOpenWarns: a hook that can block a gating event and whose
// failure is ignored (on_error unset or retry on an event that fails open)
// is warned about, with how to fail closed; hooks that fail closed, say
// they fail open, cannot block, cannot fail or are not on the chain are
// not.
func TestFailOpenWarns(t *testing.T) {
	src := `
settings { required = ["req"] }

hook "js-deny" {
  event = "PreToolUse"
  js    = "if (event.tool_input.command.includes('rm')) return { decision: 'deny' };"
}
hook "script" {
  event  = "Stop"
  script = "guard.js"
}
hook "command" {
  event   = "UserPromptSubmit"
  command = ["./check.sh"]
}
hook "static-when" {
  event    = "PreToolUse"
  when     = "tool_input.command startsWith 'rm '"
  decision = "deny"
}
hook "retry" {
  event    = "PermissionRequest"
  on_error = "retry"
  retry { attempts = 2 }
  js       = "return require('./policy.js')(event);"
}
hook "throws" {
  event   = "PreToolUse"
  matcher = "Bash"
  when    = "tool_input.command contains 'rm'"
  js      = "throw new Error(\"rm is not allowed\")"
}
hook "throws-if" {
  event   = "PreToolUse"
  matcher = "Bash"
  js      = <<-JS
    if (!event.tool_input.command.includes("rm")) return;
    throw new Error("no");
  JS
}
hook "rejects" {
  event = "PreToolUse"
  ts    = "return Promise.reject(new Error('no'));"
}
hook "continue-false" {
  event  = "PostToolUse"
  when   = "tool_name == 'Bash'"
  result = { continue = false }
}

hook "blocks-closed" {
  event    = "PreToolUse"
  on_error = "block"
  js       = "return { decision: 'deny' };"
}
hook "ignores" {
  event    = "PreToolUse"
  on_error = "ignore"
  js       = "return { decision: 'deny' };"
}
hook "req" {
  event = "PreToolUse"
  js    = "return { decision: 'deny' };"
}
hook "allow-only" {
  event = "PreToolUse"
  js    = "const { allow } = require('hookctl/decision'); return allow('fine');"
}
hook "context-only" {
  event = "PostToolUse"
  ts    = "return { additional_context: 'x' };"
}
hook "static-no-when" {
  event    = "PreToolUse"
  decision = "deny"
}
hook "static-ask" {
  event    = "PreToolUse"
  when     = "tool_name == 'Bash'"
  decision = "ask"
}
hook "observer" {
  event   = "PreToolUse"
  observe = true
  js      = "return { decision: 'deny' };"
}
hook "background" {
  event      = "PostToolUse"
  background = true
  js         = "return { decision: 'block' };"
}
hook "disabled" {
  event   = "PreToolUse"
  enabled = false
  js      = "return { decision: 'deny' };"
}
hook "void-event" {
  event = "Notification"
  js    = "return { decision: 'block' };"
}
hook "closed-event" {
  event = "PreModelSwitch"
  js    = "return { decision: 'deny' };"
}
`
	dir := t.TempDir()
	for name, body := range map[string]string{"hooks.hcl": src, "guard.js": "module.exports = () => ({ decision: 'block' });", "check.sh": "exit 0"} {
		if err := os.WriteFile(dir+"/"+name, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	eng, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	cfg, err := hcl.Parse(dir+"/hooks.hcl", hcl.WithCatalog(eng))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Diagnostics().HasErrors() {
		t.Fatal(cfg.Diagnostics())
	}
	var warned []string
	for _, d := range Check(cfg, eng) {
		if d.Summary != "Guard fails open" {
			continue
		}
		if d.Code != "HK1619" || d.Severity != hcl.SeverityWarning || d.Suggestion != `on_error = "block"` {
			t.Errorf("diagnostic %+v", d)
		}
		id := strings.SplitN(d.Detail, `"`, 3)[1]
		warned = append(warned, id)
		for _, want := range []string{`set on_error = "block"`, `settings { required = ["` + id + `"] }`, `on_error = "ignore"`} {
			if !strings.Contains(d.Detail, want) {
				t.Errorf("%s: detail lacks %q: %s", id, want, d.Detail)
			}
		}
	}
	want := []string{"js-deny", "script", "command", "static-when", "retry", "throws", "throws-if", "rejects", "continue-false"}
	if !slices.Equal(warned, want) {
		t.Fatalf("warned about %v, want %v", warned, want)
	}
}
