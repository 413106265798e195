//go:build !unix

package daemon

import (
	"errors"
	"io/fs"
	"net"
)

func ownedByMe(fs.FileInfo) bool { return true }

// PeerIsMe is false where unix sockets are not available.
func PeerIsMe(net.Conn) (bool, error) { return false, errors.New("unix sockets are not available") }
