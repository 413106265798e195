//go:build unix

package daemon

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"syscall"
)

func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// PeerIsMe reports whether the process at the other end of a unix socket
// connection runs as this user.
func PeerIsMe(c net.Conn) (bool, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return false, errors.New("not a unix socket")
	}
	uid, err := peerUID(uc)
	if err != nil {
		return false, err
	}
	return uid == os.Getuid(), nil
}
