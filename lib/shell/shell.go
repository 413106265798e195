package shell

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Segment is one simple command of a command line, after unwrapping.
type Segment struct {
	// Argv is the command and its arguments as the shell would pass them,
	// with quotes and escapes removed. Parameter expansions, command
	// substitutions and arithmetic are not evaluated: they are kept as their
	// source text, such as "$HOME", "${X}" or "$(date)". A tilde is kept as
	// "~", and globs and brace expansions are kept as written.
	Argv []string

	// Literal tells, for each word of Argv, whether a $ or a backquote in
	// it is a character of the word rather than the start of an expansion:
	// the word was quoted or escaped ('/srv/$x', \$x, "a\$b") or its $
	// starts nothing (//server/c$/x). It is nil when no word holds such a
	// character. Words the shell's grammar did not give (split by env -S,
	// or from a line that is not valid bash) are never marked. See
	// [Segment.Plain].
	Literal []bool

	// Name is the base name of Argv[0] ("/usr/bin/rm" gives "rm"), or ""
	// when Argv is empty, as for a bare assignment "FOO=1" or a bare
	// redirection "> file".
	Name string

	// Assigns holds the VAR=value assignments that apply to the command:
	// those written before it, those of unwrapped launchers such as
	// "env FOO=1" or "sudo FOO=1", and those of any enclosing script layer.
	Assigns []string

	// Wrappers lists the launchers that were peeled off to reach this
	// command, outermost first, e.g. ["sudo", "bash -c"]. A shell given its
	// script with -c is recorded as "bash -c", one reading a here-document
	// or here-string as "bash -s", a flock running a string as "flock -c",
	// arguments run by eval as "eval", the script of a trap as "trap", and
	// the bash keyword form of time as "time". Other launchers are recorded by their base name.
	Wrappers []string

	// Launchers holds, for each launcher peeled off this command itself
	// (not those of enclosing script layers), its words up to the command,
	// outermost first: "sudo -u root xargs -0 rm" gives [["sudo", "-u",
	// "root"], ["xargs", "-0"]], so that a caller can read a launcher's
	// options (xargs -a FILE reads its arguments from a file, not from
	// standard input). Words that env -S split off are included.
	Launchers [][]string

	// Op tells how this segment is joined to the previous one: "" for the
	// first segment of a list, or one of ";", "&&", "||", "|", "|&", "&"
	// and "\n". A list is the whole command line, or the body of a command
	// substitution, a process substitution or an eval; a bash -c script
	// replaces the segment that ran it and continues its list. Lists that
	// begin after a keyword (then, else, do, and later case branches) are
	// joined with ";".
	Op string

	// Subshell reports whether the command runs in a nested shell: inside
	// ( ... ), $( ... ), `...`, <( ... ) or >( ... ), a coproc, or a script
	// given to bash -c, a shell's standard input, eval, trap, watch or flock -c.
	Subshell bool

	// Redirects lists the redirections that apply to the command, those of
	// enclosing compound commands and script layers first, then its own.
	Redirects []Redirect

	// Dirs lists the directory changes (cd, pushd, popd) that may have run
	// before the command in its shell, in order, so that a caller that
	// knows the directory the line starts in can tell where the command
	// runs: in "cd .. && rm -rf shop" rm runs in the parent directory, in
	// "(cd /tmp); rm -rf x" in the starting one. Changes that may not have
	// happened are marked [Chdir.Maybe]; a caller must then consider both
	// directories. Empty when the command runs where the line starts.
	Dirs []Chdir

	// Func reports whether Argv[0] names a shell function that the line
	// defined before the command, so that its arguments are the function's
	// positional parameters ("f() { rm -rf \"$1\"; }; f build").
	Func bool
}

// Redirect is one input or output redirection, such as "> out.log",
// "2>&1" or "<<EOF".
type Redirect struct {
	// Op is the redirection operator: ">", ">>", "<", "<>", ">&", "<&",
	// ">|", "<<", "<<-", "<<<", "&>" or "&>>".
	Op string
	// Fd is the file descriptor written before the operator, "2" in "2>&1",
	// or "" when none was written and the operator's default applies.
	Fd string
	// Target is the word after the operator: a file name, a descriptor
	// ("1" in "2>&1"), the here-document delimiter, or the here-string.
	Target string
	// Body is the text of a here-document (<< and <<-), with expansions
	// kept as source text; "" for other redirections.
	Body string
	// Literal reports, for a here-document, whether its delimiter is
	// quoted ('EOF', "EOF", \EOF), so that the shell passes Body as
	// written, without expansions or backslash escapes.
	Literal bool
}

// String returns the redirection in shell syntax, such as "2>&1" or
// ">> out.log".
func (r Redirect) String() string {
	switch r.Op {
	case ">&", "<&":
		return r.Fd + r.Op + r.Target
	}
	return r.Fd + r.Op + " " + r.Target
}

// Parse parses cmdline as bash and returns every simple command in it, in
// source order, including those nested in subshells, command and process
// substitutions, compound commands, function bodies, shell -c scripts and
// eval arguments. Launchers such as sudo or env are unwrapped as described
// in the package documentation.
//
// Parse returns an error, which includes the line and column, only when
// cmdline is not valid bash. A script nested in the line (the argument of
// bash -c, for example) that is not valid bash does not make Parse fail:
// its commands are found with the conservative tokenizer that [Commands]
// falls back to.
func Parse(cmdline string) ([]Segment, error) {
	file, err := parseBash(cmdline)
	if err != nil {
		return nil, fmt.Errorf("shell: %w", err)
	}
	var w walker
	w.stmts(file.Stmts, topFrame(cmdline))
	if w.tooDeep {
		return nil, ErrTooDeep
	}
	return w.segs, nil
}

