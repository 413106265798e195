package shell_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lib/shell"
)

// TestShellsByOtherNames: su, runuser, sudo -s, doas -s, at, batch,
// script(1) and $SHELL run a script as a shell does, and the parser reads
// it (its commands are segments, the program that ran it a wrapper);
// StdinShell tells which of them read one on their input.
func TestShellsByOtherNames(t *testing.T) {
	for _, c := range []struct {
		line    string
		name    string // the segment of the script's command
		wrapper string // the wrapper it is recorded under
	}{
		{`su -c 'rm -rf x'`, "rm", "su -c"},
		{`su - -c 'rm -rf x'`, "rm", "su -c"},
		{`su root -s /bin/bash -c 'rm -rf x'`, "rm", "su -c"},
		{`su root -- -c 'rm -rf x'`, "rm", "su -c"},
		{`su --comm='rm -rf x' root`, "rm", "su -c"},
		{`runuser -s/bin/bash root -c 'rm -rf x'`, "rm", "runuser -c"},
		{`$0 -c 'rm -rf x'`, "rm", "$0 -c"},
		{`at -qc now <<< 'rm -rf x'`, "rm", "at"},
		{`su root -c 'rm -rf x'`, "rm", "su -c"},
		{`su -lc 'rm -rf x'`, "rm", "su -c"},
		{`su --command='rm -rf x' root`, "rm", "su -c"},
		{`runuser -l root -c 'rm -rf x'`, "rm", "runuser -c"},
		{`runuser -u dev -- rm -rf x`, "rm", "runuser"},
		{`pkexec --user root rm -rf x`, "rm", "pkexec"},
		{`$SHELL -c 'rm -rf x'`, "rm", "$SHELL -c"},
		{`${SHELL:-/bin/sh} -c 'rm -rf x'`, "rm", "${SHELL:-/bin/sh} -c"},
		{`su <<< 'rm -rf x'`, "rm", "su -s"},
		{`sudo -s <<< 'rm -rf x'`, "rm", "sudo -s"},
		{`doas -s <<< 'rm -rf x'`, "rm", "doas -s"},
		{`at now <<< 'rm -rf x'`, "rm", "at"},
		{`script -q /dev/null <<< 'rm -rf x'`, "rm", "script"},
	} {
		segs, err := shell.Parse(c.line)
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		i := slices.IndexFunc(segs, func(s shell.Segment) bool { return s.Name == c.name })
		// su and runuser are also launchers of their own (read-only-approver
		// refuses them).
		prog := strings.Fields(c.wrapper)[0]
		if i < 0 || !slices.Contains(segs[i].Wrappers, c.wrapper) || (prog == "su" || prog == "runuser") && !slices.Contains(segs[i].Wrappers, prog) {
			t.Errorf("%s: want %s under %q, got %+v", c.line, c.name, c.wrapper, segs)
		}
	}
	for _, c := range []struct {
		line  string
		stdin bool
	}{
		{`x | su`, true}, {`x | su - root`, true}, {`x | sudo -s`, true}, {`x | sudo -u root -i`, true},
		{`x | doas -s`, true}, {`x | at now`, true}, {`x | batch`, true}, {`x | script -q /dev/null`, true},
		{`x | $SHELL`, true}, {`x | "${BASH}"`, true}, {`x | bash`, true}, {`x | runuser -l root`, true},
		{`x | sudo`, false}, {`x | ./su`, false}, {`x | tools/at now`, false}, {`x | script -c`, false},
		{`x | ${SHELL:-cat}`, true}, {`x | su root -c ls`, false}, {`x | runuser -u dev -- cat`, false},
		{`x | pkexec`, true}, {`x | /usr/bin/su`, true}, {`x | ${SHELL:?}`, true}, {`x | at -f job.sh now`, false}, {`x | at -l`, false},
		{`x | '$SHELL'`, false}, {`x | $SHELLX`, false}, {`x | ${SHELL%sh}`, false}, {`x | cat`, false},
	} {
		segs, err := shell.Parse(c.line)
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		if got := shell.StdinShell(segs[len(segs)-1]); got != c.stdin {
			t.Errorf("%s: StdinShell %v, want %v", c.line, got, c.stdin)
		}
	}
}
