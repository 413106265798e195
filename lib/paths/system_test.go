package paths

import (
	"slices"
	"strings"
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
		// MSYS cleans .. on the POSIX path first; /c/.. is its root.
		{"/c/../c/Users/me", Windows, []string{"C:/Users/me", "C:/c/Users/me"}},
		{"/c/../d/", Windows, []string{"D:/", "C:/d"}},
		{"/cygdrive/c/../c/x", Windows, []string{"C:/x", "C:/cygdrive/c/x"}},
		{"/proc/cygdrive/c/x", Windows, []string{"C:/x", "C:/proc/cygdrive/c/x"}},
		{"/c/..", Windows, []string{"C:/"}},
		{"/c/../tmp", Windows, []string{"C:/tmp"}},
		{"//c/x", Windows, []string{"//c/x/"}}, // a share
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

// TestPlainAndTopLevel: on Windows a Win32 device prefix naming a drive
// or a share comes off (its "?" is no glob), and a drive's root, its
// Git Bash forms and a share's root are top-level directories, as "/"
// is; on Unix an argument stays as it is and only "/" is top level.
func TestPlainAndTopLevel(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`\\?\C:\Windows`, "C:/Windows"},
		{`//?/c:/x`, "c:/x"},
		{`\\.\D:\`, "D:/"},
		{`\??\C:\x`, "C:/x"},
		{`\\?\UNC\server\share\x`, "//server/share/x"},
		{`\\?\Volume{1}\x`, "//?/Volume{1}/x"},
		{`C:\Win*`, "C:/Win*"},
		{`/c/x`, "/c/x"},
	} {
		if got := Windows.Plain(tc.in); got != tc.want {
			t.Errorf("Windows.Plain(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := Unix.Plain(tc.in); got != tc.in {
			t.Errorf("Unix.Plain(%q) = %q, want it unchanged", tc.in, got)
		}
	}
	for _, tc := range []struct {
		dir       string
		win, unix bool
	}{
		{"/", true, true},
		{"C:/", true, false},
		{"c:", true, false},
		{"/c/", true, false},
		{"/cygdrive/d/", true, false},
		{"//server/share/", true, false},
		{"//server/", false, false},
		{"/c/Users/", false, false},
		{"C:/Users/", false, false},
		{"/usr/", false, false},
		{"//?/Volume{1}/", false, false},
	} {
		if got := Windows.TopLevel(tc.dir); got != tc.win {
			t.Errorf("Windows.TopLevel(%q) = %v, want %v", tc.dir, got, tc.win)
		}
		if got := Unix.TopLevel(tc.dir); got != tc.unix {
			t.Errorf("Unix.TopLevel(%q) = %v, want %v", tc.dir, got, tc.unix)
		}
	}
}

// TestDarwinRules: macOS's rules are Unix's forms with names compared
// regardless of case and of Unicode normalisation (APFS and HFS+ open
// .ENV as .env, and an NFD name as its NFC form); they were Unix's,
// byte for byte. Unix's rules still compare bytes.
func TestDarwinRules(t *testing.T) {
	const nfd, nfcName = "/Users/me/cafe\u0301", "/Users/me/caf\u00e9"
	for _, tc := range []struct {
		pattern, p string
	}{
		{".env", "/Users/me/p/.ENV"},
		{".env.*", "/Users/me/p/.Env.local"},
		{".aws/credentials", "/Users/me/.AWS/Credentials"},
		{"/Users/me/vault/**", "/users/ME/Vault/key"},
		{"*.pem", "/p/SERVER.PEM"},
		{"/Users/me/café/**", nfd + "/key"},
		{"/Users/me/cafe\u0301/**", nfcName + "/key"},
		{".ssh/**", `/Users/me/.SSH\config`}, // its slash form
		{".env*", `/p/.ENV\x`},               // its raw form
	} {
		if !Darwin.Match(tc.pattern, tc.p) || !strings.Contains(tc.p, `\`) && !Darwin.MatchEvery([]string{tc.pattern}, tc.p) {
			t.Errorf("Darwin: %q does not match %q", tc.pattern, tc.p)
		}
		if Unix.Match(tc.pattern, tc.p) {
			t.Errorf("Unix: %q matches %q", tc.pattern, tc.p)
		}
	}
	if !Darwin.Inside("/USERS/me/Proj/x", "/Users/ME/proj") || !Darwin.Inside(nfd+"/x", nfcName) || Darwin.Inside("/Users/me/proj2", "/Users/me/proj") {
		t.Error("Darwin.Inside")
	}
	if !Darwin.Equal(nfd, strings.ToUpper(nfcName)) || Darwin.IsWindows() || !Darwin.FoldsCase() || Unix.FoldsCase() {
		t.Error("Darwin's rules")
	}
	if got := Darwin.Resolve("x", "/Users/Me", "/Users/Me"); got != "/Users/Me/x" {
		t.Errorf("Darwin.Resolve changed the case: %q", got)
	}
}

// TestGitBashForm: a relative argument has a Git Bash reading on another
// drive when its .. climbs out of the working directory's drive (Git
// Bash cleans it on /c/proj/..., Windows stops at C:/), or when the
// working directory is a drive's root, which may be Git Bash's root /.
// Otherwise, and on Unix, it has none.
func TestGitBashForm(t *testing.T) {
	for _, tc := range []struct{ arg, cwd, want string }{
		{"../../d/x", `C:\proj`, "D:/x"},
		{"../../c/Users/me", `C:\proj`, "C:/Users/me"},
		{`..\..\d\x`, `C:\proj`, "D:/x"},
		{"c/Users/me", `C:\`, "C:/Users/me"},
		{"../d", `C:/`, "D:/"},
		{"/c/../d/x", `C:\proj`, "D:/x"},
		{"../proj/x", `C:\proj`, ""},
		{"x/y", `C:\proj`, ""},
		{"build", `C:\`, ""},
		{"../../d/x", `\\server\share\p`, ""},
		{"../../d/x", "", ""},
		{"C:../x", `C:\proj`, ""},
	} {
		got, ok := Windows.GitBashForm(tc.arg, tc.cwd)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("GitBashForm(%q, %q) = %q, %v, want %q", tc.arg, tc.cwd, got, ok, tc.want)
		}
		want := []string{tc.arg}
		if ok {
			want = []string{got, tc.arg}
		}
		if forms := Windows.ArgFormsIn(tc.arg, tc.cwd); !slices.Equal(forms, want) {
			t.Errorf("ArgFormsIn(%q, %q) = %q, want %q", tc.arg, tc.cwd, forms, want)
		}
	}
	if _, ok := Unix.GitBashForm("../../d/x", "/c/proj"); ok {
		t.Error("Unix has a Git Bash form")
	}
}
