package shell

import "slices"

// Chdir is a command met earlier in the line that may have changed the
// working directory of the shell that runs a segment: cd, pushd, popd or
// chdir. Commands in a subshell, a pipeline, a command substitution, a
// background job or a script given to another shell do not count for the
// commands after them; an eval's do, and a shell function's do where it is
// called.
type Chdir struct {
	// Argv is the command and its arguments as in Segment.Argv, such as
	// ["cd", ".."] or ["pushd", "-n", "/tmp"]. An empty Argv stands for
	// more directory changes than are tracked (see MaxChdirs): the
	// directory is unknown from there on.
	Argv []string

	// Literal is Segment.Literal of Argv: which words hold a $ or a
	// backquote of their own (see [Chdir.Plain]).
	Literal []bool

	// Assigns holds the VAR=value assignments that apply to the command,
	// as in Segment.Assigns, those of enclosing script layers included:
	// "HOME=/srv cd" goes to /srv, "OLDPWD=/x cd -" to /x.
	Assigns []string

	// Maybe reports whether the command may not have run, or may have
	// failed, on some way to the segment: in "cd x; rm y" and "cd x || rm y"
	// rm may run where cd failed, in "cd x && rm y" it may not; a cd inside
	// an if, a loop or a case branch may not have run.
	Maybe bool

	id int // identifies the command, to merge alternative ways
}

// Plain is Segment.Plain of the command's words: whether the shell
// expands nothing in word, one of Argv.
func (c Chdir) Plain(word string) bool { return plainWord(word, c.Argv, c.Literal) }

// MaxChdirs is the number of directory changes tracked before a segment;
// past it, a Chdir with an empty Argv says the directory is unknown.
const MaxChdirs = 64

// dirState is the list of directory changes that may have happened at a
// point of the walk. It is never modified in place: every change makes a
// new slice, so that states can be shared between frames and flows.
type dirState []Chdir

// flow is the directory state after a command: where it succeeded, and
// where it failed (which && and || tell apart).
type flow struct{ ok, fail dirState }

// same returns the flow of a command that does not change directory.
func same(d dirState) flow { return flow{d, d} }

// any returns the state after the command whatever its exit status.
func (f flow) any() dirState { return union(f.ok, f.fail) }

// export returns a deep copy of the state for a segment, nil if empty.
func (d dirState) export() []Chdir {
	if len(d) == 0 {
		return nil
	}
	out := make([]Chdir, len(d))
	for i, c := range d {
		out[i] = Chdir{Argv: slices.Clone(c.Argv), Literal: slices.Clone(c.Literal), Assigns: slices.Clone(c.Assigns), Maybe: c.Maybe, id: c.id}
	}
	return out
}

// push returns d followed by c (which is not Maybe), or d marked as
// overflowing when it already holds MaxChdirs changes.
func (d dirState) push(cs ...Chdir) dirState {
	out := slices.Clip(d)
	for _, c := range cs {
		if len(out) >= MaxChdirs {
			if last := out[len(out)-1]; len(last.Argv) != 0 {
				out = append(out, Chdir{id: -1})
			}
			break
		}
		out = append(out, c)
	}
	return slices.Clip(out)
}

// after returns the changes of d made after the state in, which it
// extends, or all of d if it does not.
func (d dirState) after(in dirState) []Chdir {
	if len(d) >= len(in) && sameSteps(d[:len(in)], in) {
		return d[len(in):]
	}
	return d
}

// sameSteps reports whether two states list the same changes.
func sameSteps(a, b dirState) bool {
	return slices.EqualFunc(a, b, func(x, y Chdir) bool { return x.id == y.id && x.Maybe == y.Maybe })
}

// union returns a state that covers every one of states: the changes they
// share, then the others marked Maybe. It over-approximates: a directory
// may appear that no real run reaches, never the reverse.
func union(states ...dirState) dirState {
	var out dirState
	for i, s := range states {
		if i == 0 {
			out = s
			continue
		}
		out = union2(out, s)
	}
	return out
}

// union2 is union of two states.
func union2(a, b dirState) dirState {
	if sameSteps(a, b) {
		return a
	}
	p := 0
	for p < len(a) && p < len(b) && a[p].id == b[p].id && a[p].Maybe == b[p].Maybe {
		p++
	}
	out := slices.Clone(a[:p])
	seen := make(map[int]bool, len(a)+len(b)-2*p)
	for _, part := range []dirState{a[p:], b[p:]} {
		for _, c := range part {
			if seen[c.id] && c.id >= 0 {
				continue
			}
			seen[c.id] = true
			c.Maybe = true
			if len(c.Argv) == 0 {
				c.Maybe = false // an overflow mark is never optional
			}
			out = out.push(c)
		}
	}
	return out
}

// chdirNames are the commands that change the shell's directory.
var chdirNames = map[string]bool{"cd": true, "pushd": true, "popd": true, "chdir": true}

// chdir returns the directories a command leaves, given the state in
// before it: a cd, pushd or popd run by the shell itself (not by sudo,
// env, xargs and the like, which run a program of that name that cannot
// change the shell's directory), or a call of a shell function whose body
// changes directory. outer are the assignments of enclosing script layers
// (HOME=/x bash -c 'cd').
func (w *walker) chdir(seg Segment, outer, wrappers []string, in dirState) flow {
	if len(seg.Argv) == 0 {
		return same(in)
	}
	for _, wr := range wrappers {
		if wr != "command" && wr != "builtin" {
			return same(in)
		}
	}
	if chdirNames[baseName(seg.Argv[0])] {
		w.steps++
		c := Chdir{Argv: slices.Clone(seg.Argv), Literal: slices.Clone(seg.Literal), Assigns: concat(outer, seg.Assigns), id: w.steps}
		return flow{ok: in.push(c), fail: in}
	}
	if steps, ok := w.funcs[seg.Argv[0]]; ok && len(steps) > 0 && len(wrappers) == 0 {
		calls := make([]Chdir, len(steps))
		for i, c := range steps {
			w.steps++
			calls[i] = Chdir{Argv: c.Argv, Literal: c.Literal, Assigns: c.Assigns, Maybe: len(c.Argv) != 0, id: w.steps}
		}
		return same(in.push(calls...))
	}
	return same(in)
}
