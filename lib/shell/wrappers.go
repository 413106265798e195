package shell

import (
	"slices"
	"strings"
)

// arg is one word of a command line, with the index of the syntax word it
// came from, or -1 for a word made by splitting another (env -S) or found
// by the fallback tokenizer.
type arg struct {
	text string
	word int
	// lit reports that the shell expands nothing in the word: any $ or `
	// in text is a character of it (see Segment.Literal).
	lit bool
}

// literals returns Segment.Literal of args: nil unless a word holds a $
// or a backquote of its own.
func literals(args []arg) []bool {
	var out []bool
	for i, a := range args {
		if a.lit && strings.ContainsAny(a.text, "$`") {
			if out == nil {
				out = make([]bool, len(args))
			}
			out[i] = true
		}
	}
	return out
}

// texts returns the text of each arg.
func texts(args []arg) []string {
	if len(args) == 0 {
		return nil
	}
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a.text
	}
	return out
}

// launch describes how a launcher (a command that runs another command)
// takes its options. Options are read up to the first word that is not an
// option, as with getopt's "+" mode; unknown options are taken as flags.
type launch struct {
	shortArg  string   // short options that take a value, attached or as the next word
	shortOpt  string   // short options whose value, if any, must be attached
	longArg   []string // long options that take a value, --opt=VALUE or --opt VALUE
	noRun     string   // short options with which no command is run
	noRunLong []string // long options with which no command is run
	operands  int      // words between the options and the command
	assigns   bool     // NAME=VALUE words before the command set its environment
	bareDash  bool     // "-" is an option rather than the end of options
	splitOpt  byte     // short option whose value is split into more words
	splitLong string   // long option whose value is split into more words
	// wordOpts: every option is a whole word after one dash (macOS's
	// arch: -x86_64, -arch NAME), not a cluster of letters; longArg and
	// noRunLong name them.
	wordOpts bool
	kind     launchKind
}

// launchKind tells what a launcher does with the words after its options.
type launchKind int

const (
	runArgs  launchKind = iota // they are the command and its arguments
	runWatch                   // joined with spaces, they are a script for sh -c, unless -x/--exec is given
	runFlock                   // after FILE: "-c STRING" is a script, otherwise the command
)

