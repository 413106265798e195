package builtin

import (
	"strings"

	"github.com/hookctl/hookctl/lib/shell"
)

// gitCall is a git command line split into its global options, its
// subcommand and the subcommand's arguments.
type gitCall struct {
	global []string // options before the subcommand, values included
	sub    string   // "" when there is none (git --version)
	args   []string // everything after the subcommand
}

// gitValueOpts are git's global options that take the next word as their
// value when not written --opt=value.
var gitValueOpts = map[string]bool{
	"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "--namespace": true,
	"--super-prefix": true, "--config-env": true, "--list-cmds": true, "--attr-source": true,
}

// parseGit splits the argv of a git segment.
func parseGit(argv []string) gitCall {
	var g gitCall
	i := 1
	for i < len(argv) {
		a := argv[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		g.global = append(g.global, a)
		i++
		if gitValueOpts[a] && i < len(argv) {
			g.global = append(g.global, argv[i])
			i++
		}
	}
	if i < len(argv) {
		g.sub = argv[i]
		g.args = argv[i+1:]
	}
	return g
}

// seg returns the subcommand as a segment of its own ("push --force ..."),
// so that Segment.Flag and Segment.Args apply to its arguments only.
func (g gitCall) seg() shell.Segment {
	return shell.Segment{Argv: append([]string{g.sub}, g.args...), Name: g.sub}
}
