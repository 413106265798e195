package builtin_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/builtin"
)

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		options map[string]any
		option  string // the option the error must name; "" for an unknown builtin
		msg     string
	}{
		{"no-such-builtin", nil, "", "unknown builtin"},
		{"dangerous-commands", map[string]any{"mod": "ask"}, "mod", "unknown option"},
		{"dangerous-commands", map[string]any{"mode": "block"}, "mode", `"deny" or "ask"`},
		{"dangerous-commands", map[string]any{"mode": true}, "mode", "must be a string"},
		{"dangerous-commands", map[string]any{"allow": "rm -rf /tmp"}, "allow", "list of strings"},
		{"dangerous-commands", map[string]any{"allow": []any{"ok", 3}}, "allow", "element 1"},
		{"dangerous-commands", map[string]any{"allow": []any{"(unclosed"}}, "allow", "regular expression"},
		{"dangerous-commands", map[string]any{"git_destructive": "yes"}, "git_destructive", "must be a bool"},
		{"secret-files", map[string]any{"patterns": []any{"[bad"}}, "patterns", "not a valid glob"},
		{"secret-files", map[string]any{"allow": []string{""}}, "allow", "not a valid glob"},
		{"secret-files", map[string]any{"patterns": []any{`C:\Users\*\.ssh\**`}}, "patterns", "write the path with /"},
		{"secret-files", map[string]any{"mode": "allow"}, "mode", `"deny" or "ask"`},
		{"read-only-approver", map[string]any{"events": []any{"PostToolUse"}}, "events", "not supported"},
		{"read-only-approver", map[string]any{"events": []any{}}, "events", "at least one"},
		{"read-only-approver", map[string]any{"tools": "Read"}, "tools", "list of strings"},
		{"prompt-length", map[string]any{"max_chars": "100"}, "max_chars", "must be a number"},
		{"prompt-length", map[string]any{"max_chars": 0}, "max_chars", "at least 1"},
		{"prompt-length", map[string]any{"max_chars": 10.5}, "max_chars", "whole number"},
		{"compaction-guard", map[string]any{"min_interval": "soon"}, "min_interval", "duration"},
		{"compaction-guard", map[string]any{"min_interval": 300}, "min_interval", "duration string"},
		{"compaction-guard", map[string]any{"min_interval": "-5m"}, "min_interval", "negative"},
		{"compaction-guard", map[string]any{"min_interval": "0s"}, "min_interval", "positive"},
		{"compaction-guard", map[string]any{"triggers": []any{true}}, "triggers", "element 0"},
		{"session-log", map[string]any{"path": ""}, "path", "empty"},
		{"session-log", map[string]any{"redact": "no"}, "redact", "bool"},
		{"tool-log", map[string]any{"max_field": -1}, "max_field", "at least 1"},
		{"tool-log", map[string]any{"include_output": 1}, "include_output", "bool"},
		{"notification-router", map[string]any{"command": []any{}}, "command", "non-empty"},
		{"notification-router", map[string]any{"command": "notify-send hi"}, "command", "list of strings"},
		{"notification-router", map[string]any{"types": []any{"idle prompt!"}}, "types", "notification type"},
		{"notification-router", map[string]any{"log": nil}, "log", "got null"},
	} {
		_, err := builtin.New(tc.name, builtin.Config{Options: tc.options, Dir: t.TempDir()})
		if err == nil {
			t.Errorf("%s %v: no error", tc.name, tc.options)
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s %v: error %q lacks %q", tc.name, tc.options, err, tc.msg)
		}
		if tc.option == "" {
			if !errors.Is(err, builtin.ErrUnknownBuiltin) {
				t.Errorf("%s: error %v is not ErrUnknownBuiltin", tc.name, err)
			}
			continue
		}
		var oe *builtin.OptionError
		if !errors.As(err, &oe) || oe.Option != tc.option || oe.Builtin != tc.name {
			t.Errorf("%s %v: error %#v does not name option %q", tc.name, tc.options, err, tc.option)
		}
		if !strings.Contains(err.Error(), `"`+tc.option+`"`) {
			t.Errorf("%s: message %q does not quote the option", tc.name, err)
		}
	}
}

