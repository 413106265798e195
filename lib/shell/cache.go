package shell

import "sync"

// DefaultCacheSize is the number of command lines a Cache remembers.
const DefaultCacheSize = 512

// Cache memoizes Parse. Several hooks that look at the same command line —
// the guards of one PreToolUse, then PermissionRequest and PostToolUse of
// the same call — parse it once. The segments it returns are shared: they
// must not be modified. A Cache is safe for concurrent use; the zero value
// is not usable, make one with NewCache.
type Cache struct {
	mu   sync.Mutex
	max  int
	m    map[string]cached
	prev map[string]cached
}

type cached struct {
	segs []Segment
	err  error
}

// NewCache returns a cache of about size command lines (DefaultCacheSize
// when size <= 0).
func NewCache(size int) *Cache {
	if size <= 0 {
		size = DefaultCacheSize
	}
	return &Cache{max: size, m: make(map[string]cached, size)}
}

// Parse is Parse, remembered. Lines longer than 64 KiB are not cached.
func (c *Cache) Parse(cmdline string) ([]Segment, error) {
	if c == nil || len(cmdline) > 64<<10 {
		return Parse(cmdline)
	}
	c.mu.Lock()
	e, ok := c.m[cmdline]
	if !ok {
		if e, ok = c.prev[cmdline]; ok {
			c.m[cmdline] = e
		}
	}
	c.mu.Unlock()
	if ok {
		return e.segs, e.err
	}
	segs, err := Parse(cmdline)
	c.mu.Lock()
	if len(c.m) >= c.max {
		// Two generations: the older half is dropped at once, keeping
		// lines used since the last rotation.
		c.prev, c.m = c.m, make(map[string]cached, c.max)
	}
	c.m[cmdline] = cached{segs, err}
	c.mu.Unlock()
	return segs, err
}
