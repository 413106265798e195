package builtin_test

import (
	"testing"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/lib/paths"
)

// TestSecretFilesUnicodeCaseWindows: under Windows' rules names compare
// with Unicode simple case folding joined with upper-casing, not
// strings.ToLower, so the long s ſ (upper case S), the dotless ı (upper
// case I) and the Kelvin sign (lower case k) name the protected files
// their ASCII letters do. With ToLower they kept their own letter and
// secret-files gave no opinion.
func TestSecretFilesUnicodeCaseWindows(t *testing.T) {
	h := newHook(t, "secret-files", builtin.WithSystem(builtin.Config{Home: `C:\Users\me`}, paths.Windows))
	for _, tc := range []struct {
		payload map[string]any
		deny    bool
	}{
		{bash(`cat ~/.ſſh/config`), true},
		{bash(`cat ſecrets.json`), true},
		{bash(`cat .gıt-credentials`), true},
		{bash(`cat 'C:\Users\me\.ſsh\config'`), true},
		{tool("Read", map[string]any{"file_path": `C:\Users\me\.ſsh\config`}), true},
		{tool("Read", map[string]any{"file_path": `C:\proj\.ENV`}), true},
		{bash("cat ~/.\u212aube/config"), true}, // the Kelvin sign: .kube
		{bash(`cat readme.md`), false},
	} {
		tc.payload["cwd"] = `C:\proj`
		d, reason := decisionOf(call(t, h, "PreToolUse", tc.payload))
		if got := d == "deny"; got != tc.deny {
			t.Errorf("%v: %q %q, want deny %v", tc.payload["tool_input"], d, reason, tc.deny)
		}
	}
}

// TestSecretFilesDarwinCase: a Mac's default volume (APFS, HFS+) ignores
// case and Unicode normalisation, so .ENV opens .env there. With macOS's
// rules (paths.Darwin, the host's on darwin) secret-files protects every
// spelling; it compared byte for byte, as on Linux, and gave these no
// opinion.
func TestSecretFilesDarwinCase(t *testing.T) {
	h := newHook(t, "secret-files", builtin.WithSystem(builtin.Config{
		Home:    "/Users/me",
		Options: map[string]any{"patterns": []string{"/Users/me/vault/**", "/Users/me/café/**"}},
	}, paths.Darwin))
	for _, tc := range []struct {
		payload map[string]any
		deny    bool
	}{
		{bash(`cat .ENV`), true},
		{bash(`cat .Env.local`), true},
		{bash(`cat ~/.AWS/credentials`), true},
		{bash(`cat ~/.aws/Credentials`), true},
		{bash(`cat SERVER.PEM`), true},
		{bash(`cat ~/.NPMRC`), true},
		{bash(`cat ~/Vault/key`), true},
		{bash(`cat /users/ME/VAULT/key`), true},
		{bash("cat ~/cafe\u0301/key"), true}, // NFD of café
		{tool("Read", map[string]any{"file_path": "/Users/me/.SSH/config"}), true},
		{tool("Read", map[string]any{"file_path": "/Users/me/proj/.ENV"}), true},
		{bash(`Cat ~/.aws/credentials`), true}, // APFS finds cat for Cat
		{bash(`HEAD -n1 .env`), true},
		{bash(`cat README.md`), false},
		{bash(`cat ~/vaults/key`), false},
	} {
		tc.payload["cwd"] = "/Users/me/proj"
		d, reason := decisionOf(call(t, h, "PreToolUse", tc.payload))
		if got := d == "deny"; got != tc.deny {
			t.Errorf("%v: %q %q, want deny %v", tc.payload["tool_input"], d, reason, tc.deny)
		}
	}
}

// TestDangerousDarwinCase: under macOS's rules /users/me is the home
// directory /Users/me and /applications is /Applications, whatever the
// case; they were no kind at all (only outside_project caught them).
func TestDangerousDarwinCase(t *testing.T) {
	env := map[string]string{"CLAUDE_PROJECT_DIR": "/Users/me/proj"}
	cfg := builtin.WithSystem(builtin.Config{
		Home:    "/Users/me",
		Getenv:  func(k string) string { return env[k] },
		Options: map[string]any{"outside_project": false},
	}, paths.Darwin)
	h := newHook(t, "dangerous-commands", cfg)
	for _, tc := range []struct {
		cmd  string
		deny bool
	}{
		{`rm -rf /users/me`, true},
		{`rm -rf /USERS/ME/`, true},
		{`rm -rf /users`, true},
		{`rm -rf /users/bob`, true},
		{`rm -rf /applications`, true},
		{`rm -rf /system/library`, true},
		{`rm -rf /LIBRARY`, true},
		{`chown -R me /usr/LOCAL`, false}, // chown -R guards the root and top-level directories only
		{`chown -R me /SYSTEM`, true},
		{`rm -rf /users/me/proj/build`, false},
		{`rm -rf /tmp/x`, false},
		// APFS finds rm for Rm: a command's name is folded too.
		{`Rm -rf ~`, true},
		{`RM -RF /Users/me`, true}, // -R is recursive
		{`/BIN/RM -r ~`, true},
		{`Find ~ -Delete`, false}, // find's -Delete is no -delete
		{`BASH -c 'rm -rf ~'`, true},
		{`Sudo rm -rf /`, true},
		{`Env X=1 rm -rf ~`, true},
		{`BASH -c 'ls'`, false},
	} {
		p := bash(tc.cmd)
		p["cwd"] = "/Users/me/proj"
		d, reason := decisionOf(call(t, h, "PreToolUse", p))
		if got := d == "deny"; got != tc.deny {
			t.Errorf("%q: %q %q, want deny %v", tc.cmd, d, reason, tc.deny)
		}
	}
}
