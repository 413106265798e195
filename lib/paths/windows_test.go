package paths

import (
	"strings"
	"testing"
	"unicode"
)

// TestWindowsForms: on Windows, drive-letter, UNC and device paths are
// absolute, a name's case, :stream and trailing dots and spaces do not
// make it another file, and %USERPROFILE% is the home when $HOME is not
// set. Each of these misjudged C:\Users\x\.ssh\id_rsa before (a relative
// path joined to the working directory, or a name that is not the
// protected one), read on any platform with win set.
func TestWindowsForms(t *testing.T) {
	for _, tc := range []struct{ in, cwd, want string }{
		{`C:\Users\x\.ssh\id_rsa`, `D:\proj`, `C:/Users/x/.ssh/id_rsa`},
		{`c:/Users/x/.ssh/id_rsa`, `D:\proj`, `C:/Users/x/.ssh/id_rsa`},
		{`\\server\share\x\..\secrets.env`, `C:\p`, `//server/share/secrets.env`},
		{`\\?\C:\Users\x\.aws\credentials`, `C:\p`, `C:/Users/x/.aws/credentials`},
		{`\\?\UNC\server\share\a`, `C:\p`, `//server/share/a`},
		{`\Windows\System32`, `C:\p`, `C:/Windows/System32`},
		{`src\..\.env`, `C:\Users\x\p`, `C:/Users/x/p/.env`},
		{`C:.env`, `C:\Users\x\p`, `C:/Users/x/p/.env`},
		{`E:.env`, `C:\Users\x\p`, `E:/.env`},
		{`C:\Users\x\.ssh\id_rsa::$DATA`, `C:\p`, `C:/Users/x/.ssh/id_rsa`},
		{`C:\Users\x\.ssh\id_rsa. . `, `C:\p`, `C:/Users/x/.ssh/id_rsa`},
		{`C:\Users\x\.ssh.\id_rsa`, `C:\p`, `C:/Users/x/.ssh/id_rsa`},
		// Device paths that name no drive are absolute, on a volume of
		// their own; \??\ is the NT form of \\?\.
		{`\\?\Volume{0b1c}\Users\x\.ssh\id_rsa`, `C:\p`, `//?/Volume{0b1c}/Users/x/.ssh/id_rsa`},
		{`\\.\HarddiskVolume3\Users\x`, `C:\p`, `//?/HarddiskVolume3/Users/x`},
		{`\\?\GLOBALROOT\Device\HarddiskVolume3\x`, `C:\p`, `//?/GLOBALROOT/Device/HarddiskVolume3/x`},
		{`\??\C:\Users\x\.ssh\id_rsa`, `D:\p`, `C:/Users/x/.ssh/id_rsa`},
	} {
		if got := resolve(tc.in, tc.cwd, true); got != tc.want {
			t.Errorf("resolve(%q, %q) = %q, want %q", tc.in, tc.cwd, got, tc.want)
		}
	}
	for _, tc := range []struct {
		p, root string
		want    bool
	}{
		{`C:\Users\X\.SSH\ID_RSA`, `c:\users\x\.ssh`, true},
		{`C:\Users\x\.ssh.\id_rsa`, `C:\Users\x\.ssh`, true},
		{`C:\Users\x\.ssh\id_rsa`, `C:\`, true},
		{`D:\x`, `C:\`, false},
		{`\\server\share\a`, `\\SERVER\Share`, true},
		{`\\server\share2\a`, `\\server\share`, false},
		{`\\?\Volume{0b1c}\p\a`, `C:\p`, false},
		{`\\.\HarddiskVolume3\p\a`, `C:\p`, false},
		{`\\?\GLOBALROOT\Device\HarddiskVolume3\p`, `C:\p`, false},
		{`\??\C:\p\a`, `C:\p`, true},
		{`C:\Users\x\p2\a`, `C:\Users\x\p`, false},
		{`C:\Users\x\p\..\q`, `C:\Users\x\p`, false},
	} {
		if got := inside(tc.p, tc.root, Windows); got != tc.want {
			t.Errorf("inside(%q, %q) = %v, want %v", tc.p, tc.root, got, tc.want)
		}
	}
	for _, tc := range []struct {
		pattern, p string
		want       bool
	}{
		{"**/.ssh/**", `C:\Users\x\.ssh\id_rsa`, true},
		{"**/.ssh/**", `C:\Users\x\.SSH\ID_RSA`, true},
		{"id_rsa", `C:\Users\x\.ssh\ID_RSA::$DATA`, true},
		{"*.pem", `C:\keys\server.PEM.`, true},
		{".env", `\\server\share\repo\.ENV`, true},
		{".aws/credentials", `C:\Users\x\.aws\credentials`, true},
		{".env", `C:\repo\.env.example`, false},
	} {
		if got := match(tc.pattern, tc.p, Windows); got != tc.want {
			t.Errorf("match(%q, %q) = %v, want %v", tc.pattern, tc.p, got, tc.want)
		}
	}
	for p, want := range map[string]bool{`C:\x`: true, `c:/x`: true, `\\s\sh\x`: true, `\x`: false, `C:x`: false, `x\y`: false, "/x": false} {
		if got := isAbs(p, true); got != want {
			t.Errorf("isAbs(%q) = %v, want %v", p, got, want)
		}
	}
	env := map[string]string{"USERPROFILE": `C:\Users\x`}
	if got := home(func(k string) string { return env[k] }, true); got != `C:\Users\x` {
		t.Errorf("home = %q, want %%USERPROFILE%%", got)
	}
	if got := home(func(k string) string { return env[k] }, false); got != "" {
		t.Errorf("home off Windows = %q, want $HOME alone", got)
	}
	// A shell's $HOME (Git Bash, Cygwin) is not where Windows programs
	// keep ~\.ssh: the profile wins there.
	env["HOME"] = `D:\msys\home\x`
	if got := home(func(k string) string { return env[k] }, true); got != `C:\Users\x` {
		t.Errorf("home with both set = %q, want %%USERPROFILE%%", got)
	}
}

// TestPOSIXFormsUnchanged: off Windows a backslash path is a relative
// name, as before, and case counts.
func TestPOSIXFormsUnchanged(t *testing.T) {
	if got := resolve(`C:\x`, "/p", false); got != "/p/C:/x" {
		t.Errorf("resolve = %q", got)
	}
	if inside("/home/U/.ssh/id_rsa", "/home/u/.ssh", Unix) {
		t.Error("inside ignored case")
	}
	if normalize("/a/id_rsa::$DATA", false) != "/a/id_rsa::$DATA" {
		t.Error("normalize dropped a stream off Windows")
	}
}

// TestFoldCase: names compare by Unicode simple case folding joined with
// upper-casing, a superset of what NTFS and APFS fold: ſ is s, the
// Kelvin sign is k, ı is i. strings.ToLower kept ſ and ı as they are and
// made K a k only one way, so a Windows guard missed .ſsh for .ssh. The
// key is the same along every folding orbit and under upper- and
// lower-casing, and folding it again changes nothing.
func TestFoldCase(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{".ſſh", ".ssh", true},
		{"ſecrets.json", "SECRETS.JSON", true},
		{".gıt-credentials", ".git-credentials", true},
		{".\u212aube", ".kube", true},
		{"straße", "STRAẞE", true},
		{"C:/Users/ME", "c:/users/me", true},
		{".ssh", ".sshx", false},
		{"é", "e", false},
	} {
		if got := Windows.Equal(tc.a, tc.b); got != tc.want {
			t.Errorf("Windows.Equal(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if Unix.Equal(tc.a, tc.b) != (tc.a == tc.b) {
			t.Errorf("Unix.Equal(%q, %q) folded", tc.a, tc.b)
		}
	}
	if !Windows.Match("C:/Users/*/.ssh/**", `C:\USERS\me\.ſſH\config`) || !Windows.Inside(`C:\Users\me\.ſsh\id`, `c:\users\ME\.SSH`) {
		t.Error("Match or Inside missed a folded name")
	}
	if s := "/plain/lower.txt"; Windows.Fold(s) != s {
		t.Error("Fold changed a lower-case ASCII name")
	}
	for r := rune(0); r < 0x20000; r++ {
		k := foldRune(r)
		for _, o := range []rune{unicode.SimpleFold(r), unicode.ToUpper(r), unicode.ToLower(r), k} {
			if foldRune(o) != k {
				t.Fatalf("fold(%U) = %U, fold(%U) = %U", r, k, o, foldRune(o))
			}
		}
	}
}

// TestWindowsDevicePaths: GLOBALROOT\GLOBAL??\, GLOBALROOT\??\,
// GLOBALROOT\DosDevices\ and GLOBAL\ after a device prefix lead back to
// the drives (and GLOBALROOT\Device\Mup\ to the shares); a device path
// that names no drive (a volume's GUID or its device) is unmapped: Match
// reads it on an absolute pattern's drive, MatchEvery does not, and it
// is under no drive's directory.
func TestWindowsDevicePaths(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`\\?\GLOBALROOT\GLOBAL??\C:\vault\key`, "C:/vault/key"},
		{`\\.\GLOBALROOT\??\c:\vault\key`, "C:/vault/key"},
		{`\\?\GLOBALROOT\DosDevices\C:\x`, "C:/x"},
		{`\\?\GLOBAL\C:\x`, "C:/x"},
		{`\??\GLOBALROOT\GLOBAL??\GLOBALROOT\??\D:\x`, "D:/x"},
		{`\\?\GLOBALROOT\GLOBAL??\UNC\server\share\x`, "//server/share/x"},
		{`\\?\GLOBALROOT\Device\Mup\server\share\x`, "//server/share/x"},
		{`\\?\GLOBALROOT\Device\HarddiskVolume3\vault\key`, "//?/GLOBALROOT/Device/HarddiskVolume3/vault/key"},
		{`\\?\Volume{1234}\vault\key`, "//?/Volume{1234}/vault/key"},
	} {
		if got := Windows.Normalize(tc.in); got != tc.want {
			t.Errorf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := Windows.Plain(tc.in); !strings.HasPrefix(tc.want, "//?/") && !strings.EqualFold(got, tc.want) {
			t.Errorf("Plain(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if Windows.UnmappedDevice(tc.in) != strings.HasPrefix(tc.want, "//?/") {
			t.Errorf("UnmappedDevice(%q) = %v", tc.in, !strings.HasPrefix(tc.want, "//?/"))
		}
	}
	for _, p := range []string{`\\?\Volume{1234}\vault\key`, `\\.\HarddiskVolume3\vault\key`, `\\?\GLOBALROOT\Device\HarddiskVolume3\vault\key`} {
		if !Windows.Match("C:/vault/**", p) || !Windows.Match("D:/Vault/key", p) || !Windows.Match("**/vault/key", p) {
			t.Errorf("Match missed %q", p)
		}
		if Windows.Match("C:/other/**", p) || Windows.MatchEvery([]string{"C:/vault/**"}, p) || Windows.Inside(p, `C:\vault`) {
			t.Errorf("%q read as a drive's for an exemption", p)
		}
	}
	if Unix.UnmappedDevice(`\\?\Volume{1234}\x`) || Unix.Match("C:/vault/**", `\\?\Volume{1234}\vault\key`) {
		t.Error("Unix read a device path")
	}
}

// TestFoldPatternRanges: a range in a class stands for the keys of its
// characters. Folding its ends alone made [A-_] the empty [a-_], so a
// deny pattern that matched key on Unix matched nothing under Windows'
// and macOS' rules.
func TestFoldPatternRanges(t *testing.T) {
	for _, tc := range []struct {
		pattern, p string
		want       bool
	}{
		{"/x/[A-_]ey", "/x/key", true},
		{"/x/[A-_]ey", "/x/KEY", true},
		{"/x/[A-_]ey", "/x/_ey", true},
		{"/x/[A-_]ey", "/x/-ey", false},
		{"/x/[Q-T]ey", "/x/\u017fey", true},          // ſ is s
		{"/x/[\u0100-\U0010FFFF]ey", "/x/Key", true}, // the range holds the Kelvin sign
		{"/x/[\u0100-\U0010FFFF]ey", "/x/bey", false},
		{"[A-Z]*.PEM", "/x/Key.pem", true},
		{"/x/[a-c-]ey", "/x/Bey", true},
		{"/x/[0-_]ey", "/x/Key", true}, // the range holds K, not k
		{"/x/[\u0101-\U0010FFFF]ey", "/x/Key", true},
	} {
		for _, s := range []System{Windows, Darwin} {
			if got := s.Match(tc.pattern, tc.p); got != tc.want {
				t.Errorf("%v.Match(%q, %q) = %v, want %v (%q)", s, tc.pattern, tc.p, got, tc.want, s.foldPattern(tc.pattern))
			}
		}
	}
}
