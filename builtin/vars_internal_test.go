package builtin

import (
	"testing"
)

// TestResolveRefsIsBounded: values built from one another (x=$y$y...,
// y=$x$x...) grow eightfold a round; past maxVarLen a value is not kept
// and its variable is listed under "" (the guards then ask or refuse),
// where resolving them took seconds to minutes a line.
func TestResolveRefsIsBounded(t *testing.T) {
	g := &dangerGuard{home: "/home/dev", shell: newParser(nil, 0)}
	for _, line := range []string{
		`x=$y$y$y$y$y$y$y$y; y=$x$x$x$x$x$x$x$x; echo $x`,
		`x=$y$y$y$y$y$y$y$y$y$y$y$y$y$y$y$y; y=$x$x$x$x$x$x$x$x$x$x$x$x$x$x$x$x; rm -rf $x`,
		`a=$b$b; b=$c$c; c=$d$d; d=$e$e; e=$f$f; f=$g$g; g=$h$h; h=$a$a; cat $a`,
	} {
		segs, err := g.shell.Parse(line)
		if err != nil {
			t.Fatal(err)
		}
		vars := g.lineVars(segs, place{cwd: "/home/dev/p"})
		total := 0
		for name, vs := range vars {
			for _, v := range vs {
				if len(v) > maxVarLen {
					t.Errorf("%s: %s holds a value of %d bytes", line, name, len(v))
				}
				total += len(v)
			}
		}
		if total > 64*maxVarLen*maxVarValues {
			t.Errorf("%s: %d bytes of values", line, total)
		}
	}
}
