//go:build !unix

package safefile

// nonblock is 0 where open(2) has no O_NONBLOCK; the type checks still
// refuse what is not a regular file.
const nonblock = 0
