package claude

import (
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
// hookctl claude), and so do wrappers (exec, env, nohup, command).
func RunsHookctl(command string, args []string) bool {
	if args != nil {
		return runsHookctl(append([]string{command}, args...))
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		// Not a shell line we can read: look at its words.
		return runsHookctl(strings.Fields(command))
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok && !found {
			words := make([]string, len(call.Args))
			for i, w := range call.Args {
				var b strings.Builder
				syntax.NewPrinter().Print(&b, w)
				words[i] = strings.NewReplacer(`"`, "", `'`, "").Replace(b.String())
			}
			found = runsHookctl(words)
		}
		return !found
	})
	return found
}

func runsHookctl(words []string) bool {
	// Skip variable assignments and wrappers before the program.
	for len(words) > 0 && isPrefixWord(words[0]) {
		words = words[1:]
	}
	if len(words) == 0 {
		return false
	}
	name := filepath.Base(strings.ReplaceAll(words[0], `\`, "/"))
	if !hookctlPrograms[strings.ToLower(name)] {
		return false
	}
	if strings.HasPrefix(strings.ToLower(name), "hookctl-client") {
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
	switch w {
	case "exec", "env", "nohup", "command", "sudo":
		return true
	}
	return strings.HasPrefix(w, "-")
}
