package dirlist

import (
	"errors"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/hookctl/hookctl/internal/filestamp"
)

// settleTick is how long after its last change a directory's stamp is
// trusted to change with the next one: longer than the tick of any file
// system's clock (FAT keeps modification times to 2 seconds).
const settleTick = filestamp.SettleTick

// maxListed bounds the directories a Cache keeps (the managed directory,
// its drop-ins and a user directory per environment a process answers).
const maxListed = 64

// Cache keeps the listings of directories, each for as long as the
// directory's stamp is the one it had when listed. A nil *Cache lists on
// every call. A Cache is safe for concurrent use.
type Cache struct {
	mu    sync.Mutex
	dirs  map[string]listed
	stamp func(string) filestamp.Stamp
	// stat is stamp with the error of a directory it cannot stamp.
	stat func(string) (filestamp.Stamp, error)
	now  func() time.Time
	read func(string) ([]string, error)
}

type listed struct {
	stamp filestamp.Stamp
	names []string
}

// Option configures a Cache.
type Option func(*Cache)

// WithStamp stamps directories with stamp instead of filestamp.Of (tests
// play a file system whose clock is coarse with it).
func WithStamp(stamp func(dir string) filestamp.Stamp) Option {
	return func(c *Cache) {
		c.stamp = stamp
		c.stat = func(dir string) (filestamp.Stamp, error) { return stamp(dir), nil }
	}
}

// WithReadDir lists directories with read instead of os.ReadDir's names
// (tests make a listing fail with it).
func WithReadDir(read func(dir string) ([]string, error)) Option {
	return func(c *Cache) { c.read = read }
}

// WithClock reads the time from now instead of time.Now.
func WithClock(now func() time.Time) Option { return func(c *Cache) { c.now = now } }

// New returns an empty Cache.
func New(opts ...Option) *Cache {
	c := &Cache{dirs: map[string]listed{}, stamp: filestamp.Of, stat: filestamp.OfErr, now: time.Now, read: read}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Names returns the names of the entries of dir, sorted, as os.ReadDir
// lists them, and its error. The directory is listed again unless its
// stamp is the one it had when a settled listing of it was kept; a
// directory that cannot be stamped or listed is never kept. The slice is
// shared: do not change it.
func (c *Cache) Names(dir string) ([]string, error) {
	if c == nil {
		return read(dir)
	}
	before, err := c.stat(dir)
	if !before.Exists {
		c.forget(dir)
		if errors.Is(err, fs.ErrNotExist) {
			// Not there: its listing would say so again, at the cost of
			// a system call on every call. Any other error is the
			// listing's own.
			return nil, err
		}
		return c.read(dir)
	}
	c.mu.Lock()
	e, ok := c.dirs[dir]
	c.mu.Unlock()
	if ok && e.stamp.Equal(before) {
		return e.names, nil
	}
	start := c.now()
	names, err := c.read(dir)
	if err != nil {
		c.forget(dir)
		return nil, err
	}
	// Kept only if the directory did not change while it was read and no
	// change within the clock's tick can hide behind its stamp.
	if after := c.stamp(dir); after.Equal(before) && after.Settled(start, settleTick) {
		c.mu.Lock()
		if _, known := c.dirs[dir]; !known && len(c.dirs) >= maxListed {
			clear(c.dirs)
		}
		c.dirs[dir] = listed{stamp: after, names: names}
		c.mu.Unlock()
	} else {
		c.forget(dir)
	}
	return names, nil
}

func (c *Cache) forget(dir string) {
	c.mu.Lock()
	delete(c.dirs, dir)
	c.mu.Unlock()
}

// read lists dir's names, sorted (os.ReadDir opens a directory without
// trying the poller, and sorts).
func read(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, nil
}
