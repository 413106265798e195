package builtin

import (
	"slices"
	"strings"

	"github.com/hookctl/hookctl/lib/paths"
	"github.com/hookctl/hookctl/lib/shell"
)

// cmdParser parses command lines through the shared cache. Under rules
// that fold case (Windows, macOS) a command's name is read as the system
// finds the program: folded, and without .exe (Rm and RM.EXE run rm there).
// The cache's segments are shared: a line with a name to fold gets copies.
type cmdParser struct {
	c    *shell.Cache
	fold bool
}

func newParser(c *shell.Cache, sys paths.System) cmdParser {
	return cmdParser{c: c, fold: sys.FoldsCase()}
}

// Parse is shell.Cache.Parse, with names folded where the system folds them.
func (p cmdParser) Parse(line string) ([]shell.Segment, error) {
	segs, err := p.c.Parse(line)
	if !p.fold || err != nil {
		return segs, err
	}
	var out []shell.Segment
	for i := range segs {
		n := foldName(segs[i].Name)
		if n == segs[i].Name {
			continue
		}
		if out == nil {
			out = slices.Clone(segs)
		}
		out[i].Name = n
	}
	if out == nil {
		return segs, nil
	}
	return out, nil
}

// foldName is a command name as a case-folding system finds its program.
func foldName(n string) string {
	for i := 0; i < len(n); i++ {
		if c := n[i]; 'A' <= c && c <= 'Z' || c >= 0x80 || c == '.' {
			return strings.TrimSuffix(strings.ToLower(n), ".exe")
		}
	}
	return n
}