// ErrTooDeep is returned by Parse for a line whose command substitutions
// nest more than 64 deep, which no real command does: walking such a line
// costs the square of its length.
var ErrTooDeep = errors.New("shell: command substitutions nested too deeply")

// Commands returns the Name of every segment of cmdline, in source order,
// leaving out segments without a command (bare assignments and
// redirections). Names repeat if a command occurs more than once.
//
// When cmdline is not valid bash, Commands falls back to a conservative
// tokenizer: it splits the line on ;, &&, ||, |, &, newlines and
// parentheses without regard to quoting, splits each piece into words, and
// unwraps launchers as [Parse] does. A malformed line thus never yields
// nothing, and may yield words from inside quoted text.
func Commands(cmdline string) []string {
	var w walker
	file, err := parseBash(cmdline)
	if err == nil {
		w.stmts(file.Stmts, topFrame(cmdline))
	}
	if err != nil || w.tooDeep {
		w = walker{}
		w.fallback(cmdline, topFrame(cmdline))
	}
	names := make([]string, 0, len(w.segs))
	for _, s := range w.segs {
		if s.Name != "" {
			names = append(names, s.Name)
		}
	}
	return names
}

// HasCommand reports whether cmdline runs any of the named commands, as
// found by [Commands]. Names are compared by base name, so "rm" and
// "/bin/rm" are the same.
func HasCommand(cmdline string, names ...string) bool {
	if len(names) == 0 {
		return false
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[baseName(n)] = true
	}
	for _, c := range Commands(cmdline) {
		if want[c] {
			return true
		}
	}
	return false
}

// Flag reports whether any of the named flags occurs among the segment's
// arguments, before a "--" that ends the options.
//
// A name of one letter after a single dash, such as "-r", is a short flag
// and is also found inside combined flags: "-rf" and "-fr" both contain
// "-r" and "-f". Any other name, such as "--force" or find's "-delete",
// must match an argument exactly; a long flag also matches when given a
// value, as in "--force=yes". A name without a leading dash is taken as a
// short flag if it is one character long and as a long flag otherwise.
//
// Flag does not know which options of a command take a value, so the value
// of an option that has it attached ("-ofile") is read as more flags.
func (s Segment) Flag(names ...string) bool {
	if len(s.Argv) < 2 {
		return false
	}
	for _, a := range s.Argv[1:] {
		if a == "--" {
			return false
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		for _, n := range names {
			if flagMatches(a, n) {
				return true
			}
		}
	}
	return false
}

// flagMatches reports whether the argument arg, which starts with a dash,
// is or contains the flag name.
func flagMatches(arg, name string) bool {
	switch {
	case name == "" || name == "-" || name == "--":
		return false
	case !strings.HasPrefix(name, "-"):
		if len(name) == 1 {
			name = "-" + name
		} else {
			name = "--" + name
		}
	}
	if len(name) == 2 && name[1] != '-' {
		return !strings.HasPrefix(arg, "--") && strings.IndexByte(arg[1:], name[1]) >= 0
	}
	if strings.HasPrefix(name, "--") {
		// getopt_long, git and most GNU tools take any unambiguous
		// prefix of a long option (--re for --recursive): a prefix of
		// two letters or more counts, ambiguous or not.
		opt, _, _ := strings.Cut(arg, "=")
		return opt == name || len(opt) >= 4 && strings.HasPrefix(opt, "--") && strings.HasPrefix(name, opt)
	}
	return arg == name
}

// Plain reports whether the shell expands no parameter, command
// substitution or arithmetic in word, one of the segment's Argv: word
// holds no $ and no backquote, or every word of Argv with that text is
// marked Literal. A word that is not in Argv and holds $ or a backquote is
// not plain.
func (s Segment) Plain(word string) bool {
	return plainWord(word, s.Argv, s.Literal)
}

// plainWord is Segment.Plain of argv and literal.
func plainWord(word string, argv []string, literal []bool) bool {
	if !strings.ContainsAny(word, "$`") {
		return true
	}
	found := false
	for i, a := range argv {
		if a != word {
			continue
		}
		if i >= len(literal) || !literal[i] {
			return false
		}
		found = true
	}
	return found
}

// Args returns the segment's arguments, Argv[1:], without the flags: words
// that start with a dash are left out, except "-" itself, until a "--",
// which is left out too and after which every word is kept.
//
// Args does not know which options take a value, so in "head -n 5 file"
// it returns ["5", "file"].
func (s Segment) Args() []string {
	if len(s.Argv) < 2 {
		return nil
	}
	var out []string
	flags := true
	for _, a := range s.Argv[1:] {
		if flags {
			if a == "--" {
				flags = false
				continue
			}
			if len(a) > 1 && a[0] == '-' {
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// parseBash parses src as a bash program, ignoring comments.
func parseBash(src string) (*syntax.File, error) {
	if strings.IndexByte(src, '\r') >= 0 {
		// bash reads a carriage return as a character of a word, not as
		// a blank ("echo x\r#; rm -rf ~" runs rm: the # is in a word);
		// the parser takes it for a blank. Another byte of a word in its
		// place keeps every offset.
		src = strings.ReplaceAll(src, "\r", "\x1a")
	}
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
}

// baseName returns the last element of a command path, or "" for "".
func baseName(p string) string {
	if p == "" {
		return ""
	}
	return path.Base(p)
}
