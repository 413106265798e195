package main

import (
	"context"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/daemon"
)

// TestDaemonPanicIsTheHostsBlock: a call that panics in the daemon is
// answered with its host's block: exit 2 with the reason on stderr, or
// for Copilot CLI, where no exit status blocks, a deny reply.
func TestDaemonPanicIsTheHostsBlock(t *testing.T) {
	for _, c := range []struct {
		hook      daemon.Hook
		code      int
		stdoutHas string
	}{
		{daemon.Hook{Command: "hook", Host: "copilot"}, 0, `"permissionDecision":"deny"`},
		{daemon.Hook{Command: "claude"}, 2, ""},
		{daemon.Hook{Command: "hook", Host: "crush"}, 2, ""},
	} {
		// No runtime: the call panics.
		resp := runCall(context.Background(), &daemon.Request{Hook: c.hook}, nil)
		if resp.Code != c.code || !strings.Contains(string(resp.Stdout), c.stdoutHas) || !strings.Contains(string(resp.Stderr), "the call failed") {
			t.Errorf("%+v: exit %d stdout %q stderr %q", c.hook, resp.Code, resp.Stdout, resp.Stderr)
		}
		if c.stdoutHas == "" && len(resp.Stdout) != 0 {
			t.Errorf("%+v: stdout %q", c.hook, resp.Stdout)
		}
	}
}
