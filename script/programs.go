package script

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsrewrite"
)

// programs is what a pool compiled, immutable once added and shared by
// every runtime: the programs, the result keys and constant results the
// rewritten code refers to by index, and the position maps. It is
// safe for concurrent use.
type programs struct {
	mu     sync.Mutex
	list   []*Program
	keys   resultKeys
	consts []*engine.PreparedResult // constant returns' results, read once, by index
	// maps holds, per file and line, the Map of the program whose first
	// line that is (see shift).
	maps map[linePos]jsrewrite.Map
	// inline holds the Map of each inline JavaScript body by the name it
	// is compiled under (inlineName): its positions are the body's own,
	// line 1 its first, and the Map makes them the file's.
	inline map[string]jsrewrite.Map
	// pos maps source-mapped and inline positions to the author's, and
	// knows the programs' loops (srcpos.go).
	pos positions
}

type linePos struct {
	file string
	line int
}

// add registers a compiled program.
func (c *programs) add(prog *Program) *Program {
	c.mu.Lock()
	defer c.mu.Unlock()
	prog.id = len(c.list)
	c.list = append(c.list, prog)
	if prog.inline != nil && prog.compiledAs == "" {
		// Stack frames name a file and a line: the map of the program
		// whose first line that is.
		c.addMapLocked(prog.Map)
	}
	return prog
}

// files returns the script files compiled.
func (c *programs) files() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, prog := range c.list {
		if prog.Path != "" {
			out = append(out, prog.Path)
		}
	}
	return out
}

// addMap records where the positions of a program's first line come from.
func (c *programs) addMap(m jsrewrite.Map) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.addMapLocked(m)
}

func (c *programs) addMapLocked(m jsrewrite.Map) {
	if c.maps == nil {
		c.maps = map[linePos]jsrewrite.Map{}
	}
	c.maps[linePos{m.File, m.Line}] = m
}

// inlineName reserves the name an inline body of file written from line
// on is compiled under: its stack frames and errors name it, and
// original maps it back through the body's Map (setInline). A second
// body on the same line gets a name of its own, and so does one whose
// name is a file's (a script named "hooks.hcl#L3" keeps its positions).
// The name is in dir, the configuration directory, whatever file's path
// is relative to: require resolves a relative module against the
// directory of the code that calls it, which for an inline body is the
// configuration directory, wherever the process's working directory is.
func (c *programs) inlineName(file, dir string, line int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inline == nil {
		c.inline = map[string]jsrewrite.Map{}
	}
	at := file
	if dir != "" {
		at = filepath.Join(dir, filepath.Base(file))
	}
	base := at + "#L" + strconv.Itoa(line)
	name := base
	for n := 2; ; n++ {
		if _, taken := c.inline[name]; !taken {
			if _, err := os.Lstat(name); err != nil {
				break
			}
		}
		name = base + "." + strconv.Itoa(n)
	}
	c.inline[name] = jsrewrite.Map{File: file, Line: line}
	return name
}

// setInline records the Map of the code compiled under an inline name.
func (c *programs) setInline(name string, m jsrewrite.Map) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inline[name] = m
}

// inlineMap returns the Map of a name inlineName gave.
func (c *programs) inlineMap(name string) (jsrewrite.Map, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := c.inline[name]
	return m, ok
}

// shift returns the columns generated code takes in front of the author's
// on file:line, for error positions (the Map of the program whose first
// line that is).
func (c *programs) shift(file string, line int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.maps[linePos{file, line}].Shift
}

// addKey interns a result key and returns its index.
func (c *programs) addKey(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i, ok := c.keys.index[name]; ok {
		return i
	}
	if c.keys.index == nil {
		c.keys.index = map[string]int{}
	}
	var names []string
	if cur := c.keys.names.Load(); cur != nil {
		names = append(names, (*cur)...)
	}
	names = append(names, name)
	c.keys.names.Store(&names)
	c.keys.index[name] = len(names) - 1
	return len(names) - 1
}

// addConst registers the result of a constant return (see constHelper)
// and returns its index, or -1 for a literal too large to build here.
func (c *programs) addConst(keys []string, vals []any) int {
	if len(keys) > maxConstKeys {
		return -1
	}
	// Read once here: every call that returns it gives the engine this
	// very map, which nothing changes (a script sees a frozen token).
	pr := engine.PrepareResult(constResult(keys, vals))
	c.mu.Lock()
	defer c.mu.Unlock()
	c.consts = append(c.consts, pr)
	return len(c.consts) - 1
}

// constResult returns the result of a constant return's index.
func (c *programs) constResult(idx int) (*engine.PreparedResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if idx < 0 || idx >= len(c.consts) {
		return nil, false
	}
	return c.consts[idx], true
}

// keyNames returns the interned result keys, by index (none before the
// first is interned: a pool whose only returns are `return {}`).
func (c *programs) keyNames() []string {
	if names := c.keys.names.Load(); names != nil {
		return *names
	}
	return nil
}
