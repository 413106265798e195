// Command hookctl is the hookctl CLI: it simulates events against a hook
// configuration (fire), checks configurations (validate), lists hooks and
// events, plugs the engine into Claude Code (claude, serve), imports Claude
// Code settings and benchmarks configurations.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