// launchers is the table of launchers unwrapped by unwrap, by base name. It
// is never modified.
var launchers = map[string]*launch{
	"sudo": {
		shortArg: "aCcDgpRrTtUu",
		shortOpt: "h",
		longArg: []string{
			"auth-type", "chdir", "chroot", "close-from", "command-timeout", "group",
			"host", "login-class", "other-user", "prompt", "role", "type", "user",
		},
		noRun:     "eKlVv",
		noRunLong: []string{"edit", "help", "list", "remove-timestamp", "validate", "version"},
		assigns:   true,
	},
	"doas": {shortArg: "Cu", noRun: "CL"},
	// pkexec [--user U] [--keep-cwd] PROGRAM ARGS (with no program, a
	// shell: StdinShell).
	"pkexec": {longArg: []string{"user"}, noRunLong: []string{"help", "version"}},
	// Other programs that run a command as another user or in other
	// namespaces (with no command, run0, unshare and nsenter run a shell).
	"run0": {
		shortArg:  "ugD",
		longArg:   []string{"user", "group", "chdir", "setenv", "unit", "property", "description", "slice", "nice", "machine", "background", "area"},
		noRunLong: []string{"help", "version"},
	},
	"gosu":    {operands: 1},
	"su-exec": {operands: 1},
	"setpriv": {
		longArg: []string{"reuid", "regid", "ruid", "rgid", "euid", "egid", "groups", "inh-caps", "ambient-caps", "bounding-set",
			"securebits", "pdeathsig", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule", "seccomp-filter"},
		noRun: "d", noRunLong: []string{"dump", "help", "version"},
	},
	"chpst":   {shortArg: "uUbe/nlLmodpcfrt"},
	"unshare": {shortArg: "SGRw", longArg: []string{"setuid", "setgid", "root", "wd", "propagation", "setgroups", "map-user", "map-group", "map-users", "map-groups", "monotonic", "boottime"}, noRunLong: []string{"help", "version"}},
	"nsenter": {shortArg: "tSG", longArg: []string{"target", "setuid", "setgid", "wdns", "env"}, noRunLong: []string{"help", "version"}},
	"env": {
		shortArg:  "uCS",
		longArg:   []string{"chdir", "split-string", "unset"},
		noRunLong: []string{"help", "version"},
		assigns:   true,
		bareDash:  true,
		splitOpt:  'S',
		splitLong: "split-string",
	},
	"xargs": {
		shortArg: "adEIJLnPRsS",
		shortOpt: "eil",
		longArg: []string{
			"arg-file", "delimiter", "max-args", "max-chars", "max-procs", "process-slot-var",
		},
		noRunLong: []string{"help", "version"},
	},
	"time":    {shortArg: "fo", longArg: []string{"format", "output"}, noRunLong: []string{"help", "version"}},
	"nohup":   {noRunLong: []string{"help", "version"}},
	"nice":    {shortArg: "n", longArg: []string{"adjustment"}, noRunLong: []string{"help", "version"}},
	"ionice":  {shortArg: "cnpPu", longArg: []string{"class", "classdata", "pid", "pgid", "uid"}, noRun: "hpPuV", noRunLong: []string{"help", "pid", "pgid", "uid", "version"}},
	"timeout": {shortArg: "ks", longArg: []string{"kill-after", "signal"}, noRunLong: []string{"help", "version"}, operands: 1},
	"command": {noRun: "vV"},
	"exec":    {shortArg: "a"},
	"builtin": {},
	"stdbuf":  {shortArg: "eio", longArg: []string{"error", "input", "output"}, noRunLong: []string{"help", "version"}},
	"chroot":  {longArg: []string{"groups", "userspec"}, noRunLong: []string{"help", "version"}, operands: 1},
	"watch": {
		shortArg:  "nqs",
		shortOpt:  "d",
		longArg:   []string{"equexit", "interval", "shotsdir"},
		noRun:     "hv",
		noRunLong: []string{"help", "version"},
		kind:      runWatch,
	},
	"setsid":  {noRunLong: []string{"help", "version"}, noRun: "hV"},
	"taskset": {noRun: "hpV", noRunLong: []string{"help", "pid", "version"}, operands: 1},
	"strace": {
		shortArg:  "abeEIoOpPsSuUX",
		longArg:   []string{"output", "trace", "signal", "status", "string-limit", "user", "env", "attach", "trace-path", "expr"},
		noRun:     "hV",
		noRunLong: []string{"help", "version"},
	},
	"ltrace":   {shortArg: "aAeEfFlLnosSuwxX", longArg: []string{"output", "library"}, noRun: "hVp", noRunLong: []string{"help", "version"}},
	"unbuffer": {},
	"chronic":  {noRun: "h"},
	"busybox":  {noRunLong: []string{"help", "list", "list-full", "install"}},
	"systemd-run": {
		shortArg: "pMHESGu",
		longArg: []string{
			"unit", "property", "description", "slice", "uid", "gid", "nice", "working-directory",
			"setenv", "machine", "host", "service-type", "on-active", "on-boot", "on-startup",
			"on-unit-active", "on-unit-inactive", "on-calendar", "on-timezone-change", "timer-property",
			"path-property", "socket-property", "slice-inherit", "expand-environment",
		},
		noRunLong: []string{"help", "version"},
	},
	"xvfb-run": {shortArg: "efnpsw", longArg: []string{"error-file", "auth-file", "server-num", "xauth-protocol", "server-args", "wait"}, noRun: "h", noRunLong: []string{"help"}},
	"firejail": {noRunLong: []string{"help", "version", "list", "tree", "top"}},
	// macOS: caffeinate [-dimsu] [-t SECONDS] [-w PID] [UTILITY ARGS...],
	// arch [-x86_64|-arm64|-arm64e|-i386...] [-arch NAME] [-c] [-d NAME]
	// [-e NAME=VALUE] PROG ARGS...
	"caffeinate": {shortArg: "tw"},
	"arch": {
		wordOpts:  true,
		longArg:   []string{"arch", "d", "e"},
		noRunLong: []string{"h"},
	},
	// Windows: wsl [-d DISTRO] [-u USER] [--cd DIR] [-e | --exec | --]
	// COMMAND runs a command in a Linux distribution (the options that
	// manage distributions run none).
	"wsl": {
		shortArg: "du",
		longArg:  []string{"distribution", "distribution-id", "user", "cd", "shell-type"},
		noRun:    "l",
		noRunLong: []string{
			"help", "list", "install", "shutdown", "status", "update", "version", "set-default",
			"set-version", "set-default-version", "export", "import", "import-in-place", "unregister",
			"terminate", "mount", "unmount", "manage", "debug-shell",
		},
	},
	// zsh's precommand modifiers (zsh is macOS' login shell): noglob and
	// nocorrect run the command as it is; "- CMD" runs it as a login
	// command.
	"noglob":    {},
	"nocorrect": {},
	"-":         {},
	"flock": {
		shortArg:  "wE",
		longArg:   []string{"conflict-exit-code", "timeout"},
		noRun:     "hV",
		noRunLong: []string{"help", "version"},
		operands:  1,
		kind:      runFlock,
	},
}

// shells are the shells whose -c STRING or standard input script is parsed
// (as bash: the scripts of fish, csh, tcsh, yash and posh are not bash,
// but their simple commands, such as rm -rf ~, read alike, and a script
// bash cannot parse is read by the conservative tokenizer).
var shells = map[string]bool{
	"ash": true, "bash": true, "dash": true, "ksh": true, "mksh": true, "sh": true, "zsh": true,
	"fish": true, "csh": true, "tcsh": true, "yash": true, "posh": true,
}

// script is a shell script that a command runs.
type script struct {
	label string // the wrapper recorded for it, e.g. "bash -c"
	text  string // the script, unless stdin is set
	words []int  // the syntax words that make up the script
	stdin bool   // the script is the here-document on standard input
}

// unwrapped is a command with its launchers peeled off.
type unwrapped struct {
	argv     []arg      // the command that really runs, or the script's runner
	wrappers []string   // the launchers peeled off, outermost first
	launched [][]string // the words of each launcher peeled off
	assigns  []string   // assignments made by the launchers
	script   *script    // non-nil if the command runs a shell script
}

// unwrap peels launchers off argv until none applies. haveStdin tells
// whether a here-document or here-string feeds the command's standard
// input, which a shell without a script argument would run.
func unwrap(argv []arg, haveStdin bool) unwrapped {
	u := unwrapped{argv: argv}
	for len(u.argv) > 0 {
		name := baseName(u.argv[0].text)
		rest := u.argv[1:]
		if d, ok := defaultOf(u.argv[0]); ok && (shells[baseName(d)] || baseName(d) == "su") {
			// ${X:-sh}: sh when X is unset (and the shell's own script is
			// read whatever X holds; a deny of that reading stands).
			name = baseName(d)
		}
		if userShell(u.argv[0]) {
			// $SHELL, ${SHELL:-sh}, $BASH, $0: the user's shell, recorded
			// under the word that names it.
			u.script = shellScript(u.argv[0].text, rest, haveStdin)
			return u
		}
		if shells[name] {
			u.script = shellScript(name, rest, haveStdin)
			if u.script != nil && name != baseName(u.argv[0].text) {
				u.script.label = u.argv[0].text + strings.TrimPrefix(u.script.label, name)
			}
			return u
		}
		if (name == "su" || name == "runuser") && (systemProgram(u.argv[0].text) || name != baseName(u.argv[0].text)) {
			r := readSu(rest, name == "runuser")
			if r.runs && len(r.command) > 0 {
				// runuser -u USER [--] COMMAND: run as written.
				u.wrappers = append(u.wrappers, name)
				u.launched = append(u.launched, texts(u.argv[:len(u.argv)-len(r.command)]))
				u.argv = r.command
				continue
			}
			if r.shell != nil && !shells[baseName(r.shell.text)] && !r.hasCmd {
				// su -s /bin/rm root -- -rf ~: the program given for
				// the shell runs with the words after the user.
				u.wrappers = append(u.wrappers, name)
				u.launched = append(u.launched, texts(u.argv))
				u.argv = append([]arg{*r.shell}, r.shellArg...)
				continue
			}
			// su [options] [-] [user [shell arguments]]: -c's script, or
			// the shell's own (su root -c X; a script on its input).
			if u.script = r.script(name, haveStdin); u.script != nil {
				u.wrappers = append(u.wrappers, name)
				u.launched = append(u.launched, texts(u.argv))
			}
			return u
		}
		if name == "sg" && systemProgram(u.argv[0].text) {
			// sg [-] GROUP [-c] COMMAND: COMMAND is run by /bin/sh -c.
			r := rest
			if len(r) > 0 && r[0].text == "-" {
				r = r[1:]
			}
			if len(r) > 1 {
				r = r[1:]
				if r[0].text == "-c" {
					r = r[1:]
				}
				if u.script = joinedScript("sg", r); u.script != nil {
					u.wrappers = append(u.wrappers, name)
				}
			}
			return u
		}
		if name == "capsh" && systemProgram(u.argv[0].text) {
			// capsh [options] -- ARGS: ARGS are bash's.
			if k := slices.IndexFunc(rest, func(a arg) bool { return a.text == "--" }); k >= 0 {
				if u.script = shellScript("capsh --", rest[k+1:], haveStdin); u.script != nil {
					u.wrappers = append(u.wrappers, name)
				}
			}
			return u
		}
		if name == "newgrp" && haveStdin && systemProgram(u.argv[0].text) {
			u.script = &script{label: name, stdin: true} // a new shell, on the input
			return u
		}
		if (name == "at" || name == "batch") && haveStdin && systemProgram(u.argv[0].text) && atReadsStdin(rest) {
			// at and batch run the script on their input (later: still run).
			u.script = &script{label: name, stdin: true}
			return u
		}
		if (name == "source" || name == ".") && len(rest) > 0 && haveStdin && stdinFile(rest[0].text) {
			// source /dev/stdin <<< SCRIPT runs the here-string.
			u.script = &script{label: name + " /dev/stdin", stdin: true, words: []int{rest[0].word}}
			return u
		}
		if name == "script" {
			var given bool
			u.script, given = scriptCommand(rest)
			if u.script == nil && !given && haveStdin && systemProgram(u.argv[0].text) {
				// No -c: an interactive shell, typed to from the input.
				u.script = &script{label: "script", stdin: true}
			}
			return u
		}
		spec := launchers[name]
		if spec == nil {
			return u
		}
		opts, rest, ok := spec.options(rest)
		if !ok {
			return u
		}
		var assigns []string
		if spec.assigns {
			for len(rest) > 0 && isAssignment(rest[0].text) {
				assigns = append(assigns, rest[0].text)
				rest = rest[1:]
			}
		}
		if len(rest) < spec.operands {
			return u
		}
		rest = rest[spec.operands:]
		if len(rest) == 0 {
			if haveStdin && stdinShellOpts(name, opts) {
				// sudo -s, sudo -i, doas -s: the user's shell, given no
				// command, runs the script on its input.
				u.script = &script{label: name + " -s", stdin: true}
			}
			return u
		}
		switch {
		case spec.kind == runWatch && !opts.has('x', "exec"):
			u.script = joinedScript(name, rest)
			return u
		case spec.kind == runFlock && (rest[0].text == "-c" || rest[0].text == "--command"):
			u.script = joinedScript("flock -c", rest[1:min(2, len(rest))])
			return u
		}
		u.wrappers = append(u.wrappers, name)
		// env -S may have split one word into more than it took.
		n := len(u.argv) - len(rest)
		if n < 1 {
			n = 1
		}
		u.launched = append(u.launched, texts(u.argv[:n]))
		u.assigns = append(u.assigns, assigns...)
		u.argv = rest
	}
	return u
}

// userShell reports whether a command word is the user's shell by a
// variable the shell expands ($SHELL, "${SHELL}", ${SHELL:-sh}, $BASH):
// its value is not known, but it is a shell.
func userShell(a arg) bool {
	if a.lit {
		return false
	}
	return UserShellWord(a.text)
}

// UserShellWord reports whether word, as a command word the shell
// expands, names the user's shell: $SHELL or $BASH, braced or not, with
// a default (${SHELL:-sh}, ${SHELL-}, ${SHELL:=/bin/bash}) or an error if
// unset (${SHELL:?}), and $0, which in a bash -c line is the shell. With
// a default of another program (${SHELL:-cat}) that program may run
// instead: the guards judge that reading too.
func UserShellWord(word string) bool {
	switch word {
	case "$SHELL", "$BASH", "$0", "${0}":
		return true
	}
	v, ok := strings.CutPrefix(word, "${")
	if !ok {
		return false
	}
	if v, ok = strings.CutSuffix(v, "}"); !ok || strings.ContainsAny(v, "{}$`\\\"' \t") {
		return false
	}
	name, op := v, ""
	if k := strings.IndexAny(v, ":-=?"); k >= 0 {
		name, op = v[:k], strings.TrimPrefix(v[k:], ":")
		if op == "" {
			return false
		}
		op = op[:1]
	}
	// The name alone, an error if unset (?) or a default (-, =).
	return (name == "SHELL" || name == "BASH") && (op == "" || op == "?" || op == "-" || op == "=")
}

// defaultOf returns the default of a command word ${NAME:-DEFAULT},
// ${NAME-DEFAULT}, ${NAME:=DEFAULT} or ${NAME=DEFAULT} the shell expands:
// the program that runs when NAME is unset.
func defaultOf(a arg) (string, bool) {
	if a.lit {
		return "", false
	}
	v, ok := strings.CutPrefix(a.text, "${")
	if !ok {
		return "", false
	}
	if v, ok = strings.CutSuffix(v, "}"); !ok || strings.ContainsAny(v, "{}$`\\\"' \t") {
		return "", false
	}
	k := strings.IndexAny(v, ":-=")
	if k <= 0 {
		return "", false
	}
	op := strings.TrimPrefix(v[k:], ":")
	if op == "" || (op[0] != '-' && op[0] != '=') {
		return "", false
	}
	return op[1:], op[1:] != ""
}

// systemProgram reports whether a command word names a program by its
// name or by an absolute path (su, /usr/bin/su), not a file of the
// working tree (./su, tools/at).
func systemProgram(word string) bool {
	return !strings.ContainsRune(word, '/') || strings.HasPrefix(word, "/")
}

// stdinShellOpts reports whether a launcher's options, with no command
// after them, run the user's shell: sudo -s/--shell, -i/--login; doas -s.
func stdinShellOpts(name string, opts optionSet) bool {
	switch name {
	case "sudo":
		// Long options by any unambiguous prefix, as sudo reads them
		// (--sh, --lo).
		for _, l := range opts.long {
			if len(l) >= 2 && strings.HasPrefix("shell", l) || len(l) >= 3 && strings.HasPrefix("login", l) {
				return true
			}
		}
		return opts.has('s', "shell") || opts.has('i', "login")
	case "doas":
		return opts.has('s', "")
	case "pkexec", "run0", "unshare", "nsenter":
		return true // with no program, each runs a shell
	}
	return false
}

// StdinShell reports whether a command, given no script, runs what it
// reads on its standard input as a script: a shell (by name or as
// $SHELL), su or runuser without -c, sudo -s or -i and doas -s without a
// command, at, batch, and script(1) without -c. Each shell's own options
// (sh -c, bash script.sh) are for the caller to read.
func StdinShell(s Segment) bool {
	if len(s.Argv) == 0 {
		return false
	}
	args := func() []arg {
		out := make([]arg, len(s.Argv)-1)
		for i, a := range s.Argv[1:] {
			out[i] = arg{text: a}
		}
		return out
	}
	switch s.Name {
	case "su", "runuser":
		if !systemProgram(s.Argv[0]) {
			return false
		}
		r := readSu(args(), s.Name == "runuser")
		sc := r.script(s.Name, true)
		return !r.runs && sc != nil && sc.stdin
	case "at", "batch":
		return systemProgram(s.Argv[0]) && atReadsStdin(args())
	case "script":
		sc, given := scriptCommand(args())
		return systemProgram(s.Argv[0]) && sc == nil && !given
	case "newgrp":
		return systemProgram(s.Argv[0])
	case "sudo", "doas", "pkexec", "run0", "unshare", "nsenter":
		opts, rest, ok := launchers[s.Name].options(args())
		return ok && len(rest) == 0 && stdinShellOpts(s.Name, opts)
	}
	return shells[s.Name] || s.UserShell()
}

// UserShell reports whether the segment's command is the user's shell
// named by a variable ($SHELL, ${SHELL:-sh}, $BASH; see UserShellWord).
func (s Segment) UserShell() bool {
	return len(s.Argv) > 0 && (len(s.Literal) == 0 || !s.Literal[0]) && UserShellWord(s.Argv[0])
}

// suRead is what su or runuser is given, read as util-linux reads it:
// options anywhere before "--" (GNU getopt's order, long ones by any
// unambiguous prefix), a "-" alone asking for a login shell, then the
// user and the words given to the shell.
type suRead struct {
	command  []arg // -c's script (one word), or runuser -u's command
	shell    *arg  // -s, --shell: the program run in the shell's place
	hasCmd   bool  // -c, --command, -C, --session-command was given
	runs     bool  // runuser -u: command is run as written
	shellArg []arg // the words after the user, for the shell
}

// suLong are su's and runuser's long options and whether each takes a
// value; "command" and "session-command" give the script, "user" is
// runuser's -u.
var suLong = map[string]bool{
	"command": true, "session-command": true, "group": true, "supp-group": true, "shell": true,
	"whitelist-environment": true, "user": true, "fast": false, "login": false,
	"preserve-environment": false, "pty": false, "help": false, "version": false,
}

// suShort are su's and runuser's short options that take a value, by
// their long names (-u is runuser's).
var suShort = map[byte]string{
	'c': "command", 'C': "session-command", 'g': "group", 'G': "supp-group", 's': "shell",
	'w': "whitelist-environment", 'u': "user",
}

// set records an option that takes a value.
func (r *suRead) set(name string, val arg, runuser bool) {
	switch name {
	case "command", "session-command":
		r.command, r.hasCmd = []arg{val}, true
	case "shell":
		r.shell = &val
	case "user":
		r.runs = runuser
	}
}

// suLongName is the long option an argument names by a prefix, or "".
func suLongName(prefix string) string {
	if _, ok := suLong[prefix]; ok {
		return prefix
	}
	found := ""
	for name := range suLong {
		if strings.HasPrefix(name, prefix) {
			if found != "" {
				return "" // ambiguous
			}
			found = name
		}
	}
	return found
}

// readSu reads su's (runuser's) arguments.
func readSu(args []arg, runuser bool) suRead {
	var r suRead
	var operands []arg
	value := func(i int, attached string) (arg, int) {
		if attached != "" {
			return arg{text: attached, word: args[i].word}, i
		}
		if i+1 < len(args) {
			return args[i+1], i + 1
		}
		return arg{word: -1}, i
	}
	for i := 0; i < len(args); i++ {
		a := args[i].text
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--") && len(a) > 2:
			n, v, eq := strings.Cut(a[2:], "=")
			name := suLongName(n)
			if !suLong[name] {
				continue
			}
			var val arg
			if eq {
				val = arg{text: v, word: args[i].word}
			} else {
				val, i = value(i, "")
			}
			r.set(name, val, runuser)
		case len(a) > 1 && a[0] == '-':
			for k := 1; k < len(a); k++ {
				name, ok := suShort[a[k]]
				if !ok || name == "user" && !runuser {
					continue
				}
				var val arg
				val, i = value(i, a[k+1:])
				r.set(name, val, runuser)
				break
			}
		default:
			if r.runs {
				// runuser -u USER COMMAND ARGS: the rest is the command.
				r.command = args[i:]
				return r
			}
			operands = append(operands, args[i])
		}
	}
	if r.runs {
		r.command = operands
		return r
	}
	if len(operands) > 0 && operands[0].text == "-" {
		operands = operands[1:] // a login shell
	}
	if len(operands) > 0 {
		r.shellArg = operands[1:] // past the user
	}
	return r
}

