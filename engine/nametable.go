package engine

import "math/bits"

// nameTable maps event names and aliases to IDs. It is an open-addressing
// table with a hash of the name's length and four of its bytes:
// for the short, distinct names of a catalog that beats a Go map lookup by
// a wide margin, which matters on the no-hook fast path. Immutable once
// built; safe for concurrent reads.
type nameTable struct {
	slots []nameSlot
	shift uint8
	// fallback is used instead when the names cluster so badly that
	// probing would be slow (many custom names alike where the hash looks).
	fallback map[string]EventID
}

// maxProbe bounds the probe sequence the table accepts.
const maxProbe = 8

type nameSlot struct {
	name string
	id   EventID
}

func newNameTable(names map[string]EventID) nameTable {
	size := 16
	for size < 4*len(names) {
		size <<= 1
	}
	t := nameTable{slots: make([]nameSlot, size), shift: uint8(64 - bits.TrailingZeros(uint(size)))}
	for n, id := range names {
		i := t.index(n)
		probes := 1
		for t.slots[i].name != "" {
			i = (i + 1) & (len(t.slots) - 1)
			probes++
		}
		if probes > maxProbe {
			return nameTable{fallback: names}
		}
		t.slots[i] = nameSlot{name: n, id: id}
	}
	return t
}

func (t *nameTable) index(s string) int {
	n := len(s)
	if n == 0 {
		return 0
	}
	h := uint64(n)<<32 | uint64(s[0])<<24 | uint64(s[n/2])<<16 | uint64(s[n-1])<<8 | uint64(s[n*3/4])
	return int(h * 0x9E3779B97F4A7C15 >> t.shift)
}

// lookup returns the ID of a name.
func (t *nameTable) lookup(s string) (EventID, bool) {
	if len(t.slots) == 0 {
		id, ok := t.fallback[s]
		return id, ok
	}
	mask := len(t.slots) - 1
	for i := t.index(s); ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.name == "" {
			return 0, false
		}
		if len(sl.name) == len(s) && sl.name == s {
			return sl.id, true
		}
	}
}
