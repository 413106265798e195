package assemble

import "testing"

// TestNamesDirWindows: on Windows a program written with a backslash
// (scripts\lint.ps1) is a path under the configuration, as the trust
// check (hcl.CommandFiles) reads it, not a name run from the working
// directory; elsewhere a backslash is part of a name.
func TestNamesDirWindows(t *testing.T) {
	for _, tc := range []struct {
		prog string
		win  bool
		want bool
	}{
		{`scripts\lint.ps1`, true, true},
		{`scripts\lint.ps1`, false, false},
		{"scripts/lint.sh", false, true},
		{"scripts/lint.sh", true, true},
		{"node", true, false},
	} {
		if got := namesDir(tc.prog, tc.win); got != tc.want {
			t.Errorf("namesDir(%q, win=%v) = %v, want %v", tc.prog, tc.win, got, tc.want)
		}
	}
}
