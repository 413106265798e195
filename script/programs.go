package script

import (
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
	consts []engine.Result // constant returns' results, by index
	// maps holds, per file and line, the Map of the program whose first
	// line that is (see shift).
	maps map[linePos]jsrewrite.Map
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
	if prog.inline != nil {
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
	res := constResult(keys, vals)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.consts = append(c.consts, res)
	return len(c.consts) - 1
}

// constResult returns the result of a constant return's index.
func (c *programs) constResult(idx int) (engine.Result, bool) {
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
