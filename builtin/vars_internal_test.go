package builtin

import (
	"math/rand/v2"
	"strings"
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

// TestUsesVarCoversVarUseRe: usesVar, which spares unknownIn a regular
// expression per variable and word, finds every use varUseRe finds, and
// the parameter expansions of a variable besides.
func TestUsesVarCoversVarUseRe(t *testing.T) {
	names := []string{"@", "1", "0", "10", "a", "ab", "a_1", "HOME"}
	parts := []string{"$", "{", "}", "[", "]", "a", "b", "1", "0", "@", "*", ":-", "#", "/", "_", "x", " ", "!", "ab", "HOME"}
	rng := rand.New(rand.NewPCG(7, 28))
	for range 40000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		w := b.String()
		for _, name := range names {
			if varUseRe(name).MatchString(w) && !usesVar(w, name) {
				t.Fatalf("%q uses %s (varUseRe), usesVar says no", w, name)
			}
		}
	}
	for _, c := range []struct {
		w, name string
		want    bool
	}{
		{"${c:-x}", "c", true}, {"${c#-}", "c", true}, {"$cd", "c", false}, {"${cd}", "c", false},
		{"$10", "10", false}, {"${10}", "10", true}, {"$1x", "1", true}, {"x$@y", "@", true},
	} {
		if got := usesVar(c.w, c.name); got != c.want {
			t.Errorf("usesVar(%q, %q) = %v, want %v", c.w, c.name, got, c.want)
		}
	}
}

// TestPrinted: what echo and printf print, as bash's builtins do, and
// false where the guard cannot work it out (never the words as written).
func TestPrinted(t *testing.T) {
	for _, c := range []struct {
		argv []string
		want string
		ok   bool
	}{
		{[]string{"echo", "-rf", "~"}, "-rf ~", true},
		{[]string{"echo", "-n", "-e", `\x2drf`}, "-rf", true},
		{[]string{"echo", `\x2drf`}, "", false}, // xpg_echo would read it
		{[]string{"echo", "-E", `\x2drf`}, `\x2drf`, true},
		{[]string{"echo", "-eE", `\x2d`}, `\x2d`, true},
		{[]string{"printf", "--", "-rf"}, "-rf", true},
		{[]string{"printf", `\x2drf`}, "-rf", true},
		{[]string{"printf", `\055rf`}, "-rf", true},
		{[]string{"printf", `rm %s %s\n`, "-rf", "~"}, "rm -rf ~\n", true},
		{[]string{"printf", `%s\n`, "a", "b"}, "a\nb\n", true},
		{[]string{"printf", `%b`, `\0055rf`}, "-rf", true},
		{[]string{"printf", "%c%s", "-x", "rf"}, "-rf", true},
		{[]string{"printf", "%5s", "x"}, "", false},
		{[]string{"printf", "%d", "1"}, "", false},
		{[]string{"echo", "-e", `a\cb`}, "", false},
		{[]string{"printf", "-v", "x", "%s", "y"}, "", true},
		{[]string{"echo", "-e", `x\0176`}, "x~", true},
		{[]string{"echo", "-e", `\055rf`}, "-rf", true},
		{[]string{"echo", "-e", `\176`}, `\176`, true},
		{[]string{"printf", "%b", `\56env`}, ".env", true},
		{[]string{"printf", `x \a#y`}, "x \a#y", true},
		{[]string{"printf", `rm \"$HOME\"`}, `rm "$HOME"`, true},
		{append([]string{"printf", strings.Repeat("x", 1000) + "%s"}, strings.Fields(strings.Repeat("y ", 100))...), "", false},
	} {
		got, ok := printed(c.argv)
		if got != c.want || ok != c.ok {
			t.Errorf("%q: %q %v, want %q %v", c.argv, got, ok, c.want, c.ok)
		}
	}
}
