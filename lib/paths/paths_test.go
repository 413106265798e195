package paths_test

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lib/paths"
)

func TestExpandResolveInside(t *testing.T) {
	const home = "/home/u"
	for _, tc := range []struct{ in, cwd, want string }{
		{"~", "/x", "/home/u"},
		{"~/.ssh/id_rsa", "/x", "/home/u/.ssh/id_rsa"},
		{"$HOME/.aws/credentials", "/x", "/home/u/.aws/credentials"},
		{"${HOME}/a", "/x", "/home/u/a"},
		{"src/../.env", "/home/u/p", "/home/u/p/.env"},
		{"/etc/passwd", "/home/u/p", "/etc/passwd"},
		{"./a//b/", "/p", "/p/a/b"},
	} {
		if got := paths.Resolve(tc.in, tc.cwd, home); got != tc.want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", tc.in, tc.cwd, got, tc.want)
		}
	}
	for _, tc := range []struct {
		p, root string
		want    bool
	}{
		{"/home/u/p/a.go", "/home/u/p", true},
		{"/home/u/p", "/home/u/p", true},
		{"/home/u/project2/a", "/home/u/p", false},
		{"/home/u/p/../q", "/home/u/p", false},
		{"/anything", "/", true},
		{"relative", "/", false},
		{"", "/x", false},
	} {
		if got := paths.Inside(tc.p, tc.root); got != tc.want {
			t.Errorf("Inside(%q, %q) = %v", tc.p, tc.root, got)
		}
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, p string
		want       bool
	}{
		{"*.pem", "/home/u/keys/server.pem", true},
		{".env", "/repo/.env", true},
		{".env.*", "/repo/.env.local", true},
		{".env", "/repo/.env.example", false},
		{"**/.ssh/**", "/home/u/.ssh/id_rsa", true},
		{".ssh/*", "/home/u/.ssh/id_rsa", true},
		{"src/**/*.go", "/repo/src/a/b/c.go", true},
		{"src/**/*.go", "src/main.go", true},
		{"/etc/**", "/etc/ssh/sshd_config", true},
		{"/etc/**", "/home/etc/x", false},
		{"*.{key,pem}", "a.key", true},
		{"[", "x", false},
		// Windows-form paths match the patterns their slash form does.
		{"**/.env", `C:\repo\.env`, true},
		{"**/.env", `C:\repo\src\.env`, true},
		{".env", `C:\repo\.env`, true},
		{"src/**/*.go", `src\app\main.go`, true},
		{"*.pem", `C:\k\a.pem`, true},
		{"**/.ssh/**", `C:\Users\u\.ssh\id_rsa`, true},
		{".ssh/*", `C:\Users\u\.ssh\id_rsa`, true},
		// On Unix a backslash is also a name character: the raw form
		// (one file named .env.local\x) matches too, so a guard is not
		// narrowed by reading it as a separator.
		{".env.*", `/x/.env.local\foo`, true},
		{"foo", `/x/.env.local\foo`, true},
	} {
		if got := paths.Match(tc.pattern, tc.p); got != tc.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.pattern, tc.p, got, tc.want)
		}
	}
}

// TestMatchEveryForm: an allow list exempts a path only when it covers
// every reading of it, so a backslash path cannot be allowed in one form
// and denied in the other.
func TestMatchEveryForm(t *testing.T) {
	for _, tc := range []struct {
		allow []string
		p     string
		want  bool
	}{
		{[]string{"*.example"}, "/repo/.env.example", true},
		{[]string{"*.example"}, `C:\repo\.env.example`, true},
		// raw base "a.example\.env", slash base ".env": only the raw
		// form is allowed.
		{[]string{"*.example*"}, `/repo/a.example\.env`, false},
		{[]string{"*.example*", ".env"}, `/repo/a.example\.env`, true},
		{[]string{"*.pem"}, "/repo/x.key", false},
	} {
		if got := paths.MatchEvery(tc.allow, tc.p); got != tc.want {
			t.Errorf("MatchEvery(%q, %q) = %v, want %v", tc.allow, tc.p, got, tc.want)
		}
	}
}

