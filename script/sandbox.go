package script

import (
	"path/filepath"
	"strings"

	"github.com/dop251/goja_nodejs/require"
)

// Sandbox is the policy of what a pool's scripts may reach: the
// configuration directory, which relative requires resolve in and which
// module files must stay inside, and the roots files may be read from (the
// configuration directory, the project, settings.roots). What a hook may
// do beyond reading (exec, net, write) is its allow list (VM.Allowed).
// A Sandbox is immutable once its pool is built.
type Sandbox struct {
	dir   string
	roots []string
}

// Dir returns the configuration directory.
func (sb *Sandbox) Dir() string { return sb.dir }

// Roots returns the directories scripts may read.
func (sb *Sandbox) Roots() []string { return append([]string(nil), sb.roots...) }

// module reports whether a module file (its real path) may be loaded.
func (sb *Sandbox) module(real string) bool { return within(sb.dir, real) }

// within reports whether path is dir or inside it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Within reports whether path is inside one of the roots, after
// resolving symbolic links of the part that exists.
func (sb *Sandbox) Within(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	real := resolveExisting(abs)
	for _, r := range sb.roots {
		if within(r, real) {
			return true
		}
	}
	return false
}

// resolveExisting resolves symbolic links in the longest existing prefix of
// path, so a file that does not exist yet is judged by its real directory.
func resolveExisting(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	dir, base := filepath.Split(path)
	dir = filepath.Clean(dir)
	if dir == path {
		return path
	}
	return filepath.Join(resolveExisting(dir), base)
}

// resolvePath resolves a require path; code that is not itself a module
// (an inline handler) resolves against the configuration directory.
func (sb *Sandbox) resolvePath(base, path string) string {
	switch {
	case filepath.IsAbs(filepath.FromSlash(path)):
		base = ""
	case base == "" || base == ".":
		base = sb.dir
	case !filepath.IsAbs(base):
		base = filepath.Join(sb.dir, base)
	}
	return require.DefaultPathResolver(base, path)
}
