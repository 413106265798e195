package filestamp

import "time"

// Settled reports whether the file was last written (its modification
// time and, where the stamp has one, its change time) at least tick
// before at, the moment just before the file was read. Only then does a
// later write in place certainly get another stamp: two writes within
// one tick of the file system's clock (a coarse kernel clock, a file
// system with 1 or 2 second times) can leave the size, modification time,
// change time and inode as they were. A cache keyed by a stamp that is
// not settled must read the file again. A time in the future (another
// machine's clock, on a network file system) is not settled.
func (s Stamp) Settled(at time.Time, tick time.Duration) bool {
	if !s.Exists {
		return false
	}
	limit := at.Add(-tick)
	if !s.ModTime.Before(limit) {
		return false
	}
	if c, ok := s.ID.changed(); ok && !c.Before(limit) {
		return false
	}
	return true
}

// SettleTick is the tick Settled is given by hookctl's caches: longer
// than the clock of any file system a configuration lives on (FAT keeps
// modification times to 2 seconds).
const SettleTick = 3 * time.Second

// Settled reports whether every file of the set that exists is settled
// (Stamp.Settled); a missing file has nothing to settle: its appearance
// changes its stamp.
func (s Set) Settled(at time.Time, tick time.Duration) bool {
	for _, st := range s {
		if st.Exists && !st.Settled(at, tick) {
			return false
		}
	}
	return true
}
