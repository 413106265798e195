// Package hosttime is the arithmetic of a host's timeout that every
// transport of a hook call shares: how much sooner than the host's
// timeout hookctl answers (Margin), the deadline its hooks get
// (Deadline), the later one a caller relaying another process's answer
// gives up by (Backstop), and the HOOKCTL_HOST_TIMEOUT variable's reading
// (Parse). It is pure and links only the standard library's time and
// errors, so that hookctl-client, which links little, computes the same
// deadlines as the runtime.
package hosttime
