package daemonserver

import (
	"errors"
	"net"
)

// tokenID is who a Windows process runs as: its user's SID (as a
// string), its token's integrity level, and whether the token is
// sandboxed (restricted, or an AppContainer's).
type tokenID struct {
	user      string
	integrity uint32
	sandboxed bool
}

// callerToken reads who runs the process at the other end of a named
// pipe connection (on Windows: the client's token, by impersonating it
// at the identification level). It is a function so that the decision
// around it is tested with fakes on any system.
type callerToken func(net.Conn) (tokenID, error)

// errNoSID is the error for a daemon that does not know its own SID.
var errNoSID = errors.New("the daemon's own SID is unknown")

// callerIs reports whether the caller at the other end of c, as read
// by read, is me: the same user SID at the same integrity level, both
// sandboxed or neither (a caller of another level, or a sandboxed one,
// would have its hooks run with more rights than its own). A caller
// whose token cannot be read is not.
func callerIs(c net.Conn, me tokenID, read callerToken) (bool, error) {
	if me.user == "" {
		return false, errNoSID
	}
	got, err := read(c)
	if err != nil {
		return false, err
	}
	return got == me, nil
}