func TestNewAcceptsHCLValueShapes(t *testing.T) {
	for name, opts := range map[string]map[string]any{
		"prompt-length":       {"max_chars": float64(5000)},
		"tool-log":            {"max_field": int64(100), "include_output": true, "redact": false, "path": "logs/t.jsonl"},
		"compaction-guard":    {"min_interval": "90s", "triggers": []any{"auto", "manual"}},
		"read-only-approver":  {"tools": []string{"LS"}, "commands": []any{"make"}, "events": []any{"PreToolUse"}},
		"notification-router": {"types": []any{"permission_prompt", "idle_prompt"}, "command": []any{"true"}, "log": false, "path": "n.jsonl"},
		"dangerous-commands":  {"mode": "ask", "allow": []any{}, "git_destructive": false},
		"secret-files":        {"mode": "deny", "patterns": []any{"*.tfvars"}, "allow": []any{"*.example"}},
		"session-log":         {"path": "/tmp/abs.jsonl", "redact": true},
	} {
		prio := 7
		hooks, err := builtin.New(name, builtin.Config{Options: opts, ID: "mine", Priority: &prio, Dir: t.TempDir(), Now: time.Now})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, h := range hooks {
			if h.ID != "mine" || h.Priority != 7 {
				t.Errorf("%s: id %q priority %d, want mine/7", name, h.ID, h.Priority)
			}
		}
	}
}

func TestSpecs(t *testing.T) {
	want := []string{
		"compaction-guard", "dangerous-commands", "notification-router", "prompt-length",
		"read-only-approver", "secret-files", "session-log", "task-log", "tool-log",
	}
	specs := builtin.Specs()
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
		if s.Description == "" || len(s.Events) == 0 {
			t.Errorf("%s: incomplete spec %+v", s.Name, s)
		}
		if !slices.IsSortedFunc(s.Options, func(a, b builtin.OptionSpec) int { return strings.Compare(a.Name, b.Name) }) {
			t.Errorf("%s: options not sorted", s.Name)
		}
		for _, o := range s.Options {
			switch o.Type {
			case builtin.TypeString, builtin.TypeBool, builtin.TypeNumber, builtin.TypeDuration, builtin.TypeList:
			default:
				t.Errorf("%s.%s: bad type %q", s.Name, o.Name, o.Type)
			}
			if o.Doc == "" {
				t.Errorf("%s.%s: no doc", s.Name, o.Name)
			}
		}
		got, ok := builtin.Lookup(s.Name)
		if !ok || got.Name != s.Name || got.Priority != s.Priority {
			t.Errorf("Lookup(%q) = %+v, %v", s.Name, got, ok)
		}
		// Every builtin builds with its defaults, with the default id and
		// priority.
		hooks, err := builtin.New(s.Name, builtin.Config{Dir: t.TempDir()})
		if err != nil {
			t.Errorf("New(%q) with defaults: %v", s.Name, err)
			continue
		}
		for _, h := range hooks {
			if !strings.HasPrefix(h.ID, "builtin:"+s.Name) || h.Priority != s.Priority || h.Handler == nil {
				t.Errorf("%s: hook %q priority %d", s.Name, h.ID, h.Priority)
			}
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("Specs() = %v, want %v", names, want)
	}
	if _, ok := builtin.Lookup("nope"); ok {
		t.Error("Lookup(nope) succeeded")
	}
	// The caller owns what it gets.
	specs[0].Events[0] = "changed"
	if again := builtin.Specs(); again[0].Events[0] == "changed" {
		t.Error("Specs shares its slices")
	}
	prios := map[string]int{}
	for _, s := range specs {
		prios[s.Name] = s.Priority
	}
	for name, p := range map[string]int{
		"dangerous-commands": 1000, "secret-files": 900, "read-only-approver": -50, "prompt-length": 500,
		"compaction-guard": 500, "session-log": -100, "tool-log": -100, "notification-router": -100,
	} {
		if prios[name] != p {
			t.Errorf("%s: priority %d, want %d", name, prios[name], p)
		}
	}
}
