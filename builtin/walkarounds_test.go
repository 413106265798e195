package builtin_test

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/builtin"
)

var update = flag.Bool("update", false, "rewrite the decisions of testdata/dangerous/walkarounds.txt")

// ruleOf returns the rule a dangerous-commands reason names.
var ruleOfRe = regexp.MustCompile(`\(dangerous-commands rule ([a-z0-9-]+)\)$`)

// judge returns "deny RULE", "ask RULE" or "allow" for a command run in
// cwd, with project as CLAUDE_PROJECT_DIR.
func judge(t *testing.T, cmd, cwd, project string) string {
	t.Helper()
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	h := newHook(t, "dangerous-commands", builtin.Config{})
	p := bash(cmd)
	p["cwd"] = cwd
	d, reason := decisionOf(call(t, h, "PreToolUse", p))
	if d == "" {
		return "allow"
	}
	m := ruleOfRe.FindStringSubmatch(reason)
	if m == nil {
		t.Fatalf("%q: reason %q names no rule", cmd, reason)
	}
	return d + " " + m[1]
}

// TestDangerousWalkarounds runs the table of testdata/dangerous/walkarounds.txt:
// the ways around dangerous-commands of issue 24 (cd chains, $(pwd),
// xargs and find fed targets, interpreter one-liners, wrappers) and the
// everyday commands that must stay allowed.
func TestDangerousWalkarounds(t *testing.T) {
	file := filepath.Join("testdata", "dangerous", "walkarounds.txt")
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var (
		out          strings.Builder
		cwd, project string
		counts       = map[string]int{}
	)
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "@cwd "):
			cwd = strings.TrimPrefix(line, "@cwd ")
			project = cwd
		case strings.HasPrefix(line, "@project "):
			project = strings.TrimPrefix(line, "@project ")
		case line == "" || strings.HasPrefix(line, "#"):
		default:
			want, cmd, ok := strings.Cut(line, "\t")
			if !ok || cwd == "" {
				t.Fatalf("%s:%d: want DECISION[ RULE]<TAB>COMMAND after an @cwd line", file, n)
			}
			if q, ok := strings.CutPrefix(cmd, "q:"); ok {
				if cmd, err = strconv.Unquote(q); err != nil {
					t.Fatalf("%s:%d: %v", file, n, err)
				}
			}
			got := judge(t, cmd, cwd, project)
			counts[strings.Fields(got)[0]]++
			if got != want && !*update {
				t.Errorf("%s:%d: %q in %s: got %s, want %s", file, n, cmd, cwd, got, want)
			}
			_, rest, _ := strings.Cut(line, "\t")
			line = got + "\t" + rest
		}
		out.WriteString(line + "\n")
	}
	if *update {
		if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if counts["deny"] < 100 || counts["ask"] < 15 || counts["allow"] < 50 {
		t.Errorf("the table has %v cases; keep at least 100 denied, 15 asked and 50 allowed", counts)
	}
	t.Log(fmt.Sprint(counts))
}

// TestDangerousCommandsUsesClaudeCodeCwd feeds the PreToolUse payload the
// real Claude Code CLI sent (testdata/claude-code/PreToolUse.Bash.json):
// the working directory is its top-level "cwd", and the project is
// CLAUDE_PROJECT_DIR, which the CLI sets to the same directory.
func TestDangerousCommandsUsesClaudeCodeCwd(t *testing.T) {
	const dir = "/home/dev/run"
	for _, project := range []string{dir + "/project", ""} {
		t.Setenv("CLAUDE_PROJECT_DIR", project)
		eng := newEngine(t, newHook(t, "dangerous-commands", builtin.Config{}))
		for cmd, want := range map[string]string{
			"cd .. && rm -rf project": "rm-project",
			`rm -rf "$(pwd)"`:         "rm-project",
			`python3 -c "import shutil; shutil.rmtree('../project')"`: "interpreter-delete",
			"cd src && rm -rf ../dist":                                "",
		} {
			p := fixture(t, "PreToolUse.Bash", dir)
			if p["cwd"] != dir+"/project" {
				t.Fatalf("fixture cwd %v", p["cwd"])
			}
			p["tool_input"].(map[string]any)["command"] = cmd
			out := fire(t, eng, "PreToolUse", p)
			got := ""
			if out.Decision == "deny" {
				got = ruleOfRe.FindStringSubmatch(out.Reason)[1]
			}
			if got != want {
				t.Errorf("CLAUDE_PROJECT_DIR=%q %q: got %q %q, want rule %q", project, cmd, out.Decision, out.Reason, want)
			}
			// Without the payload's cwd, "cd .." leads nowhere known.
			if project == "" && cmd == "cd .. && rm -rf project" {
				delete(p, "cwd")
				if out := fire(t, eng, "PreToolUse", p); out.Decision != "" {
					t.Errorf("%q without a cwd: %s %s", cmd, out.Decision, out.Reason)
				}
			}
		}
	}
}