// script is the script su runs: -c's, with the words after the user as
// its $0, $1, ...; else the one the words after the user give the
// shell, or its input's.
func (r suRead) script(name string, haveStdin bool) *script {
	if r.hasCmd {
		if len(r.command) == 0 || r.command[0].word < 0 && r.command[0].text == "" {
			return nil
		}
		sc := shellScript(name, append([]arg{{text: "-c", word: -1}, r.command[0]}, r.shellArg...), false)
		return sc
	}
	return shellScript(name, r.shellArg, haveStdin)
}

// atReadsStdin reports whether at or batch takes its job from standard
// input: not with -f FILE (but -f /dev/stdin), nor with the options that
// list, remove, show or print a version instead (-l, -d, -r, -c, -V);
// -q, -t and -f take a value, attached or as the next word.
func atReadsStdin(args []arg) bool {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if t == "--" || len(t) < 2 || t[0] != '-' {
			continue
		}
		for k := 1; k < len(t); k++ {
			switch t[k] {
			case 'l', 'd', 'r', 'c', 'V':
				return false
			case 'q', 't', 'f':
				v := t[k+1:]
				if v == "" && i+1 < len(args) {
					i++
					v = args[i].text
				}
				if t[k] == 'f' && !stdinFile(v) {
					return false
				}
				k = len(t)
			}
		}
	}
	return true
}

