package runtime

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/dirlist"
	"github.com/hookctl/hookctl/internal/filestamp"
	"github.com/hookctl/hookctl/script"
	"github.com/hookctl/hookctl/trust"
)

// Source is where a Runtime's engines come from: OneShot (a load per call,
// closed after it), a Cache (engines kept by configuration path while
// their files are unchanged: the daemon), or Watched (one engine that a
// watcher reloads, trust-gated on every load: hookctl serve).
type Source interface {
	// acquire returns the engine of one call, held until release.
	acquire(l *loader) (eng *engine.Engine, release func(), err error)
	// perCall reports whether each call discovers its configuration and
	// checks its trust (false: the source's loads are checked).
	perCall() bool
	// oneCall reports whether an engine serves one call only (it then
	// loads only the call's event and traces the call).
	oneCall() bool
	// listing is what the configuration's directories are listed
	// through on each call (nil: listed every time).
	listing() *dirlist.Cache
}

// OneShot loads the configuration for each call and closes it after.
func OneShot() Source { return oneShot{} }

type oneShot struct{}

func (oneShot) perCall() bool           { return true }
func (oneShot) oneCall() bool           { return true }
func (oneShot) listing() *dirlist.Cache { return nil }

func (oneShot) acquire(l *loader) (*engine.Engine, func(), error) {
	eng, cfg, err := l.load()
	if err != nil {
		return nil, nil, err
	}
	l.useState(eng, cfg)
	return eng, func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := eng.Close(closeCtx); err != nil {
			fmt.Fprintf(l.stderr, "hookctl: %v\n", err)
		}
		if st := cfg.ScriptStats(); st.Created > 0 && l.timer != nil {
			l.timer.Add("runtime", st.CreateTime)
		}
		cfg.Close()
		if l.state != nil {
			l.state.Close()
		}
	}, nil
}

// Watched serves every call with eng, whose configuration a watcher
// (assemble.Watch) loads and reloads, each load trust-gated by the
// watcher's gate: calls neither discover a configuration nor check trust.
func Watched(eng *engine.Engine) Source { return watched{eng} }

type watched struct{ eng *engine.Engine }

func (watched) perCall() bool           { return false }
func (watched) oneCall() bool           { return false }
func (watched) listing() *dirlist.Cache { return nil }

func (w watched) acquire(*loader) (*engine.Engine, func(), error) {
	return w.eng, func() {}, nil
}

// Gated is src while gate returns nil; while it returns an error, every
// call is answered with the host's block naming it and no hook runs
// (hookctl serve --bundle before any signed policy verified).
func Gated(src Source, gate func() error) Source { return gated{src, gate} }

type gated struct {
	Source
	gate func() error
}

func (g gated) acquire(l *loader) (*engine.Engine, func(), error) {
	if err := g.gate(); err != nil {
		return nil, nil, err
	}
	return g.Source.acquire(l)
}

// Cache keeps the engines it loaded, by configuration path, for as long
// as none of the files they were loaded from changed. It is safe for
// concurrent use. Close retires them all.
type Cache struct {
	mu sync.Mutex
	m  map[string]*cachedEngine
	// transforms keeps TypeScript and ES module transforms across the
	// reloads of a changed configuration.
	transforms *script.TransformCache
	// dirs lists the managed and user directories each call looks
	// for layers in, once per version of each.
	dirs *dirlist.Cache
	// now is the clock that tells whether a loaded configuration's
	// files have settled (time.Now; tests replace it).
	now func() time.Time
}

// CacheOption configures a Cache.
type CacheOption func(*Cache)

// WithListing lists the configuration's directories through ls (default
// dirlist.New()).
func WithListing(ls *dirlist.Cache) CacheOption { return func(c *Cache) { c.dirs = ls } }

// WithCacheClock sets the clock that tells whether a configuration's
// files have settled (default time.Now).
func WithCacheClock(now func() time.Time) CacheOption { return func(c *Cache) { c.now = now } }

// NewCache returns an empty cache.
func NewCache(opts ...CacheOption) *Cache {
	c := &Cache{dirs: dirlist.New(), now: time.Now}
	for _, o := range opts {
		o(c)
	}
	return c
}

func (*Cache) perCall() bool             { return true }
func (*Cache) oneCall() bool             { return false }
func (c *Cache) listing() *dirlist.Cache { return c.dirs }

// transformCache returns the transform cache every load shares.
func (c *Cache) transformCache() *script.TransformCache {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.transforms == nil {
		c.transforms = script.NewTransformCache(0, 0)
	}
	return c.transforms
}

type cachedEngine struct {
	eng    *engine.Engine
	cfg    *assemble.Config
	state  State // the engine's kv store, loop guard and audit
	stamps filestamp.Set
	refs   int
	stale  bool
}

