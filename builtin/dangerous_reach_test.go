package builtin_test

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/lib/paths"
)

// reachCase is a line dangerous-commands must judge: want is "deny RULE",
// "ask" (any rule) or "" (no opinion); wantOff, when set, is the answer
// with outside_project off (else the same as want, unless want is deny
// rm-outside-project, whose answer with it off is not checked).
type reachCase struct{ cmd, want, wantOff string }

// judgeReach runs cases with outside_project on and off under the given
// rules, home and project (the working directory is the project).
func judgeReach(t *testing.T, sys paths.System, home, project string, cases []reachCase) {
	t.Helper()
	env := map[string]string{"CLAUDE_PROJECT_DIR": project, "TMPDIR": "/tmp"}
	for _, outside := range []bool{true, false} {
		cfg := builtin.WithSystem(builtin.Config{
			Home:    home,
			Getenv:  func(k string) string { return env[k] },
			Options: map[string]any{"outside_project": outside},
		}, sys)
		h := newHook(t, "dangerous-commands", cfg)
		for _, tc := range cases {
			want := tc.want
			if !outside {
				switch {
				case tc.wantOff != "":
					want = tc.wantOff
				case strings.HasSuffix(want, "rm-outside-project"):
					continue
				}
			}
			if want == "-" {
				want = ""
			}
			p := bash(tc.cmd)
			p["cwd"] = project
			d, reason := decisionOf(call(t, h, "PreToolUse", p))
			got := d
			if m := ruleOfRe.FindStringSubmatch(reason); m != nil && d == "deny" {
				got += " " + m[1]
			}
			if got != want {
				t.Errorf("outside_project %v: %q: got %q (%s), want %q", outside, tc.cmd, got, reason, want)
			}
		}
	}
}

// TestDangerousQuotedDollar: a $ or a backquote that the shell does not
// expand (single-quoted, escaped, or starting nothing, as in a Windows
// admin share //host/c$/x) is a character of the name. Such arguments
// were read as unknown expansions: no opinion, and outside_project did
// not fire. And a recursive rm whose unknown part is followed by .. is
// asked about.
func TestDangerousQuotedDollar(t *testing.T) {
	judgeReach(t, paths.Unix, "/home/me", "/home/me/proj", []reachCase{
		{`rm -rf '/tmp/$x/../../home/me'`, "deny rm-recursive", ""},
		{`rm -rf /tmp/\$x/../../home/me`, "deny rm-recursive", ""},
		{`rm -rf "/tmp/\$x/../../home/me"`, "deny rm-recursive", ""},
		{"rm -rf '/tmp/`x`/../../etc'", "deny rm-recursive", ""},
		{`mkdir -p '/tmp/$x' && rm -rf '/tmp/$x/../../home/me'`, "deny rm-recursive", ""},
		{`rm -rf '/etc/$x/../../etc'`, "deny rm-recursive", ""},
		{`rm -rf '/home/me/$x/..'`, "deny rm-recursive", ""},
		{`rm -rf '/srv/$x/../data'`, "deny rm-outside-project", ""},
		{`rm -rf '/home/me/proj/$x/../..'`, "deny rm-recursive", ""},
		{`rm -rf '$x/../../../etc'`, "deny rm-recursive", ""},
		{`rm -rf '$HOME'`, "-", ""},
		{`rm -rf '/tmp/$x/build'`, "-", ""},
		{`rm -rf 'build$'`, "-", ""},
		{`find '/srv/$x/../../etc' -delete`, "deny find-delete", ""},
		{`cd '/tmp/$x/../../home' && rm -rf me`, "deny rm-recursive", ""},
		{`cd '/srv/$x' && rm -rf ../../etc`, "deny rm-recursive", ""},
		{`x=build; rm -rf '$x/../../../etc'`, "deny rm-recursive", ""},
		// A value given through a variable loses its quoting: asked.
		{`f() { rm -rf "$1"; }; f '/tmp/$x/../../home/me'`, "ask", "ask"},
		// Expansions the guard cannot know, followed by ..: ask.
		{`rm -rf "/tmp/$x/../a31/home"`, "ask", "ask"},
		{`rm -rf /tmp/$x/../../etc`, "ask", "ask"},
		{"rm -rf /tmp/`x`/../../etc", "ask", "ask"},
		{`rm -rf "$(mktemp -d)/../../etc"`, "ask", "ask"},
		{`rm -rf "$BUILD/out"`, "-", ""},
		{`rm -rf "$x"`, "-", ""},
	})
	judgeReach(t, paths.Windows, `C:\Users\me`, `C:\proj`, []reachCase{
		{`rm -rf '\\localhost\C$\Users\me'`, "deny rm-recursive", ""},
		{`rm -rf //localhost/c$/Users/me`, "deny rm-recursive", ""},
		{`rm -rf '\\?\UNC\localhost\C$\Windows'`, "deny rm-recursive", ""},
		{`rm -rf 'C:\Windows::$INDEX_ALLOCATION'`, "deny rm-recursive", ""},
		{`rm -rf '\\fileserver\home$\me'`, "deny rm-outside-project", ""},
		{`rm -rf 'C:\proj\$x\..\..\Users\me'`, "deny rm-recursive", ""},
		{`rm -rf 'C:\proj\build$'`, "-", ""},
	})
}