// joinedScript returns the script made of the given words joined with
// spaces, as watch and flock -c pass it to sh -c, or nil if there are none.
func joinedScript(label string, words []arg) *script {
	if len(words) == 0 {
		return nil
	}
	s := &script{label: label, text: strings.Join(texts(words), " ")}
	for _, w := range words {
		s.words = append(s.words, w.word)
	}
	return s
}

// shellScript returns the script that a shell named name runs with the
// arguments args: the string after -c, or the here-document on its standard
// input when it has no script file operand (or -s is given). It returns nil
// if the shell runs a script file or an interactive session.
func shellScript(name string, args []arg, haveStdin bool) *script {
	var cmd, stdin bool
	i := 0
options:
	for ; i < len(args); i++ {
		a := args[i].text
		switch {
		case a == "-" || a == "--":
			i++
			break options
		case strings.HasPrefix(a, "--"):
			if a == "--rcfile" || a == "--init-file" {
				i++
			}
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			takesValue := false
			for _, c := range a[1:] {
				switch c {
				case 'c':
					cmd = true
				case 's':
					stdin = true
				case 'o', 'O':
					takesValue = true
				}
			}
			if takesValue {
				i++
			}
		default:
			break options
		}
	}
	rest := args[min(i, len(args)):]
	switch {
	case cmd && len(rest) > 0:
		sc := &script{label: name + " -c", text: rest[0].text, words: []int{rest[0].word}}
		if len(rest) > 1 {
			// The words after the script are its $0, $1, ...: bound as
			// bash binds them (an assignment of BASH_ARGV0 sets $0), so
			// that `sh -c 'rm -rf "$1"' _ ~` reads as the rm of ~.
			var b strings.Builder
			b.WriteString("BASH_ARGV0=" + quoteWord(rest[1].text) + "\n")
			if len(rest) > 2 {
				b.WriteString("set --")
				for _, a := range rest[2:] {
					b.WriteString(" " + quoteWord(a.text))
				}
				b.WriteString("\n")
			}
			// The words themselves stay the outer command's: a
			// substitution in one runs in the outer shell.
			sc.text = b.String() + sc.text
		}
		return sc
	case cmd:
		return nil
	case haveStdin && (stdin || len(rest) == 0):
		return &script{label: name + " -s", stdin: true}
	case haveStdin && stdinFile(rest[0].text):
		return &script{label: name + " -s", stdin: true, words: []int{rest[0].word}}
	}
	return nil
}

