package runtime_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookctl/hookctl/runtime"
)

// A host hook answered by a runtime: the payload as the host sent it, the
// reply in the host's format. The configuration is loaded for the call
// and closed after it (runtime.OneShot, the default Source).
func Example() {
	dir, _ := os.MkdirTemp("", "runtime-example")
	defer os.RemoveAll(dir)
	cfg := filepath.Join(dir, "hooks.hcl")
	_ = os.WriteFile(cfg, []byte(`
hook "no-rm-rf" {
  event    = "PreToolUse"
  when     = "tool_input.command contains 'rm -rf'"
  decision = "deny"
  reason   = "rm -rf is not allowed"
}
`), 0o600)

	rt := runtime.New()
	crush, _ := runtime.Lookup("crush")
	reply := rt.Answer(context.Background(), runtime.Request{
		Protocol: crush,
		Payload:  []byte(`{"event":"PreToolUse","tool_name":"bash","tool_input":{"command":"rm -rf /"}}`),
		Config:   cfg,
		Cwd:      dir,
		Modes:    runtime.Modes{AllowUntrusted: true}, // trusted with hookctl trust otherwise
	})
	fmt.Printf("exit %d: %s", reply.ExitCode, reply.Stdout)
	// Output: exit 0: {"decision":"deny","reason":"rm -rf is not allowed","version":1}
}
