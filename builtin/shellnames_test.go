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
		// su reads its options anywhere before "--" (su - -c, su root
		// -s SHELL -c), long ones by a prefix; runuser's -u only as an
		// option; at's attached queue; $0 and ${SHELL:?}; a default
		// that is a shell; more programs that run one.
		{`su - -c 'rm -rf ~'`, "deny"},
		{`sudo su - -c 'cat .env'`, "secrets"},
		{`su root -s /bin/bash -c 'rm -rf ~'`, "deny"},
		{`su root -w PATH -c 'rm -rf ~'`, "deny"},
		{`su root --command='rm -rf ~'`, "deny"},
		{`su root -- -c 'rm -rf ~'`, "deny"},
		{`su --comm='rm -rf ~' root`, "deny"},
		{`su -c 'rm -rf "$1"' root x ~`, "deny"},
		{`runuser -s/usr/bin/bash root -c 'rm -rf ~'`, "deny"},
		{`runuser -u dev rm -rf ~`, "deny"},
		{`at -qc now <<< 'rm -rf ~'`, "deny"},
		{`at -f /dev/stdin now <<< 'rm -rf ~'`, "deny"},
		{`echo 'rm -rf ~' | sudo --sh`, "deny"},
		{`$0 -c 'rm -rf ~'`, "deny"},
		{`${SHELL:?} -c 'rm -rf ~'`, "deny"},
		{`${X:-bash} -c 'rm -rf ~'`, "deny"},
		{`echo 'rm -rf ~' | ${BASH:-}`, "deny"},
		{`su < <(echo 'rm -rf ~')`, "deny"},
		{`$SHELL <(echo 'rm -rf ~')`, "deny"},
		{`echo '"rm -rf ~"' | xargs su -c`, "deny"},
		{`xargs -0 $SHELL -c <<< 'cat .env'`, "secrets"},
		{`echo 'rm -rf ~' | pkexec`, "deny"},
		{`gosu root rm -rf ~`, "deny"},
		{`su-exec root cat .env`, "secrets"},
		{`run0 --user=root cat .env`, "secrets"},
		{`setpriv --reuid=0 rm -rf ~`, "deny"},
		{`unshare -r rm -rf ~`, "deny"},
		{`nsenter -t 1 -m rm -rf ~`, "deny"},
		{`sg wheel -c 'rm -rf ~'`, "deny"},
		{`newgrp docker <<< 'cat .env'`, "secrets"},
		{`capsh -- -c 'rm -rf ~'`, "deny"},
		// The program su runs for the shell (-s), and options of the
		// launchers that take a value as the next word.
		{`su -s /bin/rm root -- -rf ~`, "deny"},
		{`su -s /bin/cat root -- .env`, "secrets"},
		{`setpriv --reuid 0 rm -rf ~`, "deny"},
		{`run0 --background 41 rm -rf ~`, "deny"},
		{`chpst -o 100 rm -rf ~`, "deny"},
		{`unshare -T --monotonic 1000 rm -rf ~`, "deny"},
		{`nsenter --wdns / -t 1 rm -rf ~`, "deny"},
		{`script -mclassic /dev/null <<< 'rm -rf ~'`, "deny"},
		// Held: no script, or one of no harm; a command named '$SHELL'.
		{`echo 'rm -rf ~' | ./su`, ""},
		{`echo 'rm -rf ~' | tools/at now`, ""},
		{`echo 'rm -rf ~' | script -c`, ""},
		{`echo 'rm -rf ~' | su -s /bin/cat`, ""},
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
	// A command run as another user, or by a shell whose default is a
	// file of the project, is not approved as read-only.
	for _, line := range []string{
		`su root -c 'cat /etc/shadow'`, `su root <<< 'ls'`, `runuser -l root -c 'ls'`,
		`${SHELL:-./evil} -c ls`, `${BASH:-./evil} -c ls`, `pkexec ls`, `gosu root ls`,
	} {
		if d, _ := decisionOf(call(t, approver, "PermissionRequest", bash(line))); d == "allow" {
			t.Errorf("%s: approved as read-only", line)
		}
	}
}
