//go:build !race

package engine_test

// raceAllocSlack: without the race detector the pools keep what is put
// back, and allocation counts are exact.
const raceAllocSlack = 0
