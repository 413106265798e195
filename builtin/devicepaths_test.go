package builtin_test

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/lib/paths"
)

// TestWindowsDevicePathsToADrive: \\?\GLOBALROOT\GLOBAL??\C:\x and
// \\.\GLOBALROOT\??\C:\x open C:\x (GLOBAL??\C: is the drive's link in
// the object manager), and a volume's own device path
// (\\?\Volume{GUID}\x, \\.\HarddiskVolume3\x) may be any drive's. They
// were read as volumes of their own, so secret-files' absolute pattern
// C:/vault/** gave them no opinion; dangerous-commands did not see
// C:\Windows. Now the first are drive C:, and an absolute pattern matches
// the others as if they were on its drive.
func TestWindowsDevicePathsToADrive(t *testing.T) {
	s := newHook(t, "secret-files", builtin.WithSystem(builtin.Config{
		Home:    `C:\Users\me`,
		Options: map[string]any{"patterns": []string{"C:/vault/**"}},
	}, paths.Windows))
	read := func(p string) map[string]any { return tool("Read", map[string]any{"file_path": p}) }
	for _, tc := range []struct {
		payload map[string]any
		deny    bool
	}{
		{read(`\\?\GLOBALROOT\GLOBAL??\C:\vault\key`), true},
		{read(`\\.\GLOBALROOT\??\C:\vault\key`), true},
		{read(`\\?\GLOBALROOT\DosDevices\c:\Vault\key`), true},
		{read(`\\?\GLOBAL\C:\vault\key`), true},
		{read(`\\?\Volume{1234}\vault\key`), true},
		{read(`\\?\GLOBALROOT\Device\HarddiskVolume3\vault\key`), true},
		{bash(`cat '\\?\GLOBALROOT\GLOBAL??\C:\vault\key'`), true},
		{bash(`cat '\\?\Volume{1234}\vault\key'`), true},
		{bash(`cat '\\.\HarddiskVolume3\vault\key'`), true},
		{read(`\\?\GLOBALROOT\GLOBAL??\D:\vault\key`), false},
		{read(`\\?\Volume{1234}\proj\readme.md`), false},
	} {
		tc.payload["cwd"] = `C:\proj`
		d, reason := decisionOf(call(t, s, "PreToolUse", tc.payload))
		if got := d == "deny"; got != tc.deny {
			t.Errorf("%v: %q %q, want deny %v", tc.payload["tool_input"], d, reason, tc.deny)
		}
	}
	env := map[string]string{"CLAUDE_PROJECT_DIR": `C:\proj`}
	h := newHook(t, "dangerous-commands", builtin.WithSystem(builtin.Config{
		Home:    `C:\Users\me`,
		Getenv:  func(k string) string { return env[k] },
		Options: map[string]any{"outside_project": false},
	}, paths.Windows))
	for _, cmd := range []string{
		`rm -rf '\\?\GLOBALROOT\GLOBAL??\C:\Windows'`,
		`rm -rf '\\.\GLOBALROOT\??\C:\Users\me'`,
		`rm -rf '\\?\GLOBALROOT\Device\Mup\server\share'`,
	} {
		p := bash(cmd)
		p["cwd"] = `C:\proj`
		if d, reason := decisionOf(call(t, h, "PreToolUse", p)); d != "deny" || !strings.Contains(reason, "rm-recursive") {
			t.Errorf("%q: %q %q, want a deny by rm-recursive", cmd, d, reason)
		}
	}
}
