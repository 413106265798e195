package paths

import (
	"slices"
	"testing"
)

// TestArgForms: on Windows a command-line argument /c/Users/me (Git
// Bash's form, and /cygdrive/c/...) is C:/Users/me and, read by
// PowerShell or cmd, C:/c/Users/me on the working directory's drive;
// both are resolved. It was only the second, so a guard judging
// C:/Users/me never saw rm -rf /c/Users/me. Other rooted paths, and
// every argument on Unix, have their one form.
func TestArgForms(t *testing.T) {
	const cwd = `C:\proj`
	for _, tc := range []struct {
		arg  string
		sys  System
		want []string
	}{
		{"/c/Users/me", Windows, []string{"C:/Users/me", "C:/c/Users/me"}},
		{"/c/", Windows, []string{"C:/", "C:/c"}},
		{"/c", Windows, []string{"C:/", "C:/c"}},
		{"/C/Windows", Windows, []string{"C:/Windows", "C:/C/Windows"}},
		{"/d/data/x", Windows, []string{"D:/data/x", "C:/d/data/x"}},
		{"/cygdrive/c/Windows/System32", Windows, []string{"C:/Windows/System32", "C:/cygdrive/c/Windows/System32"}},
		{"/c//Users", Windows, []string{"C:/Users", "C:/c/Users"}},
		{"/tmp/x", Windows, []string{"C:/tmp/x"}},
		{"/usr/bin", Windows, []string{"C:/usr/bin"}},
		{"/cd/x", Windows, []string{"C:/cd/x"}},
		{"/1/x", Windows, []string{"C:/1/x"}},
		{`C:\Users\me`, Windows, []string{"C:/Users/me"}},
		{"c/Users", Windows, []string{"C:/proj/c/Users"}},
		{"/c/Users/me", Unix, []string{"/c/Users/me"}},
		{"/cygdrive/c", Unix, []string{"/cygdrive/c"}},
	} {
		var got []string
		c := cwd
		if !tc.sys.IsWindows() {
			c = "/proj"
		}
		for _, f := range tc.sys.ArgForms(tc.arg) {
			got = append(got, tc.sys.Resolve(f, c, "/nohome"))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v %q: %q, want %q", tc.sys, tc.arg, got, tc.want)
		}
	}
}