// TestDangerousCdAssignments: a cd reads HOME (no operand), OLDPWD (cd -),
// CDPATH and PWD, and an assignment before it (HOME=/ cd) or elsewhere on
// the line (HOME=/; cd) sets what it reads. The place tracker took cd to
// the guard's home and cd - to the directory it had followed.
func TestDangerousCdAssignments(t *testing.T) {
	judgeReach(t, paths.Unix, "/home/me", "/home/me/proj", []reachCase{
		{`OLDPWD=/srv cd - && rm -rf data`, "deny rm-outside-project", ""},
		{`OLDPWD=/tmp/a31 cd - && rm -rf home`, "-", ""},
		{`OLDPWD=/ cd - && rm -rf usr`, "deny rm-recursive", ""},
		{`OLDPWD=/home cd - && rm -rf me`, "deny rm-recursive", ""},
		{`HOME=/ cd && rm -rf usr`, "deny rm-recursive", ""},
		{`HOME=/home/me/proj cd && rm -rf ../../me`, "deny rm-recursive", ""},
		{`HOME=/home cd; rm -rf me`, "deny rm-recursive", ""},
		{`HOME=/ bash -c 'cd && rm -rf usr'`, "deny rm-recursive", ""},
		{`HOME=/; cd && rm -rf usr`, "deny rm-recursive", ""},
		{`export OLDPWD=/; cd - && rm -rf usr`, "deny rm-recursive", ""},
		{`CDPATH=/ cd usr && rm -rf bin`, "deny rm-recursive", ""},
		{`CDPATH=/tmp:/ cd usr && rm -rf local`, "deny rm-recursive", ""},
		{`export CDPATH=/home; cd me && rm -rf .`, "deny rm-recursive", ""},
		{`export CDPATH=/home; cd me && rm -rf ../me`, "deny rm-recursive", ""},
		{`PWD=/ cd usr && rm -rf bin`, "deny rm-recursive", ""},
		{`PWD=/usr cd .. && rm -rf etc`, "deny rm-recursive", ""},
		{`PWD=/usr cd -P .. && rm -rf proj`, "deny rm-project", ""},
		// The assignment of the cd's own is what it reads: no home.
		{`HOME=/home/me/proj/sub cd && rm -rf build`, "-", ""},
		{`HOME=/tmp/x cd && rm -rf *`, "-", ""},
		{`cd && rm -rf proj`, "deny rm-project", ""},
		{`cd src && rm -rf build`, "-", ""},
	})
	judgeReach(t, paths.Windows, `C:\Users\me`, `C:\proj`, []reachCase{
		{`HOME=C:/ cd && rm -rf Windows`, "deny rm-recursive", ""},
		{`USERPROFILE=C:/ cd && rm -rf Windows`, "deny rm-recursive", ""},
		{`OLDPWD='C:\Users' cd - && rm -rf me`, "deny rm-recursive", ""},
		{`HOME=C:/proj/sub cd && rm -rf build`, "-", ""},
	})
}

