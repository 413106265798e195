package daemonserver

import (
	"errors"
	"fmt"
	"net"
)

// peerUID reads the user id of the process at the other end of a
// connected unix socket, given the socket's descriptor: SO_PEERCRED on
// Linux, LOCAL_PEERCRED on macOS. It is a function so that the check
// around it is tested with a fake on any system.
type peerUID func(fd int) (uid int, err error)

// errNotUnix is the error for a connection that is no unix socket (an
// in-memory pipe): no kernel can name its peer.
var errNotUnix = errors.New("not a unix socket")

// peerIs reports whether the process at the other end of c runs as uid,
// as read by creds. A connection whose peer cannot be read is not.
func peerIs(c net.Conn, uid int, creds peerUID) (bool, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return false, errNotUnix
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return false, err
	}
	peer, cerr := -1, error(nil)
	if err := raw.Control(func(fd uintptr) { peer, cerr = creds(int(fd)) }); err != nil {
		return false, err
	}
	if cerr != nil {
		return false, cerr
	}
	return peer >= 0 && peer == uid, nil
}

// xucredVersion is XUCRED_VERSION of <sys/ucred.h>: the only layout of
// struct xucred a kernel has given so far.
const xucredVersion = 0

// xucredUID is the effective user id in a struct xucred (LOCAL_PEERCRED
// on macOS and FreeBSD), refused when the structure is of another
// version than the one this code reads.
func xucredUID(version, uid uint32) (int, error) {
	if version != xucredVersion {
		return -1, fmt.Errorf("LOCAL_PEERCRED: xucred version %d, want %d", version, xucredVersion)
	}
	return int(uid), nil
}
