package filestamp

import (
	"maps"
	"os"
	"slices"
	"time"
)

// Stamp is what a file looked like when it was stamped.
type Stamp struct {
	// ModTime and Size are the file's, when Exists.
	ModTime time.Time
	Size    int64
	// Exists is false for a file that could not be stat'ed (missing,
	// unreadable directory): such a file's stamp changes when it appears.
	Exists bool
	// ID is what tells a rewrite that kept the size and set the
	// modification time back (sed -i then touch -d, cp -p, rsync -a,
	// tar, coarse timestamps): on unix the device, inode and change
	// time (which touch cannot set back), elsewhere a hash of the
	// content.
	ID ID
}

// Of stamps one file (following symbolic links).
func Of(path string) Stamp {
	fi, err := os.Stat(path)
	if err != nil {
		return Stamp{}
	}
	return Stamp{ModTime: fi.ModTime(), Size: fi.Size(), Exists: true, ID: idOf(path, fi)}
}

// Equal reports whether two stamps are the same: both absent, or both
// present with the same modification time, size and ID.
func (s Stamp) Equal(o Stamp) bool {
	if !s.Exists || !o.Exists {
		return s.Exists == o.Exists
	}
	return s.Size == o.Size && s.ModTime.Equal(o.ModTime) && s.ID == o.ID
}

// Set is the stamps of a set of files, by path.
type Set map[string]Stamp

// Take stamps files.
func Take(files []string) Set {
	out := make(Set, len(files))
	for _, f := range files {
		out[f] = Of(f)
	}
	return out
}

// Files lists the stamped files, sorted.
func (s Set) Files() []string { return slices.Sorted(maps.Keys(s)) }

// Equal reports whether two sets stamp the same files the same way.
func (s Set) Equal(o Set) bool {
	if len(s) != len(o) {
		return false
	}
	for f, st := range s {
		if old, ok := o[f]; !ok || !old.Equal(st) {
			return false
		}
	}
	return true
}

// Changed stamps the set's files again and reports whether any differs:
// modified, grown or shrunk, removed, or appeared.
func (s Set) Changed() bool {
	for f, st := range s {
		if !Of(f).Equal(st) {
			return true
		}
	}
	return false
}