// TestSecretFilesCdAssignments: secret-files follows the same place
// tracker, so HOME=~/.aws cd && cat credentials reads ~/.aws/credentials.
func TestSecretFilesCdAssignments(t *testing.T) {
	for _, tc := range []struct {
		sys  paths.System
		home string
		cmds []string
	}{
		{paths.Unix, "/home/me", []string{
			`HOME=~/.aws cd && cat credentials`, `HOME=/vault cd && cat key`, `OLDPWD=/vault cd - && cat key`,
			`CDPATH=/ cd vault && cat key`, `PWD=/vault cd . && cat key`,
		}},
		{paths.Windows, `C:\Users\me`, []string{
			`HOME=C:/vault cd && cat key`, `USERPROFILE=C:/vault cd && cat key`,
			// The Windows forms of a cd target (TestDangerousCdWindowsForms).
			`cd '\\?\C:\vault' && cat key`, `cd C: && cat vault/key`,
		}},
	} {
		pattern := "/vault/**"
		if tc.sys.IsWindows() {
			pattern = "C:/vault/**"
		}
		h := newHook(t, "secret-files", builtin.WithSystem(builtin.Config{
			Home: tc.home, Options: map[string]any{"patterns": []any{pattern}},
		}, tc.sys))
		for _, cmd := range tc.cmds {
			p := bash(cmd)
			p["cwd"] = tc.home + "/proj"
			if d, reason := decisionOf(call(t, h, "PreToolUse", p)); d != "deny" {
				t.Errorf("%q: %q %q, want deny", cmd, d, reason)
			}
		}
	}
}

// TestDangerousGlobBelowTheTop: a glob below the top level is judged by
// its literal directory (outside the project and the temporary
// directories: outside_project fires) and by the kinds it may match; find
// -delete and -exec rm outside the project are what rm -r outside it is;
// a cd to a glob leads to the pattern. Each got no opinion.
func TestDangerousGlobBelowTheTop(t *testing.T) {
	judgeReach(t, paths.Unix, "/home/me", "/home/me/proj", []reachCase{
		{`rm -rf /srv/dat?`, "deny rm-outside-project", ""},
		{`rm -rf /srv/[d]ata`, "deny rm-outside-project", ""},
		{`rm -rf /root/.ss?`, "deny rm-outside-project", ""},
		{`rm -rf ../../../root/.ss[h]`, "deny rm-outside-project", ""},
		{`rm -rf /home/me/Docum*`, "deny rm-outside-project", ""},
		{`rm -rf ~/.ss?`, "deny rm-outside-project", ""},
		{`rm -rf ~/[D]ocuments`, "deny rm-outside-project", ""},
		{`rm -rf ../other-pro[j]`, "deny rm-outside-project", ""},
		{`rm -rf /etc/ss?`, "deny rm-outside-project", ""},
		{`rm -rf ~/*.log`, "deny rm-outside-project", ""},
		{`rm -rf /tmp/*/../../etc`, "deny rm-recursive", ""},
		{`rm -rf /us?/bin`, "deny rm-recursive", ""},
		{`rm -rf /usr/l?b`, "deny rm-recursive", ""},
		{`rm -rf /home/b?b`, "deny rm-recursive", ""},
		{`rm -rf /h*/bob`, "deny rm-recursive", ""},
		{`find /srv/data -delete`, "deny rm-outside-project", ""},
		{`find /srv/dat? -delete`, "deny rm-outside-project", ""},
		{`find ~/.ss? -delete`, "deny rm-outside-project", ""},
		{`find /srv/data -name '*.tmp' -exec rm -f {} +`, "deny rm-outside-project", ""},
		{`find /srv/data -exec sh -c 'rm -rf "$1"' _ {} \;`, "deny rm-outside-project", ""},
		{`cd /ro?t && rm -rf .ssh`, "deny rm-outside-project", ""},
		{`cd /et[c] && rm -rf ssh`, "deny rm-outside-project", ""},
		{`cd /home/m? && rm -rf Documents`, "deny rm-outside-project", ""},
		{`cd /home/m? && rm -rf .`, "deny rm-recursive", ""},
		{`cd /us? && rm -rf bin`, "deny rm-recursive", ""},
		{`cd /tmp/* && rm -rf ../../etc`, "deny rm-recursive", ""},
		// Stays allowed: globs in the project and the temporary dirs.
		{`rm -rf build/*.o`, "-", ""},
		{`rm -rf /tmp/foo*`, "-", ""},
		{`rm -rf src/*/node_modules`, "-", ""},
		{`find . -name '*.pyc' -delete`, "-", ""},
		{`find /tmp/x -delete`, "-", ""},
		{`find build -type f -exec rm {} +`, "-", ""},
		{`cd src/* && rm -rf build`, "-", ""},
		{`cd /tmp/ba? && rm -rf x`, "-", ""},
	})
	judgeReach(t, paths.Windows, `C:\Users\me`, `C:\proj`, []reachCase{
		{`rm -rf 'C:\Users\me\Docum*'`, "deny rm-outside-project", ""},
		{`rm -rf /c/Users/me/Docum*`, "deny rm-outside-project", ""},
		{`rm -rf C:/Users/me/[D]ocuments`, "deny rm-outside-project", ""},
		{`rm -rf C:/Users/b?b`, "deny rm-recursive", ""},
		{`rm -rf C:/Windows/Sys*32`, "deny rm-recursive", ""},
		{`find 'D:\data' -delete`, "deny rm-outside-project", ""},
		{`cd C:/Us?rs && rm -rf me`, "deny rm-recursive", ""},
		{`rm -rf 'C:\proj\b*'`, "-", ""},
	})
}

