package filestamp

import (
	"io/fs"
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
	s, _ := OfErr(path)
	return s
}

// OfErr is Of with the error of a file that could not be stat'ed.
func OfErr(path string) (Stamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Stamp{}, err
	}
	return Stamp{ModTime: fi.ModTime(), Size: fi.Size(), Exists: true, ID: idOf(path, fi)}, nil
}

// OfInfo is Of from fi, what a stat of the file at path returned just
// now (the fstat(2) of the file a caller opened): no second system call.
func OfInfo(path string, fi fs.FileInfo) Stamp {
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
func (s Set) Changed() bool { return s.ChangedGiven(nil) }

// ChangedGiven is Changed with the stamps of now, files the caller
// stamped just now (OfInfo of a file it opened), taken as they are
// instead of stamping those files again.
func (s Set) ChangedGiven(now Set) bool {
	for f, st := range s {
		cur, ok := now[f]
		if !ok {
			cur = Of(f)
		}
		if !cur.Equal(st) {
			return true
		}
	}
	return false
}
