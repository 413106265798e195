package paths

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Env is the environment the functions read when a caller leaves a
// directory out: the variables (HOME) and the working directory. The
// zero Env is the process's.
type Env struct {
	// Getenv reads a variable (os.Getenv when nil).
	Getenv func(string) string
	// Getwd returns the working directory (os.Getwd when nil).
	Getwd func() (string, error)
}

// Option sets the environment of a call.
type Option func(*Env)

// WithGetenv makes the call read variables with getenv instead of the
// process's environment: the environment of the request being answered.
func WithGetenv(getenv func(string) string) Option { return func(e *Env) { e.Getenv = getenv } }

// WithGetwd makes the call take the working directory from getwd instead
// of the process's.
func WithGetwd(getwd func() (string, error)) Option { return func(e *Env) { e.Getwd = getwd } }

func envOf(opts []Option) Env {
	var e Env
	for _, o := range opts {
		o(&e)
	}
	return e
}

// Home returns the home directory: $HOME; on Windows %USERPROFILE%, and
// $HOME only when it is not set (Node, Python, Go and OpenSSH read the
// profile there, so ~\.ssh is where they look whatever a shell set $HOME
// to). Without an environment given (WithGetenv), and with neither set
// in the process's, the OS's idea of it.
func Home(opts ...Option) string {
	e := envOf(opts)
	if e.Getenv != nil {
		return home(e.Getenv, hostWindows)
	}
	if h := home(os.Getenv, hostWindows); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

func home(getenv func(string) string, win bool) string {
	if win {
		if h := getenv("USERPROFILE"); h != "" {
			return h
		}
	}
	return getenv("HOME")
}

// QuoteMeta returns s as a glob pattern that matches only s, for Match
// and for path.Match: its *, ?, [, ], {, } and \ are escaped (Match reads
// a backslash in a path as a slash: write a name with slashes for it, as
// ExpandPattern does). A directory joined into a pattern (a home, a
// working directory) is a name, not a pattern: /srv/p[1] must not stand
// for /srv/p1.
func QuoteMeta(s string) string {
	if !strings.ContainsAny(s, `*?[]{}\`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ExpandPattern is Expand for a Match pattern: the home directory put in
// place of ~ is written with slashes (Match reads a backslash in a path as
// one) and quoted (QuoteMeta), so that it matches only itself. home ""
// means Home(opts...).
func ExpandPattern(pattern, home string, opts ...Option) string {
	if home == "" {
		home = Home(opts...)
	}
	if home == "" {
		return pattern
	}
	return Expand(pattern, QuoteMeta(strings.ReplaceAll(home, `\`, "/")))
}

// Expand replaces a leading ~ or ~/ and $HOME / ${HOME} with the home
// directory. home "" means Home(opts...).
func Expand(p, home string, opts ...Option) string {
	if home == "" {
		home = Home(opts...)
	}
	switch {
	case p == "~":
		return home
	case strings.HasPrefix(p, "~/"):
		return home + p[1:]
	case p == "$HOME" || p == "${HOME}":
		return home
	case strings.HasPrefix(p, "$HOME/"):
		return home + p[len("$HOME"):]
	case strings.HasPrefix(p, "${HOME}/"):
		return home + p[len("${HOME}"):]
	}
	return p
}

// Normalize cleans a path lexically and turns backslashes into slashes.
// On Windows it also drops what Windows ignores in a name when it opens a
// file: a :stream (id_rsa::$DATA) and trailing dots and spaces; a UNC
// path keeps its \\server\share (as //server/share).
func Normalize(p string) string { return normalize(p, hostWindows) }

// Resolve makes p absolute against cwd after expanding ~ (home "" means
// Home(opts...)), and cleans it. cwd "" means the working directory of the
// environment (WithGetwd; the process's by default).
//
// On Windows, C:\x and \\server\share\x are absolute, \x is on cwd's
// drive, and ~\x is under the home directory too.
func Resolve(p, cwd, home string, opts ...Option) string {
	return Host.Resolve(p, cwd, home, opts...)
}

// Inside reports whether p is root or lies under it, lexically (after
// cleaning both; on Windows and macOS, regardless of case: System.Equal). Use Real first to see
// through symbolic links (and, on Windows, short 8.3 names).
func Inside(p, root string) bool { return Host.Inside(p, root) }

// Real resolves symbolic links in the longest existing prefix of an
// absolute path, so a file that does not exist yet is judged by its real
// directory.
func Real(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return filepath.ToSlash(r)
	}
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	if dir == p || dir == "." || dir == "" {
		return filepath.ToSlash(p)
	}
	return path.Join(Real(dir), base)
}

// Match reports whether p matches a glob pattern: * and ? within a path
// segment, ** across segments, {a,b} alternatives, [...] classes. A pattern
// without a slash matches the base name anywhere (as in .gitignore), so
// "*.pem" matches "/home/u/keys/a.pem". An invalid pattern matches nothing.
//
// On Windows and macOS the match ignores case (System.Equal's folding;
// on macOS Unicode normalisation too), and on Windows p is normalized first (a :stream and trailing dots and spaces of its names
// dropped).
//
// A backslash in p is read as a separator (a Windows host sends
// C:\repo\.env and src\app\main.go): "**/.env" matches C:\repo\.env on
// every platform. On Unix, where a backslash is also a legal character of
// a file name, p matches when either its raw form or its slash form does,
// so a guard's deny is never narrowed by the reading: "/x/.env\foo" (one
// file named .env\foo) matches ".env*" as its raw form, and "**/.env" as
// its slash form. An allow list must hold for every form (MatchEvery).
//
// On Windows a device path on a volume that names no drive
// (\\?\Volume{GUID}\x: System.UnmappedDevice) may be any drive's file:
// an absolute pattern matches it as if it were on the pattern's drive or
// share (C:/vault/** matches \\?\Volume{GUID}\vault\key).
func Match(pattern, p string) bool { return Host.Match(pattern, p) }

// Match is Match under s's rules.
func (s System) Match(pattern, p string) bool {
	s = s.rules()
	if s != Windows && strings.Contains(p, `\`) && matchRaw(s.foldPattern(pattern), s.Fold(p)) {
		return true
	}
	if match(pattern, p, s) {
		return true
	}
	if s == Windows && s.UnmappedDevice(p) {
		// A device path on a volume with no drive may be any drive's:
		// read it on the pattern's.
		pv, _ := winVolume(pattern)
		_, rest := winVolume(normalize(p, true))
		if pv != "" && !strings.HasPrefix(pv, "//?/") {
			return match(pattern, pv+rest, s)
		}
	}
	return false
}

// MatchEvery reports whether every reading of p (on Unix its raw form
// and its slash form; on Windows its one form) matches one of the
// patterns: the test for an allow list that exempts a path from a guard,
// so that an exemption never covers a form the guard denies.
func MatchEvery(patterns []string, p string) bool { return Host.MatchEvery(patterns, p) }

// MatchEvery is MatchEvery under s's rules.
func (s System) MatchEvery(patterns []string, p string) bool {
	s = s.rules()
	if s != Windows && strings.Contains(p, `\`) && !slices.ContainsFunc(patterns, func(pat string) bool { return matchRaw(s.foldPattern(pat), s.Fold(p)) }) {
		return false
	}
	return slices.ContainsFunc(patterns, func(pat string) bool { return match(pat, p, s) })
}

// matchRaw is match on Unix with p's backslashes kept as characters of
// its names (doublestar reads a backslash in a pattern as an escape, never
// in the path).
func matchRaw(pattern, p string) bool { return matchForm(pattern, p, false) }

// match is Match of p's slash form under the rules s (not Host): on
// Windows p is normalized first, and names are compared by their Fold
// keys where s folds case.
func match(pattern, p string, s System) bool {
	p = strings.ReplaceAll(p, `\`, "/")
	win := s == Windows
	if win && p != "" {
		p = normalize(p, true)
	}
	return matchForm(s.foldPattern(pattern), s.Fold(p), win)
}

// matchForm matches p as it is given: a pattern without a slash against
// its base name, an absolute one against the whole path, a relative one
// with a slash at any depth.
func matchForm(pattern, p string, win bool) bool {
	if !strings.Contains(pattern, "/") {
		ok, _ := doublestar.Match(pattern, path.Base(p))
		return ok
	}
	if strings.HasPrefix(pattern, "**/") || isAbs(pattern, win) == isAbs(p, win) {
		if ok, _ := doublestar.Match(pattern, p); ok {
			return true
		}
	}
	if !isAbs(pattern, win) && !strings.HasPrefix(pattern, "**/") {
		// A relative pattern with a slash matches at any depth.
		ok, _ := doublestar.Match("**/"+pattern, p)
		return ok
	}
	return false
}

// MatchAny reports whether p matches any of the patterns.
func MatchAny(patterns []string, p string) bool {
	for _, pat := range patterns {
		if Match(pat, p) {
			return true
		}
	}
	return false
}

// ValidPattern reports whether a glob pattern is well formed
// (PatternError).
func ValidPattern(pattern string) bool { return PatternError(pattern) == nil }

// PatternError says why a glob pattern is not one Match can use, or nil.
// Besides a malformed pattern, a backslash before a letter or a digit
// (C:\Users\*\.ssh\**) is refused: a \ in a pattern is an escape, so
// such a pattern, written with Windows separators, would load and never
// match the paths it names.
func PatternError(pattern string) error {
	if !doublestar.ValidatePattern(pattern) {
		return errors.New("not a valid glob")
	}
	for i := 0; i+1 < len(pattern); i++ {
		if pattern[i] != '\\' {
			continue
		}
		if c := pattern[i+1]; 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			return fmt.Errorf("a \\ in a glob is an escape, not a separator: write the path with / (%q)", strings.ReplaceAll(pattern, `\`, "/"))
		}
		i++ // an escaped character
	}
	return nil
}

// Base, Dir and Ext are path.Base, path.Dir and path.Ext on slash paths.
func Base(p string) string { return path.Base(strings.ReplaceAll(p, `\`, "/")) }

// Dir returns all but the last element of p.
func Dir(p string) string { return path.Dir(strings.ReplaceAll(p, `\`, "/")) }

// Ext returns the file name extension of p, with its dot.
func Ext(p string) string { return path.Ext(strings.ReplaceAll(p, `\`, "/")) }
