//go:build race

package bench

// raceEnabled: the race detector allocates on its own, so allocation
// counts are checked only without it.
const raceEnabled = true
