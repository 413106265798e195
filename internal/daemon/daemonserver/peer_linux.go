//go:build linux

package daemonserver

import (
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// peerIsMe reports whether the process at the other end of a unix socket
// connection runs as this user (SO_PEERCRED).
func peerIsMe(c net.Conn) (bool, error) { return peerIs(c, os.Getuid(), soPeerCred) }

// mePeer is peerIsMe with this process's user read once, not on every
// connection.
func mePeer() func(net.Conn) (bool, error) {
	uid := os.Getuid()
	return func(c net.Conn) (bool, error) { return peerIs(c, uid, soPeerCred) }
}

// soPeerCred is the peer's user id by SO_PEERCRED: the credentials the
// peer had when it connected.
func soPeerCred(fd int) (int, error) {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}
