package builtin_test

import (
	"testing"

	"github.com/hookctl/hookctl/builtin"
)

// TestShellsByOtherNames: a script run by the user's shell under another
// name than a shell's is judged as one a shell runs: su and runuser (-c,
// or a script on their input), sudo -s/-i and doas -s with no command,
// $SHELL and $BASH (braced, with a default), pkexec and runuser -u as
// launchers, at, batch and script(1) reading their input. Each line
// below got no opinion from either guard before.
func TestShellsByOtherNames(t *testing.T) {
	dangerous := newHook(t, "dangerous-commands", builtin.Config{})
	secrets := newHook(t, "secret-files", builtin.Config{})
	approver := newHook(t, "read-only-approver", builtin.Config{})
	for _, c := range []struct {
		line  string
		guard string // "deny" from dangerous-commands, "secrets" from secret-files, "" for neither
	}{
		{`su -c 'rm -rf ~'`, "deny"},
		{`su root -c 'rm -rf ~'`, "deny"},
		{`su -s /bin/bash -c 'rm -rf ~' root`, "deny"},
		{`su -lc 'rm -rf ~'`, "deny"},
		{`su --command='rm -rf ~'`, "deny"},
		{`su - root -c 'cat .env'`, "secrets"},
		{`runuser -l root -c 'rm -rf ~'`, "deny"},
		{`runuser -u dev -- rm -rf ~`, "deny"},
		{`pkexec rm -rf ~`, "deny"},
		{`pkexec --user root cat .env`, "secrets"},
		{`$SHELL -c 'rm -rf ~'`, "deny"},
		{`"$SHELL" -c 'rm -rf ~'`, "deny"},
		{`${SHELL} -c 'cat .env'`, "secrets"},
		{`su <<< 'rm -rf ~'`, "deny"},
		{`sudo -s <<< 'rm -rf ~'`, "deny"},
		{`$SHELL <<< 'rm -rf ~'`, "deny"},
		{`at now <<< 'rm -rf ~'`, "deny"},
		{"batch <<EOF\ncat .env\nEOF", "secrets"},
		{`echo 'rm -rf ~' | su`, "deny"},
		{`echo 'rm -rf ~' | su - root`, "deny"},
		{`echo 'rm -rf ~' | sudo su`, "deny"},
		{`echo 'rm -rf ~' | sudo -s`, "deny"},
		{`echo 'rm -rf ~' | sudo -u root -i`, "deny"},
		{`echo 'rm -rf ~' | doas -s`, "deny"},
		{`echo 'rm -rf ~' | runuser -l root`, "deny"},
		{`echo 'rm -rf ~' | $SHELL`, "deny"},
		{`echo 'rm -rf ~' | ${SHELL:-sh}`, "deny"},
		{`echo 'rm -rf ~' | $BASH`, "deny"},
		{`echo 'rm -rf ~' | script -q /dev/null`, "deny"},
		{`echo 'rm -rf ~' | at now`, "deny"},
		{`echo 'cat .env' | sudo -s`, "secrets"},
		{`echo 'cat .env' | su`, "secrets"},
		{`echo 'cat .env' | $SHELL`, "secrets"},
		{`echo 'cat .env' | at now + 1 minute`, "secrets"},
		// Held: no script, or one of no harm; a command named '$SHELL'.
		{`su -c 'ls' root`, ""},
		{`echo hi | su`, ""},
		{`sudo -s`, ""},
		{`at -f job.sh now`, ""},
		{`at -l`, ""},
		{`$SHELL script.sh`, ""},
		{`echo 'rm -rf ~' | '$SHELL'`, ""},
		{`echo 'rm -rf ~' | $SHELLX`, ""},
	} {
		guardsSay(t, guards{dangerous, secrets, approver}, c.line, c.guard)
	}
}
