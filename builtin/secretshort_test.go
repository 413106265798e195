package builtin_test

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/lib/paths"
)

// TestSecretFilesShortNames: under Windows' rules a path component that
// looks like an 8.3 short name (ENV~1, SSH~1, AWS~1\CREDEN~1) may be a
// protected file's and gets the mode's answer; one that cannot stand for a
// protected name (PROGRA~1, RUNNER~1 in a temporary directory) does not.
// Each denied line was allowed while .env by its long name was denied.
func TestSecretFilesShortNames(t *testing.T) {
	cfg := builtin.WithSystem(builtin.Config{Home: `C:\Users\me`}, paths.Windows)
	runCdCases(t, cfg, `C:\proj`, []cdCase{
		{`cat ENV~1`, true, "8.3 short name"},
		{`cat env~2`, true, "8.3 short name"},
		{`cat 'C:\Users\me\SSH~1\config'`, true, ".ssh/**"},
		{`cat 'C:\Users\me\AWS~1\CREDEN~1'`, true, ".aws/credentials"},
		{`cat ~/AWS~1/credentials`, true, ".aws/credentials"},
		{`cat config/SECRET~1.JSO`, true, "secrets.json"},
		{`cat certs/MYKEY~1.PEM`, true, "*.pem"},
		{`cat ENV~1.LOC`, true, ".env"},
		{`cp GIT-CR~1 /tmp/x`, true, ".git-credentials"},
		{`cat 'C:\PROGRA~1\Tool\readme.txt'`, false, ""},
		{`cat 'C:\Users\RUNNER~1\AppData\Local\Temp\out.txt'`, false, ""},
		{`cat docs/README~1.TXT`, false, ""},
		{`cat ~/notes.txt`, false, ""},
	})
	h := newHook(t, "secret-files", cfg)
	for _, p := range []string{`C:\proj\ENV~1`, `C:\Users\me\SSH~1\config`, `C:\Users\me\AWS~1\CREDEN~1`} {
		in := tool("Read", map[string]any{"file_path": p})
		in["cwd"] = `C:\proj`
		if d, reason := decisionOf(call(t, h, "PreToolUse", in)); d != "deny" || !strings.Contains(reason, "8.3 short name") {
			t.Errorf("Read %s: got %q %q, want deny (a short name)", p, d, reason)
		}
	}
	ask := newHook(t, "secret-files", builtin.WithSystem(builtin.Config{Home: `C:\Users\me`, Options: map[string]any{"mode": "ask"}}, paths.Windows))
	if d, _ := decisionOf(call(t, ask, "PreToolUse", bash(`cat ENV~1`))); d != "ask" {
		t.Errorf("cat ENV~1 in ask mode: got %q, want ask", d)
	}
	// On Unix ~1 is a name like any other.
	runCdCases(t, builtin.WithSystem(builtin.Config{Home: "/home/me"}, paths.Unix), "/proj", []cdCase{
		{`cat ENV~1`, false, ""},
	})
	ro := newHook(t, "read-only-approver", builtin.WithSystem(builtin.Config{Home: `C:\Users\me`}, paths.Windows))
	if d, _ := decisionOf(call(t, ro, "PermissionRequest", bash(`cat ENV~1`))); d == "allow" {
		t.Errorf("read-only-approver approved cat ENV~1 under Windows' rules")
	}
}
