//go:build race

package replay_test

// raceEnabled: the race detector makes a replay several times slower.
const raceEnabled = true