// stdinFile reports whether a script file operand names standard input.
func stdinFile(name string) bool {
	switch name {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	}
	return false
}

// scriptCommand returns the command util-linux script(1) runs with -c
// CMD or --command CMD (through the user's shell; long options by any
// prefix, as script reads them), or nil if it runs an interactive shell;
// given reports -c or --command with or without its command (script then
// runs no shell on its input).
func scriptCommand(args []arg) (sc *script, given bool) {
	command := func(text string, word int) (*script, bool) {
		return &script{label: "script -c", text: text, words: []int{word}}, true
	}
	for i := 0; i < len(args); i++ {
		a := args[i].text
		switch {
		case a == "--":
			return nil, false
		case strings.HasPrefix(a, "--"):
			name, value, eq := strings.Cut(a[2:], "=")
			switch {
			case name != "" && strings.HasPrefix("command", name):
				if eq {
					return command(value, args[i].word)
				}
				if i+1 < len(args) {
					return command(args[i+1].text, args[i+1].word)
				}
				return nil, true
			case !eq && slices.Contains([]string{"echo", "log-in", "log-out", "log-io", "log-timing", "logging-format", "output-limit", "timing"}, name):
				i++
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'c':
					if j+1 < len(a) {
						return command(a[j+1:], args[i].word)
					}
					if i+1 < len(args) {
						return command(args[i+1].text, args[i+1].word)
					}
					return nil, true
				case 'E', 'I', 'O', 'B', 'T', 'm', 'o':
					if j+1 == len(a) {
						i++
					}
					j = len(a)
				}
			}
		}
	}
	return nil, false
}

