package builtin_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/engine"
)

// rank orders decisions: allow < ask < deny.
func rank(d string) int {
	switch d {
	case "deny":
		return 2
	case "ask":
		return 1
	}
	return 0
}

// FuzzDangerousCommands runs dangerous-commands on arbitrary lines: it
// must not panic or hang, and a harmless prefix ("true && ", "cd . && ")
// must never weaken its decision (a deny turned into an ask or an allow).
// The seeds are the commands of testdata/dangerous/walkarounds.txt.
func FuzzDangerousCommands(f *testing.F) {
	raw, err := os.ReadFile(filepath.Join("testdata", "dangerous", "walkarounds.txt"))
	if err != nil {
		f.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	for sc.Scan() {
		_, cmd, ok := strings.Cut(sc.Text(), "\t")
		if !ok || strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		if q, ok := strings.CutPrefix(cmd, "q:"); ok {
			if cmd, err = strconv.Unquote(q); err != nil {
				f.Fatal(err)
			}
		}
		f.Add(cmd)
	}
	for _, c := range dangerCases {
		f.Add(c.cmd)
	}
	// Odd parameter expansions, arrays, positional parameters, read,
	// launchers and substituted scripts, for the code that resolves them.
	for _, c := range []string{
		`rm -rf ${PWD:`, `rm -rf ${PWD/`, `rm -rf ${X:=}`, `rm -rf ${!PWD}`, `rm -rf ${#PWD}`,
		`rm -rf ${PWD@Q}`, `rm -rf ${PWD^^}`, `rm -rf ${X:-$(rm -rf ~)}`, `rm -rf ${X:-$((1/0))}`,
		`rm -rf ${PWD:99999999999999999999}`, `rm -rf ${PWD:0:-99}`, `rm -rf ${PWD//?/}`,
		`rm -rf ${X:-${HOME}}`, `rm -rf ${X?}`, `rm -rf "${a[@]:1}"`, `a=(; rm -rf $a`, `a=([0]=~ [1]=x); rm -rf ${a[0]}`,
		`set --; rm -rf "$@"`, `set -o; rm -rf $1`, `read <<< ~; rm -rf "$REPLY"`, `read -a a <<< "~ /"; rm -rf ${a[1]}`,
		`f(){ :; }; f; rm -rf "$1"`, `f() { f "$@"; }; f ~`, `for d; do rm -rf "$d"; done`,
		`for ((;;)); do rm -rf ~; done`, `x=; $x -rf ~`, `x=" "; $x ~`, `script -c`, `script -qc`,
		`. <(`, `. <()`, `source <(echo)`, `bash < <(printf '%s' "rm -rf ~")`, `source /dev/stdin`,
		`python3 -c "rmtree as r"`, `python3 -c "f=rmtree"`, `taskset`, `strace -o`, `systemd-run -p`,
	} {
		f.Add(c)
	}
	h := newFuzzHook(f)
	f.Fuzz(func(t *testing.T, cmd string) {
		base := decide(t, h, cmd)
		for _, prefix := range []string{"true && ", "cd . && ", "true; "} {
			if got := decide(t, h, prefix+cmd); rank(got) < rank(base) {
				t.Errorf("%q is %q, but %q is %q", cmd, base, prefix+cmd, got)
			}
		}
	})
}

// newFuzzHook builds dangerous-commands for the fuzz target, with the
// project directory taken from the payload's cwd.
func newFuzzHook(f *testing.F) engine.Hook {
	f.Setenv("CLAUDE_PROJECT_DIR", "")
	hooks, err := builtin.New("dangerous-commands", builtin.Config{Home: home})
	if err != nil {
		f.Fatal(err)
	}
	return hooks[0]
}

// decide returns the hook's decision on a command run in /home/dev/shop.
func decide(t *testing.T, h engine.Hook, cmd string) string {
	p := bash(cmd)
	p["cwd"] = "/home/dev/shop"
	d, _ := decisionOf(call(t, h, "PreToolUse", p))
	return d
}
