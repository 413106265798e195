package daemon

import (
	"testing"
)

func TestParseArgs(t *testing.T) {
	for _, c := range []struct {
		args []string
		want Hook
		ok   bool
	}{
		{[]string{"claude"}, Hook{Command: "claude"}, true},
		{[]string{"claude", "--config", "h.hcl", "--allow-untrusted"}, Hook{Command: "claude", Config: "h.hcl", AllowUntrusted: true}, true},
		{[]string{"claude", "-c", "a", "-cb"}, Hook{Command: "claude", Config: "b"}, true},
		{[]string{"claude", "-c=a"}, Hook{Command: "claude", Config: "a"}, true},
		{[]string{"claude", "-c="}, Hook{Command: "claude", Config: "="}, true}, // as pflag reads it
		{[]string{"claude", "-ca=b"}, Hook{Command: "claude", Config: "a=b"}, true},
		{[]string{"claude", "--config="}, Hook{Command: "claude"}, true},
		{[]string{"claude", "--allow-untrusted=false", "--on-ask=allow", "--on-untrusted", "warn", "--on-config-error", "warn", "--log-level", "debug"},
			Hook{Command: "claude", OnAsk: "allow", OnUntrusted: "warn", OnConfigError: "warn", LogLevel: "debug"}, true},
		{[]string{"hook", "--host", "crush", "--event=PreToolUse"}, Hook{Command: "hook", Host: "crush", Event: "PreToolUse"}, true},
		{[]string{"hook", "--verbose"}, Hook{Command: "hook", Verbose: true}, true},
		{[]string{"claude", "--verbose=true", "--verbose=false"}, Hook{Command: "claude"}, true},
		{[]string{"claude", "--verbose=loud"}, Hook{}, false},
		{[]string{"hook", "--host", "gemini", "--host-timeout", "60s"}, Hook{Command: "hook", Host: "gemini", HostTimeout: "60s"}, true},
		{[]string{"claude", "--host-timeout=2s"}, Hook{Command: "claude", HostTimeout: "2s"}, true},
		// A value that looks like a flag is the value, as hookctl reads it.
		{[]string{"hook", "--config", "--host"}, Hook{Command: "hook", Config: "--host"}, true},
		// hookctl itself runs the rest.
		{[]string{"claude", "--host", "crush"}, Hook{}, false}, // claude has no --host
		{[]string{"claude", "--help"}, Hook{}, false},
		{[]string{"claude", "-h"}, Hook{}, false},
		{[]string{"claude", "--bogus"}, Hook{}, false},
		{[]string{"claude", "extra"}, Hook{}, false},
		{[]string{"claude", "--"}, Hook{}, false},
		{[]string{"claude", "--config"}, Hook{}, false},
		{[]string{"claude", "--allow-untrusted=maybe"}, Hook{}, false},
		{[]string{"fire", "PreToolUse"}, Hook{}, false},
		{[]string{"--config", "x", "claude"}, Hook{}, false},
		{nil, Hook{}, false},
	} {
		got, ok := ParseArgs(c.args)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("ParseArgs(%q) = %+v, %v; want %+v, %v", c.args, got, ok, c.want, c.ok)
		}
	}
}
