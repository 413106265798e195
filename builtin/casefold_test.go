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
