//go:build darwin

package daemonserver

import (
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// peerIsMe reports whether the process at the other end of a unix socket
// connection runs as this user (LOCAL_PEERCRED, what getpeereid(3) reads
// on macOS).
func peerIsMe(c net.Conn) (bool, error) { return peerIs(c, os.Getuid(), localPeerCred) }

// mePeer is peerIsMe with this process's user read once, not on every
// connection.
func mePeer() func(net.Conn) (bool, error) {
	uid := os.Getuid()
	return func(c net.Conn) (bool, error) { return peerIs(c, uid, localPeerCred) }
}

// localPeerCred is the peer's effective user id by LOCAL_PEERCRED: the
// credentials the peer had when it connected.
func localPeerCred(fd int) (int, error) {
	x, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return -1, err
	}
	return xucredUID(x.Version, x.Uid)
}
