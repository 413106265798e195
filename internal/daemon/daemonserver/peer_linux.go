//go:build linux

package daemonserver

import (
	"errors"
	"net"
	"os"
	"syscall"
)

// peerIsMe reports whether the process at the other end of a unix socket
// connection runs as this user (SO_PEERCRED).
func peerIsMe(c net.Conn) (bool, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return false, errors.New("not a unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return false, err
	}
	var cred *syscall.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return false, err
	}
	if serr != nil {
		return false, serr
	}
	return int(cred.Uid) == os.Getuid(), nil
}
