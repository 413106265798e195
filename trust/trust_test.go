package trust

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/dirs"
)

// writeTree writes files (slash paths relative to dir) and returns dir's
// canonical path.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := Canonical(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// pins returns what trusting the configuration at path pins.
func pins(t *testing.T, path string) (*Pins, map[string]string) {
	t.Helper()
	p, err := Collect(path)
	if err != nil {
		t.Fatal(err)
	}
	files, err := HashSet(p.Root, p.Files)
	if err != nil {
		t.Fatal(err)
	}
	return p, files
}

func present(files map[string]string) []string {
	var out []string
	for k, h := range files {
		if h != Absent {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// TestDigestOrderIndependent: the digest of a directory walk does not
// depend on the order files are found in, and it covers nested files.
func TestDigestOrderIndependent(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hooks.hcl": "x", "a.js": "a", "lib/b.js": "b", "lib/deep/c.js": "c", "z/data.json": "{}",
		".git/objects/x": "ignored",
	})
	files, err := walkFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.js", "hooks.hcl", "lib/b.js", "lib/deep/c.js", "z/data.json"}
	set, err := HashSet(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	if got := present(set); !slices.Equal(got, want) {
		t.Fatalf("walk found %v, want %v", got, want)
	}
	d := Digest(set)
	for i := 0; i < 20; i++ {
		shuffled := slices.Clone(files)
		rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		s2, err := HashSet(dir, shuffled)
		if err != nil {
			t.Fatal(err)
		}
		if Digest(s2) != d {
			t.Fatal("the digest depends on the order of the files")
		}
	}
}

// TestDigestDetectsChanges: content, renames, swapped contents, added
// and removed files all change the digest.
func TestDigestDetectsChanges(t *testing.T) {
	base := map[string]string{"hooks.hcl": "h", "lib/a.js": "A", "lib/b.js": "B"}
	d := Digest(base)
	for name, changed := range map[string]map[string]string{
		"content": {"hooks.hcl": "h", "lib/a.js": "A2", "lib/b.js": "B"},
		"rename":  {"hooks.hcl": "h", "lib/c.js": "A", "lib/b.js": "B"},
		"swap":    {"hooks.hcl": "h", "lib/a.js": "B", "lib/b.js": "A"},
		"added":   {"hooks.hcl": "h", "lib/a.js": "A", "lib/b.js": "B", "lib/c.js": "C"},
		"removed": {"hooks.hcl": "h", "lib/a.js": "A"},
		"absent":  {"hooks.hcl": "h", "lib/a.js": "A", "lib/b.js": Absent},
		// A separator inside a path cannot make two sets collide.
		"boundary": {"hooks.hcl": "h", "lib/a.js\x00A\nlib/b.js": "B"},
	} {
		if Digest(changed) == d {
			t.Errorf("%s: same digest", name)
		}
	}
	if Digest(map[string]string{"lib/b.js": "B", "hooks.hcl": "h", "lib/a.js": "A"}) != d {
		t.Error("the digest depends on map order")
	}
}

// TestPinsFollowRequires: scripts, the modules they require (nested, by
// every spelling), the candidates Node's resolution tries first, files
// file() reads and command programs are pinned; unrelated files are not.
func TestPinsFollowRequires(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hooks.hcl": `
locals { motd = file("motd.txt") }
hook "a" {
  event  = "PreToolUse"
  script = "scripts/a.js"
}
hook "inline" {
  event = "PreToolUse"
  js    = "return require(\"./inline/x\").f(event)"
}
hook "heredoc" {
  event = "PreToolUse"
  js    = <<-JS
    const k = require('hookctl/kv');
    return require(` + "`./inline/y.js`" + `)(event);
  JS
}
hook "lint" {
  event   = "PostToolUse"
  command = "bash tools/lint.sh --fix && ./tools/missing.sh"
}
hook "argv" {
  event   = "PostToolUse"
  command = ["/bin/echo", "tools/argv.py", "plain"]
}
`,
		"motd.txt":                   "hello",
		"scripts/a.js":               `const b = require("./lib/b"); const p = require("./pkg"); module.exports = function () {};`,
		"scripts/lib/b.js":           `module.exports = require("../../shared/deep/c.js");`,
		"shared/deep/c.js":           `module.exports = require("./d.json");`,
		"shared/deep/d.json":         `{}`,
		"scripts/pkg/package.json":   `{"main": "main.js"}`,
		"scripts/pkg/main.js":        `module.exports = 1;`,
		"inline/x.js":                `exports.f = function () {};`,
		"inline/y.js":                `module.exports = function () {};`,
		"tools/lint.sh":              "#!/bin/sh\n",
		"tools/argv.py":              "",
		"unrelated.js":               `require(name)`,
		"settings.local.json":        `{}`,
		"node_modules/left/index.js": ``,
	})
	p, files := pins(t, filepath.Join(dir, "hooks.hcl"))
	if p.Walk {
		t.Fatalf("walk: %v", p.Why)
	}
	want := []string{"hooks.hcl", "inline/x.js", "inline/y.js", "motd.txt", "scripts/a.js", "scripts/lib/b.js",
		"scripts/pkg/main.js", "scripts/pkg/package.json", "shared/deep/c.js", "shared/deep/d.json", "tools/argv.py", "tools/lint.sh"}
	if got := present(files); !slices.Equal(got, want) {
		t.Fatalf("pinned\n%v\nwant\n%v", got, want)
	}
	for _, absent := range []string{"scripts/lib/b", "scripts/lib/b.json", "scripts/lib/b/index.js", "scripts/pkg", "inline/x", "tools/missing.sh"} {
		if files[absent] != Absent {
			t.Errorf("%s: %q, want it pinned absent", absent, files[absent])
		}
	}
	if _, ok := files["plain"]; ok {
		t.Error("a command word that names no file was pinned")
	}
}

// TestPinsComputedNamesWalk: a computed require(), a node_modules package
// and file() with a computed name pin every file under the directory.
func TestPinsComputedNamesWalk(t *testing.T) {
	for name, tc := range map[string]struct{ hcl, js, why string }{
		"computed require": {js: `const n = "./x"; module.exports = require(n);`, why: "require() with a computed name in a.js"},
		"aliased require":  {js: `const r = require; module.exports = r("./x");`, why: "require() with a computed name in a.js"},
		"template require": {js: "module.exports = require(`./${'x'}`);", why: "require() with a computed name in a.js"},
		"package":          {js: `module.exports = require("left-pad");`, why: `require("left-pad") loads from node_modules in a.js`},
		"does not decode":  {hcl: `hook "b" {` + "\n" + `event = "NoSuchEvent"` + "\n" + `decision = "deny"` + "\n}", js: `module.exports = function () {};`, why: "hooks.hcl does not decode (Unknown event)"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := writeTree(t, map[string]string{
				"hooks.hcl":  tc.hcl + "\nhook \"a\" {\n  event  = \"PreToolUse\"\n  script = \"a.js\"\n}\n",
				"a.js":       tc.js,
				"x.js":       "module.exports = 1;",
				"x.txt":      "text",
				"sub/any.md": "nested",
			})
			p, files := pins(t, filepath.Join(dir, "hooks.hcl"))
			if !p.Walk || !strings.HasPrefix(strings.Join(p.Why, "; "), tc.why) {
				t.Fatalf("walk %v, why %q, want %q", p.Walk, p.Why, tc.why)
			}
			if files["sub/any.md"] == "" || files["sub/any.md"] == Absent {
				t.Fatalf("a walk did not pin a nested file: %v", present(files))
			}
		})
	}
	// Built-in modules are not files.
	dir := writeTree(t, map[string]string{
		"hooks.hcl": "hook \"a\" {\n  event  = \"PreToolUse\"\n  script = \"a.js\"\n}\n",
		"a.js":      `const kv = require("hookctl/kv"); const c = require('console'); module.exports = function () {};`,
	})
	if p, _ := pins(t, filepath.Join(dir, "hooks.hcl")); p.Walk {
		t.Fatalf("built-in modules made a walk: %v", p.Why)
	}
}

// TestPinsFollowDecodedNames: names the configuration computes (locals,
// env()) are pinned exactly as the decoded configuration resolves them,
// without pinning the whole directory.
func TestPinsFollowDecodedNames(t *testing.T) {
	t.Setenv("HOOKS_TOOL", "tools/check.sh")
	dir := writeTree(t, map[string]string{
		"hooks.hcl": `locals {
  f = "x.txt"
  t = file(local.f)
  s = "a.js"
}
hook "b" {
  event  = "Stop"
  script = local.s
}
hook "c" {
  event   = "PostToolUse"
  command = ["sh", env("HOOKS_TOOL")]
}
`,
		"a.js":           `module.exports = require("./lib");`,
		"lib.js":         `module.exports = function () {};`,
		"x.txt":          "text",
		"tools/check.sh": "#!/bin/sh\n",
		"sub/any.md":     "not named",
	})
	p, files := pins(t, filepath.Join(dir, "hooks.hcl"))
	if p.Walk {
		t.Fatalf("walk: %v", p.Why)
	}
	want := []string{"a.js", "hooks.hcl", "lib.js", "tools/check.sh", "x.txt"}
	if got := present(files); !slices.Equal(got, want) {
		t.Fatalf("pinned %v, want %v", got, want)
	}
}

// TestPinsSyntaxError: a configuration that does not parse is not pinned.
func TestPinsSyntaxError(t *testing.T) {
	dir := writeTree(t, map[string]string{"hooks.hcl": "hook \"a\" {\n"})
	_, err := Collect(filepath.Join(dir, "hooks.hcl"))
	var d *hcl.Diagnostics
	if !errors.As(err, &d) || !d.HasErrors() {
		t.Fatalf("%v", err)
	}
}

// TestCheckTrust: never trusted, trusted, changed (a nested module, an
// added *.hcl of a directory configuration), and the trust file's
// permissions.
func TestCheckTrust(t *testing.T) {
	state := t.TempDir()
	tf := filepath.Join(state, "sub", "trusted.json")
	t.Setenv(FileEnv, tf)
	dir := writeTree(t, map[string]string{
		"cfg/hooks.hcl":     "hook \"a\" {\n  event  = \"PreToolUse\"\n  script = \"a.js\"\n}\n",
		"cfg/a.js":          `module.exports = require("./lib/deep/b.js");`,
		"cfg/lib/deep/b.js": `module.exports = function () {};`,
	})
	cfgDir := filepath.Join(dir, "cfg")
	var ue *UntrustedError
	if err := Check(cfgDir); !errors.As(err, &ue) || ue.Changed != nil || ue.Err != nil {
		t.Fatalf("untrusted: %v", err)
	}
	if _, err := Trust(tf, cfgDir); err != nil {
		t.Fatal(err)
	}
	if err := Check(cfgDir); err != nil {
		t.Fatalf("trusted: %v", err)
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(tf)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Fatalf("trust file mode %o", fi.Mode().Perm())
		}
		if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(tf), ".trusted-*")); len(leftovers) > 0 {
			t.Fatalf("temporary files left: %v", leftovers)
		}
	}

	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(cfgDir, filepath.FromSlash(name)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lib/deep/b.js", `module.exports = function () { return {decision: "allow"}; };`)
	if err := Check(cfgDir); !errors.As(err, &ue) || !slices.Equal(ue.Changed, []string{"lib/deep/b.js modified"}) {
		t.Fatalf("changed module: %v", err)
	}
	write("lib/deep/b.js", `module.exports = function () {};`)
	if err := Check(cfgDir); err != nil {
		t.Fatalf("restored: %v", err)
	}
	write("more.hcl", "hook \"b\" {\n  event = \"Stop\"\n  decision = \"block\"\n}\n")
	if err := Check(cfgDir); !errors.As(err, &ue) || !slices.Equal(ue.Changed, []string{"more.hcl added"}) {
		t.Fatalf("added hcl: %v", err)
	}
	if runtime.GOOS != "windows" {
		if err := os.Chmod(tf, 0o666); err != nil {
			t.Fatal(err)
		}
		if err := Check(cfgDir); !errors.As(err, &ue) || ue.Err == nil || !strings.Contains(err.Error(), "writable by other users") {
			t.Fatalf("world-writable trust file: %v", err)
		}
	}
}

func TestAllowUntrusted(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "1": true, "true": true, "yes": true, "no": false} {
		t.Setenv(AllowUntrustedEnv, v)
		if got := AllowUntrusted(false); got != want {
			t.Errorf("%s=%q: %v", AllowUntrustedEnv, v, got)
		}
	}
	t.Setenv(AllowUntrustedEnv, "")
	if !AllowUntrusted(true) {
		t.Error("the flag does not allow")
	}
}

// BenchmarkCheckTrust is what a trusted configuration adds to every
// hookctl claude: read the trust file, hash the pinned files.
func BenchmarkCheckTrust(b *testing.B) {
	b.Setenv(FileEnv, filepath.Join(b.TempDir(), "trusted.json"))
	dir, err := Canonical(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	files := map[string]string{
		"hooks.hcl":        "hook \"a\" {\n  event  = \"PreToolUse\"\n  script = \"a.js\"\n}\n" + strings.Repeat("# padding\n", 300),
		"a.js":             `module.exports = require("./lib/b");`,
		"lib/b.js":         "module.exports = function () {};\n" + strings.Repeat("// padding\n", 300),
		"unrelated/x.json": "{}",
	}
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	tf, _ := File()
	if _, err := Trust(tf, dir); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := Check(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPinsWithStandardFunctions: a condition using the standard functions
// decodes, so it pins what it names and not the whole directory.
func TestPinsWithStandardFunctions(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hooks.hcl":  "hook \"a\" {\n  event    = \"PreToolUse\"\n  when     = \"hasCommand(tool_input.command, 'rm')\"\n  decision = \"deny\"\n}\n",
		"sub/any.md": "not named",
	})
	p, files := pins(t, filepath.Join(dir, "hooks.hcl"))
	if p.Walk || !slices.Equal(present(files), []string{"hooks.hcl"}) {
		t.Fatalf("walk %v %v, pinned %v", p.Walk, p.Why, present(files))
	}
}

// TestPinsFollowEvasions: require spelled so the literal pattern misses
// it pins the whole directory; a body read with file() has its requires
// resolved from the configuration directory too; a script reached
// through a link has its requires resolved from where it really is.
func TestPinsFollowEvasions(t *testing.T) {
	for name, js := range map[string]string{
		"comment in the call": `module.exports = require/**/("./h");`,
		"unicode escape":      `module.exports = \u0072equire("./h");`,
	} {
		dir := writeTree(t, map[string]string{
			"hooks.hcl": "hook \"a\" {\n  event  = \"PreToolUse\"\n  script = \"a.js\"\n}\n",
			"a.js":      js,
			"h.js":      "module.exports = function () {};",
		})
		if p, files := pins(t, filepath.Join(dir, "hooks.hcl")); !p.Walk || files["h.js"] == "" || files["h.js"] == Absent {
			t.Errorf("%s: walk %v, h.js %q", name, p.Walk, files["h.js"])
		}
	}

	dir := writeTree(t, map[string]string{
		"hooks.hcl":      "hook \"a\" {\n  event = \"PreToolUse\"\n  js    = file(\"bodies/body.js\")\n}\n",
		"bodies/body.js": `return require("./h").check(event);`,
		"h.js":           "exports.check = function () { return {}; };",
	})
	if p, files := pins(t, filepath.Join(dir, "hooks.hcl")); p.Walk || files["h.js"] == "" || files["h.js"] == Absent {
		t.Errorf("file() body: walk %v %v, pinned %v", p.Walk, p.Why, present(files))
	}

	dir = writeTree(t, map[string]string{
		"hooks.hcl":      "hook \"a\" {\n  event  = \"PreToolUse\"\n  script = \"link/a.js\"\n}\n",
		"real/a.js":      `module.exports = require("./helper");`,
		"real/helper.js": "module.exports = function () {};",
		"link/.keep":     "",
	})
	if err := os.Remove(filepath.Join(dir, "link", ".keep")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if _, files := pins(t, filepath.Join(dir, "hooks.hcl")); files["real/helper.js"] == "" || files["real/helper.js"] == Absent {
		t.Errorf("linked script: pinned %v", present(files))
	}
}

// TestVerifierChecksWhatIsLoaded: the verifier accepts a file the record
// pins with the content read, and refuses a changed or unpinned one.
func TestVerifierChecksWhatIsLoaded(t *testing.T) {
	tf := filepath.Join(t.TempDir(), "trusted.json")
	dir := writeTree(t, map[string]string{
		"hooks.hcl": "hook \"a\" {\n  event  = \"PreToolUse\"\n  script = \"a.js\"\n}\n",
		"a.js":      "module.exports = function () {};",
	})
	if _, err := Trust(tf, dir); err != nil {
		t.Fatal(err)
	}
	v, err := NewVerifier(tf, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Check(filepath.Join(dir, "a.js"), []byte("module.exports = function () {};")); err != nil {
		t.Fatalf("pinned file refused: %v", err)
	}
	var fe *UntrustedFileError
	if err := v.Check(filepath.Join(dir, "a.js"), []byte("module.exports = function () { return {decision: 'allow'}; };")); !errors.As(err, &fe) || !fe.Changed {
		t.Fatalf("changed content: %v", err)
	}
	if err := v.Check(filepath.Join(dir, "helper.js"), []byte("x")); !errors.As(err, &fe) || fe.Changed || !strings.Contains(err.Error(), "not pinned") {
		t.Fatalf("unpinned file: %v", err)
	}
	if _, err := NewVerifier(tf, t.TempDir()); err == nil {
		t.Fatal("a verifier of an untrusted configuration")
	}
}

// TestPinsSkipTestFiles: the *_test.hcl files beside a configuration are
// not loaded by it, so trusting it does not pin them, and one that does
// not parse as a configuration is no syntax error of the configuration.
func TestPinsSkipTestFiles(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hooks.hcl":      "hook \"gate\" {\n  event    = \"PreToolUse\"\n  decision = \"deny\"\n}\n",
		"hooks_test.hcl": "test \"gate\" {\n  expect { decision = \"deny\" }\n}\n{{{",
	})
	p, files := pins(t, dir)
	if p.Walk {
		t.Fatalf("pinned whole: %v", p.Why)
	}
	if got := present(files); !slices.Equal(got, []string{"hooks.hcl"}) {
		t.Fatalf("pinned %v", got)
	}
}

// TestErrorCodes: the trust errors carry the stable codes of
// docs/diagnostics.md.
func TestErrorCodes(t *testing.T) {
	for _, tc := range []struct {
		err  interface{ Code() hcl.Code }
		want hcl.Code
	}{
		{&UntrustedError{Path: "/c"}, "HK1901"},
		{&UntrustedError{Path: "/c", Changed: []string{"a.js modified"}}, "HK1902"},
		{&UntrustedError{Path: "/c", Err: errors.New("unreadable")}, "HK1903"},
		{&UntrustedFileError{Config: "/c", File: "/c/a.js"}, "HK1904"},
		{&UntrustedFileError{Config: "/c", File: "/c/a.js", Changed: true}, "HK1904"},
	} {
		if got := tc.err.Code(); got != tc.want {
			t.Errorf("%v: code %s, want %s", tc.err, got, tc.want)
		}
	}
}

// TestGivenEnvironment: with WithGetenv, AllowUntrusted, File, Checker
// and WatchFiles read the given environment, not the process's: the
// trust file a request's environment names is the one consulted.
func TestGivenEnvironment(t *testing.T) {
	t.Setenv(AllowUntrustedEnv, "1")
	t.Setenv(FileEnv, filepath.Join(t.TempDir(), "process.json"))
	reqFile := filepath.Join(t.TempDir(), "request.json")
	env := map[string]string{FileEnv: reqFile}
	opt := WithGetenv(func(k string) string { return env[k] })
	if AllowUntrusted(false, opt) {
		t.Error("the process's HOOKCTL_ALLOW_UNTRUSTED allowed a request without it")
	}
	if !AllowUntrusted(false) {
		t.Error("the process's environment is not the default")
	}
	env[AllowUntrustedEnv] = "yes"
	if !AllowUntrusted(false, opt) {
		t.Error("the request's HOOKCTL_ALLOW_UNTRUSTED is ignored")
	}
	if f, err := File(opt); err != nil || f != reqFile {
		t.Errorf("File = %q, %v; want %q", f, err, reqFile)
	}
	dir := writeTree(t, map[string]string{"cfg/hooks.hcl": "hook \"a\" {\n  event = \"Stop\"\n  decision = \"block\"\n}\n"})
	cfg := filepath.Join(dir, "cfg")
	if _, err := Trust(reqFile, cfg); err != nil {
		t.Fatal(err)
	}
	if err := Checker(opt)(cfg); err != nil {
		t.Errorf("trusted in the request's trust file, yet: %v", err)
	}
	if err := Check(cfg); err == nil {
		t.Error("trusted in the process's trust file, which does not hold it")
	}
	if files := WatchFiles(cfg, opt)(); len(files) == 0 || files[0] != reqFile {
		t.Errorf("WatchFiles = %v", files)
	}
	if runtime.GOOS == "linux" {
		home := map[string]string{"HOME": "/home/req"}
		if f, err := File(WithGetenv(func(k string) string { return home[k] })); err != nil || f != "/home/req/.config/hookctl/trusted.json" {
			t.Errorf("File of a HOME = %q, %v", f, err)
		}
		home["XDG_CONFIG_HOME"] = "/xdg"
		if f, _ := File(WithGetenv(func(k string) string { return home[k] })); f != "/xdg/hookctl/trusted.json" {
			t.Errorf("File of an XDG_CONFIG_HOME = %q", f)
		}
		if _, err := File(WithGetenv(func(string) string { return "" })); err == nil {
			t.Error("no trust file without HOME")
		}
	}
}

// TestFileInTheConfigDirectory: without $HOOKCTL_TRUST_FILE the trust
// file is in the one user configuration directory of internal/dirs, on
// every platform (on macOS ~/Library/Application Support/hookctl, or
// $XDG_CONFIG_HOME/hookctl where it is set; a relative XDG_CONFIG_HOME is
// ignored, as the XDG specification says).
func TestFileInTheConfigDirectory(t *testing.T) {
	home := t.TempDir()
	for _, env := range []map[string]string{
		{"HOME": home, "AppData": home},
		{"HOME": home, "AppData": home, "XDG_CONFIG_HOME": filepath.Join(home, "xdg")},
		{"HOME": home, "AppData": home, "XDG_CONFIG_HOME": "relative"},
	} {
		getenv := func(k string) string { return env[k] }
		dir, err := dirs.Config(getenv)
		if err != nil {
			t.Fatal(err)
		}
		if f, err := File(WithGetenv(getenv)); err != nil || f != filepath.Join(dir, "trusted.json") {
			t.Errorf("%v: File = %q, %v; want it in %s", env, f, err, dir)
		}
	}
}