// acquire returns the cached engine for the configuration's absolute path
// while its files are unchanged, else loads it (a path that has no
// absolute form is loaded for the call alone). The engine keeps the
// call's state, and its NATS connection, for the calls it serves. An
// engine is kept only when every file it was loaded from was last
// written a clock tick before the load began (filestamp.Settled): a file
// changed while it was loaded, or changed again within the tick of the
// file system's clock, may keep the stamp the cache would compare, and
// an engine kept under it would run without the change until some other
// file changed. Such an engine serves its call alone.
func (c *Cache) acquire(l *loader) (*engine.Engine, func(), error) {
	abs, err := layersKey(l.layers)
	if err != nil {
		return oneShot{}.acquire(l)
	}
	if ce := c.get(abs, l.known); ce != nil {
		if l.state != nil {
			l.state.Close() // the cached engine has its own
		}
		return ce.eng, func() { c.release(ce) }, nil
	}
	start := c.now()
	eng, cfg, err := l.load(assemble.WithScriptOptions(script.WithTransformCache(c.transformCache())))
	if err != nil {
		return nil, nil, err
	}
	l.useState(eng, cfg)
	ce := c.put(abs, eng, cfg, l.state, start)
	return eng, func() { c.release(ce) }, nil
}

// layersKey is the cache's key of a configuration: the absolute paths of
// its layers, joined by NUL (the absolute path alone for one layer). A
// path is made absolute as trust.Absolute does, not cleaned: link/../x is x in link's
// target's parent, as the system opens it, not the x beside link that
// the cleaned name reads as, and the two are two configurations.
func layersKey(layers []Layer) (string, error) {
	paths := make([]string, len(layers))
	for i, l := range layers {
		abs, err := trust.Absolute(l.Path)
		if err != nil {
			return "", err
		}
		paths[i] = abs
	}
	return strings.Join(paths, "\x00"), nil
}

// Lookup returns the engine cached for the absolute path abs and its
// state, held until release; ok is false when there is none or its files
// changed.
func (c *Cache) Lookup(abs string) (eng *engine.Engine, st State, release func(), ok bool) {
	ce := c.get(abs, nil)
	if ce == nil {
		return nil, nil, nil, false
	}
	return ce.eng, ce.state, func() { c.release(ce) }, true
}

// get returns the engine loaded from path if its files are unchanged,
// holding it until release. known are stamps of some of its files taken
// during this call (loader.known). The files are stamped outside the
// cache's lock, which other calls need meanwhile: the engine is held
// while its stamps are compared, and let go if they changed.
func (c *Cache) get(path string, known filestamp.Set) *cachedEngine {
	c.mu.Lock()
	ce := c.m[path]
	if ce == nil {
		c.mu.Unlock()
		return nil
	}
	ce.refs++
	c.mu.Unlock()
	if !ce.stamps.ChangedGiven(known) {
		return ce
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ce.refs--
	if !ce.stale {
		c.retire(path, ce)
	} else if ce.refs == 0 {
		go closeEngine(ce)
	}
	return nil
}

// put stores a freshly loaded engine (held once, for its first caller).
// An engine whose files have not settled since start, when its load
// began, is not kept: it is retired at once, and closed when its caller
// releases it.
func (c *Cache) put(path string, eng *engine.Engine, cfg *assemble.Config, state State, start time.Time) *cachedEngine {
	files := append(strings.Split(path, "\x00"), cfg.Files...)
	files = append(files, cfg.Refs()...)
	ce := &cachedEngine{eng: eng, cfg: cfg, state: state, stamps: filestamp.Take(files), refs: 1}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !ce.stamps.Settled(start, filestamp.SettleTick) {
		ce.stale = true
		return ce
	}
	if c.m == nil {
		c.m = map[string]*cachedEngine{}
	}
	if old := c.m[path]; old != nil {
		c.retire(path, old)
	}
	c.m[path] = ce
	return ce
}

// retire drops ce from the cache; it is closed once no call holds it.
func (c *Cache) retire(path string, ce *cachedEngine) {
	if c.m[path] == ce {
		delete(c.m, path)
	}
	ce.stale = true
	if ce.refs == 0 {
		go closeEngine(ce)
	}
}

func (c *Cache) release(ce *cachedEngine) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ce.refs--
	if ce.stale && ce.refs == 0 {
		go closeEngine(ce)
	}
}

// Close retires every engine; each is closed once no call holds it.
func (c *Cache) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for p, ce := range c.m {
		c.retire(p, ce)
	}
}

func closeEngine(ce *cachedEngine) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ce.eng.Close(ctx)
	ce.cfg.Close()
	if ce.state != nil {
		ce.state.Close()
	}
}
