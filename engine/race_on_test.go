//go:build race

package engine_test

// raceAllocSlack: under the race detector sync.Pool drops a share of what
// is put back on purpose, so a fire that reuses pooled scratch allocates
// it anew now and then and a count of allocations varies by one.
const raceAllocSlack = 1
