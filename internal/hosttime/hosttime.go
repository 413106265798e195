package hosttime

import (
	"errors"
	"time"
)

// Env is the environment variable that sets the host's timeout when
// --host-timeout is not given.
const Env = "HOOKCTL_HOST_TIMEOUT"

// MaxMargin bounds Margin.
const MaxMargin = 5 * time.Second

// Margin is how much sooner than a host's timeout hookctl answers: a
// tenth of the timeout, at most MaxMargin (5 s of Gemini CLI's 60 s,
// 200 ms of a 2 s timeout). Half of it is left for the hooks' processes
// to be killed, the rest for the reply to reach the host.
func Margin(hostTimeout time.Duration) time.Duration { return min(hostTimeout/10, MaxMargin) }

// Deadline is how long hookctl lets its hooks run under a host that waits
// hostTimeout for the reply: hostTimeout less Margin.
func Deadline(hostTimeout time.Duration) time.Duration { return hostTimeout - Margin(hostTimeout) }

// Backstop is how long a caller that relays the answer of another process
// (hookctl-client, of the daemon or of the hookctl it runs) waits for it
// before it answers the host's block itself: hostTimeout less a quarter
// of Margin. The other process answers by Deadline plus half the margin
// (its hooks killed); the last quarter is for the caller's own block to
// reach the host.
func Backstop(hostTimeout time.Duration) time.Duration {
	return hostTimeout - Margin(hostTimeout)/4
}

// ErrInvalid is a host timeout that is not a positive duration.
var ErrInvalid = errors.New("want a positive duration (60s, 1500ms)")

// Parse reads a host timeout as --host-timeout and HOOKCTL_HOST_TIMEOUT
// give it: a positive duration, else ErrInvalid.
func Parse(value string) (time.Duration, error) {
	d, err := time.ParseDuration(value)
	if err != nil || d <= 0 {
		return 0, ErrInvalid
	}
	return d, nil
}
