package claude

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// hookctlPrograms are the names hookctl's own hook command runs under.
var hookctlPrograms = map[string]bool{
	"hookctl": true, "hookctl-client": true, "hookctl.exe": true, "hookctl-client.exe": true,
}

// hookctlHookCommands are the subcommands that fire hooks.
var hookctlHookCommands = map[string]bool{"claude": true, "hook": true, "fire": true}

// RunsHookctl reports whether a command hook (a shell line, or a program
// and its arguments when args is not nil) runs hookctl's own hook command
// (hookctl claude, hookctl hook, hookctl fire, or hookctl-client): what
// hookctl install registers. Imported into hookctl, such a hook would
// make hookctl call itself. Every command of a shell line counts (cd x &&
// hookctl claude), and so do wrappers given by name or path (exec, env,
// /usr/bin/env, nohup, command, setsid), a shell's command line (sh -c
// 'hookctl claude', bash -lc ...), and a program under another name or
// path that is this very binary (a symlink ./hc, looked up in PATH or
// against the current directory).
func RunsHookctl(command string, args []string) bool {
	if args != nil {
		return runsHookctl(append([]string{command}, args...), 0)
	}
	return runsLine(command, 0)
}

// maxNesting bounds how deep shell lines within shell lines are read.
const maxNesting = 8

// runsLine is RunsHookctl for a shell line, depth shells deep.
func runsLine(command string, depth int) bool {
	if depth > maxNesting {
		return false
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		// Not a shell line we can read: look at its words.
		return runsHookctl(strings.Fields(command), depth)
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok && !found {
			words := make([]string, len(call.Args))
			for i, w := range call.Args {
				var b strings.Builder
				wordText(&b, w.Parts)
				words[i] = b.String()
			}
			found = runsHookctl(words, depth)
		}
		return !found
	})
	return found
}

// wordText writes a word's text with its quotes removed; what the shell
// would expand ($VAR, $(cmd)) is written as the shell line has it.
func wordText(b *strings.Builder, parts []syntax.WordPart) {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			wordText(b, p.Parts)
		default:
			_ = syntax.NewPrinter().Print(b, p)
		}
	}
}

// shells are the programs whose -c argument is a shell line.
var shells = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "ash": true, "busybox": true}

func runsHookctl(words []string, depth int) bool {
	// Skip variable assignments and wrappers before the program.
	for len(words) > 0 && isPrefixWord(words[0]) {
		words = words[1:]
	}
	if len(words) == 0 {
		return false
	}
	name := strings.ToLower(filepath.Base(strings.ReplaceAll(words[0], `\`, "/")))
	if shells[name] {
		// sh -c LINE, bash -lc LINE, busybox sh -c LINE.
		for i := 1; i < len(words)-1; i++ {
			w := words[i]
			if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "c") {
				return runsLine(words[i+1], depth+1)
			}
		}
		return false
	}
	if !hookctlPrograms[name] {
		if !isThisBinary(words[0]) {
			return false
		}
		name = "hookctl"
	}
	if strings.HasPrefix(name, "hookctl-client") {
		return true // every call of the client is a hook call or the full binary's
	}
	for _, w := range words[1:] {
		if hookctlHookCommands[w] {
			return true
		}
	}
	return false
}

// isPrefixWord reports whether a word before a program is an assignment
// (NAME=value), a wrapper or a wrapper's option.
func isPrefixWord(w string) bool {
	if name, _, ok := strings.Cut(w, "="); ok && name != "" && strings.IndexFunc(name, func(r rune) bool {
		return !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) < 0 {
		return true
	}
	switch filepath.Base(w) {
	case "exec", "env", "nohup", "command", "sudo", "setsid", "nice", "builtin":
		return true
	}
	return strings.HasPrefix(w, "-")
}

// isThisBinary reports whether prog, a program as a hook names it, is
// the running hookctl binary or the hookctl-client beside it, under any
// name: a symlink or a copy's hard link. A name without a slash is looked
// up in PATH; a relative path is read against the current directory.
func isThisBinary(prog string) bool {
	if prog == "" || strings.ContainsAny(prog, "$`*?[") {
		return false
	}
	path := prog
	if !strings.ContainsRune(prog, '/') {
		p, err := exec.LookPath(prog)
		if err != nil {
			return false
		}
		path = p
	}
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	for _, self := range []string{exe, filepath.Join(filepath.Dir(exe), "hookctl-client")} {
		if me, err := os.Stat(self); err == nil && os.SameFile(fi, me) {
			return true
		}
	}
	return false
}
