//go:build unix

package safefile

import "syscall"

// nonblock makes open(2) of a FIFO or a device return at once.
const nonblock = syscall.O_NONBLOCK | syscall.O_NOCTTY
