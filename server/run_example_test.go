package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/server"
)

// Serve a configuration as hookctl serve does, fire one event over HTTP,
// and shut down.
func ExampleStart() {
	dir, _ := os.MkdirTemp("", "hookctl-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "hooks.hcl")
	os.WriteFile(path, []byte(`
hook "no-rm" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command contains 'rm'"
  decision = "deny"
  reason   = "no rm"
}
`), 0o644)
	r, err := server.Start(context.Background(), server.Config{
		Path: path, Listen: "127.0.0.1:0", ProjectDir: dir,
		AllowUntrusted: true, // a real server serves only a trusted configuration
	}, server.WithStderr(io.Discard))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Shutdown(context.Background())
	resp, err := http.Post("http://"+r.Addr().String()+"/v1/fire/PreToolUse", "application/json",
		strings.NewReader(`{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var out struct{ Decision, Reason string }
	json.NewDecoder(resp.Body).Decode(&out)
	fmt.Println(out.Decision, out.Reason)
	// Output: deny no rm
}
