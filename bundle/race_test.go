//go:build race

package bundle

// raceEnabled: the race detector slows scrypt tenfold.
const raceEnabled = true
