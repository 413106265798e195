// Package gopool runs functions on reused goroutines whose stacks have
// already grown: the daemon's connections and the runtime's calls under
// a host's deadline each run on one.
package gopool