// isAssignment reports whether w has the form NAME=VALUE.
func isAssignment(w string) bool {
	return strings.IndexByte(w, '=') > 0
}

// optionSet records the options a launcher was given.
type optionSet struct {
	short [256]bool // the short options given
	long  []string
}

// has reports whether the short option c or the long option long was given.
func (o optionSet) has(c byte, long string) bool {
	return o.short[c] || slices.Contains(o.long, long)
}

// options reads the launcher's options from the start of args and returns
// them and the words after them. It reports false if an option means that
// no command is run, or if an option lacks its value.
func (l *launch) options(args []arg) (optionSet, []arg, bool) {
	var opts optionSet
	for len(args) > 0 {
		a := args[0].text
		switch {
		case a == "--":
			return opts, args[1:], true
		case a == "-" && l.bareDash:
			args = args[1:]
			continue
		case len(a) < 2 || a[0] != '-':
			return opts, args, true
		case l.wordOpts:
			name := strings.TrimLeft(a, "-")
			args = args[1:]
			if slices.Contains(l.noRunLong, name) {
				return opts, nil, false
			}
			if slices.Contains(l.longArg, name) {
				if len(args) == 0 {
					return opts, nil, false
				}
				args = args[1:]
			}
			opts.long = append(opts.long, name)
			continue
		case strings.HasPrefix(a, "--"):
			name, value, hasValue := strings.Cut(a[2:], "=")
			args = args[1:]
			if slices.Contains(l.noRunLong, name) {
				return opts, nil, false
			}
			if !hasValue && slices.Contains(l.longArg, name) {
				if len(args) == 0 {
					return opts, nil, false
				}
				value, args = args[0].text, args[1:]
			}
			if name != "" && name == l.splitLong {
				args = splitArg(value, args)
			}
			opts.long = append(opts.long, name)
			continue
		}
		cluster := a[1:]
		args = args[1:]
		for i := 0; i < len(cluster); i++ {
			c := cluster[i]
			opts.short[c] = true
			if strings.IndexByte(l.noRun, c) >= 0 {
				return opts, nil, false
			}
			if strings.IndexByte(l.shortOpt, c) >= 0 {
				break
			}
			if strings.IndexByte(l.shortArg, c) < 0 {
				continue
			}
			value := cluster[i+1:]
			if value == "" {
				if len(args) == 0 {
					return opts, nil, false
				}
				value, args = args[0].text, args[1:]
			}
			if c == l.splitOpt {
				args = splitArg(value, args)
			}
			break
		}
	}
	return opts, args, true
}

// splitArg returns the words of value, as env -S splits them, followed by
// rest. The words are not tied to a syntax word, so that the word they come
// from is still searched for command substitutions even if some of them
// make a script.
func splitArg(value string, rest []arg) []arg {
	words, _ := splitWords(value, true)
	out := make([]arg, 0, len(words)+len(rest))
	for _, w := range words {
		out = append(out, arg{text: w, word: -1})
	}
	return append(out, rest...)
}

// quoteWord is w as one word of a shell line, as it is (nothing in it
// expands).
func quoteWord(w string) string {
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