// TestDangerousCdWindowsForms: under Windows' rules a cd target goes
// through paths.System.Plain as rm's operands do (\\?\C:\ is C:/), and
// "cd C:" or "cd C:x" is read both as the drive's working directory and
// as its root (Git Bash's cd C: goes to /c). Each got no opinion.
func TestDangerousCdWindowsForms(t *testing.T) {
	judgeReach(t, paths.Windows, `C:\Users\me`, `C:\proj`, []reachCase{
		{`cd '\\?\C:\' && rm -rf Windows`, "deny rm-recursive", ""},
		{`cd '\\?\C:\Users' && rm -rf me`, "deny rm-recursive", ""},
		{`cd '//?/C:/Users/me' && rm -rf .`, "deny rm-recursive", ""},
		{`pushd '\\.\C:\Windows' && rm -rf System32`, "deny rm-recursive", ""},
		{`cd C: && rm -rf Users`, "deny rm-recursive", ""},
		{`cd c: && rm -rf Windows`, "deny rm-recursive", ""},
		{`cd C:Users && rm -rf me`, "deny rm-recursive", ""},
		{`cd D: && rm -rf data`, "deny rm-outside-project", ""},
		{`cd '\\?\C:\proj' && rm -rf build`, "-", ""},
		{`cd C:/proj && rm -rf build`, "-", ""},
	})
}

// TestDangerousProcRoot: /proc/self/root, /proc/thread-self/root and
// /proc/PID/root are a process's /, and /proc/self/cwd its working
// directory: the kinds got no opinion with outside_project off.
func TestDangerousProcRoot(t *testing.T) {
	judgeReach(t, paths.Unix, "/home/me", "/home/me/proj", []reachCase{
		{`rm -rf /proc/self/root/home/me`, "deny rm-recursive", ""},
		{`rm -rf /proc/self/root/usr`, "deny rm-recursive", ""},
		{`rm -rf /proc/thread-self/root/etc`, "deny rm-recursive", ""},
		{`rm -rf /proc/1/root/var/lib`, "deny rm-recursive", ""},
		{`rm -rf /proc/self/root/proc/self/root/`, "deny rm-recursive", ""},
		{`rm -rf /proc/self/root/../etc`, "deny rm-recursive", ""},
		{`find /proc/self/root/usr -delete`, "deny find-delete", ""},
		{`chown -R me /proc/self/root/etc`, "deny chown-recursive", ""},
		{`cd /proc/self/root && rm -rf usr`, "deny rm-recursive", ""},
		{`rm -rf /proc/self/cwd/../../me`, "deny rm-recursive", ""},
		{`rm -rf /proc/self/cwd`, "deny rm-project", ""},
		{`rm -rf /proc/self/cwd/build`, "-", ""},
		{`rm -rf /proc/self/root/tmp/x`, "-", ""},
	})
}
