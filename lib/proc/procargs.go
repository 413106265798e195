//go:build linux || darwin

package proc

import (
	"bytes"
	"encoding/binary"
)

// procargsEnv is the environment in a kern.procargs2 buffer (macOS): the
// argument count (a 32-bit integer in the machine's order, little-endian
// on every Mac), the executable's path, NUL padding, the arguments, then
// the environment, each string ended by a NUL. The arguments are skipped:
// a token given as an argument does not make a process the run's. A
// buffer too short for what it claims has no environment.
func procargsEnv(b []byte) []byte {
	if len(b) < 4 {
		return nil
	}
	argc := int(binary.LittleEndian.Uint32(b))
	b = b[4:]
	// The executable's path, then its padding.
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return nil
	}
	b = b[i:]
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	for ; argc > 0; argc-- {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			return nil
		}
		b = b[i+1:]
	}
	return b
}

// startMicros is a start time (seconds and microseconds since the epoch)
// in microseconds, as the macOS walk compares them.
func startMicros(sec, usec int64) uint64 {
	if sec < 0 || usec < 0 {
		return 0
	}
	return uint64(sec)*1_000_000 + uint64(usec)
}
