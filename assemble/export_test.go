package assemble

import "time"

// ScriptRuntimes is how many script runtimes the configuration's pool
// holds or is making (-1 without a pool).
func ScriptRuntimes(c *Config) int {
	if c.pool == nil {
		return -1
	}
	return c.pool.Runtimes()
}

// EngineFieldSummaries are the summaries of the engine's problems by
// field.
var EngineFieldSummaries = summaries

// WithSettleTick sets the tick after which a watcher whose last load
// read unsettled files loads again (default filestamp.SettleTick).
func WithSettleTick(d time.Duration) WatchOption { return func(w *Watcher) { w.settleTick = d } }
