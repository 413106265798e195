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