func TestRealSeesThroughSymlinks(t *testing.T) {
	dir := t.TempDir()
	inside := filepath.Join(dir, "root")
	outside := filepath.Join(dir, "outside")
	if err := os.MkdirAll(inside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(inside, "link")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(link, "new-file")
	if !paths.Inside(p, inside) {
		t.Fatal("lexically inside")
	}
	realRoot := paths.Real(inside)
	if paths.Inside(paths.Real(p), realRoot) {
		t.Fatal("a symlink out of the root was not seen through")
	}
}

// TestGivenEnvironment: with an environment given, Home, Expand and
// Resolve read its HOME and working directory, not the process's.
func TestGivenEnvironment(t *testing.T) {
	t.Setenv("HOME", "/process/home")
	env := map[string]string{"HOME": "/request/home"}
	getenv := paths.WithGetenv(func(k string) string { return env[k] })
	getwd := paths.WithGetwd(func() (string, error) { return "/request/cwd", nil })
	if got := paths.Home(getenv); got != "/request/home" {
		t.Errorf("Home = %q", got)
	}
	if got := paths.Home(); got != "/process/home" {
		t.Errorf("Home without an environment = %q", got)
	}
	if got := paths.Expand("~/.ssh", "", getenv); got != "/request/home/.ssh" {
		t.Errorf("Expand = %q", got)
	}
	if got := paths.Resolve("a/../b", "", "", getenv, getwd); got != "/request/cwd/b" {
		t.Errorf("Resolve = %q", got)
	}
	if got := paths.Resolve("$HOME/x", "/c", "", getenv); got != "/request/home/x" {
		t.Errorf("Resolve = %q", got)
	}
	delete(env, "HOME")
	if got := paths.Home(getenv); got != "" {
		t.Errorf("Home of an environment without HOME = %q, not the process's", got)
	}
}

// TestQuoteMeta: a quoted name matches itself and nothing else, as a
// Match pattern and as a path.Match one.
func TestQuoteMeta(t *testing.T) {
	for _, c := range []struct{ name, other string }{
		{"/srv/p[1]", "/srv/p1"},
		{"/srv/p*", "/srv/pq"},
		{"/srv/p?x", "/srv/pax"},
		{"/srv/{a,b}", "/srv/a"},
		{`/srv/p\q`, "/srv/pq"},
		{"/srv/plain", "/srv/plain2"},
	} {
		q := paths.QuoteMeta(c.name)
		if ok, err := path.Match(q, c.name); !ok || err != nil {
			t.Errorf("path.Match(%q, %q) = %v, %v", q, c.name, ok, err)
		}
		if ok, _ := path.Match(q, c.other); ok {
			t.Errorf("path.Match(%q, %q) = true", q, c.other)
		}
		if strings.Contains(c.name, `\`) {
			continue // Match reads it as a slash
		}
		if !paths.Match(q, c.name) {
			t.Errorf("Match(%q, %q) = false", q, c.name)
		}
		if paths.Match(q, c.other) {
			t.Errorf("Match(%q, %q) = true", q, c.other)
		}
	}
	if got := paths.ExpandPattern("~/.ssh/**", "/home/[me]"); got != `/home/\[me\]/.ssh/**` {
		t.Errorf("ExpandPattern: %s", got)
	}
	if got := paths.ExpandPattern("~/.ssh/**", `C:\Users\[me]`); got != `C:/Users/\[me\]/.ssh/**` || !paths.Match(got, `C:\Users\[me]\.ssh\id_rsa`) {
		t.Errorf("ExpandPattern, a Windows home: %s", got)
	}
}

// TestPatternError: a pattern written with Windows separators is refused
// with the / form to write instead; escapes of glob characters are not.
func TestPatternError(t *testing.T) {
	for _, p := range []string{`C:\Users\*\.ssh\**`, `secrets\prod.env`, `a\1`, `[`} {
		if paths.PatternError(p) == nil || paths.ValidPattern(p) {
			t.Errorf("%q accepted", p)
		}
	}
	if err := paths.PatternError(`C:\Users\*`); err == nil || !strings.Contains(err.Error(), `C:/Users/*`) {
		t.Errorf("no / form in %v", err)
	}
	for _, p := range []string{`**/.env`, `file\*.txt`, `a\[b\]`, `x\\y`, `C:/Users/*/.ssh/**`, `*.pem`} {
		if err := paths.PatternError(p); err != nil {
			t.Errorf("%q refused: %v", p, err)
		}
	}
}
