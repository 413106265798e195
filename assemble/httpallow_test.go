package assemble_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/assemble"
)

// TestHTTPAllowEntriesAreParsed: an http_allow entry that is not a URL
// (such as a bare host:port, which a string-prefix match would have taken)
// or that carries user info fails the load instead of allowing more than
// it says; valid entries load.
func TestHTTPAllowEntriesAreParsed(t *testing.T) {
	dir := t.TempDir()
	write := func(entries string) string {
		p := filepath.Join(dir, "hooks.hcl")
		src := "settings {\n  http_allow = [" + entries + "]\n}\nhook \"h\" {\n  event = \"PreToolUse\"\n  js = \"return null\"\n}\n"
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, bad := range []string{`"127.0.0.1:1899"`, `"http://u:p@127.0.0.1:1899/"`, `"ftp://x/"`, `"http://x/a/../b"`} {
		if _, err := assemble.Load(write(bad)); err == nil || !strings.Contains(err.Error(), "http_allow entry") {
			t.Errorf("http_allow = [%s]: %v", bad, err)
		}
	}
	cfg := load(t, write(`"http://127.0.0.1:1899", "https://api.example.com/v1"`))
	if got := strings.Join(cfg.Settings.HTTPAllow, " "); got != "http://127.0.0.1:1899 https://api.example.com/v1" {
		t.Fatalf("HTTPAllow %q", got)
	}
}
