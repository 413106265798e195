// Package filestamp tells whether files changed by their stamps: the
// modification time and size of each, or its absence. A reloading watcher
// (assemble.Watcher) and an engine cache (the daemon's) stamp the files a
// configuration was loaded from and load it again when a stamp differs.
//
// A stamp is cheap (one stat) and misses a rewrite that keeps both the
// size and the modification time; callers that must not miss one hash the
// content instead.
package filestamp
