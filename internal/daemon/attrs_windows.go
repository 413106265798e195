//go:build windows

package daemon

import (
	"fmt"
	"strconv"
	"unsafe"

	"golang.org/x/sys/windows"
)

// ProcessAttrs is, on Windows, the integrity level of this process's
// token ("integrity=8192" for medium): a process passes no umask or
// resource limits to the programs it starts, but its integrity level,
// and an elevated caller must not have its hooks run by a daemon that is
// not (nor the other way round). It keeps such callers' daemons apart;
// the daemon checks the caller's real token, never this text.
func ProcessAttrs() string {
	_, il, err := TokenIdentity(windows.GetCurrentProcessToken())
	if err != nil {
		return "integrity=?"
	}
	return "integrity=" + strconv.FormatUint(uint64(il), 10)
}

// ClientProcessAttrs is ProcessAttrs.
func ClientProcessAttrs() string { return ProcessAttrs() }

// TokenIdentity is who a token runs as: its user's SID, as a string, and
// its integrity level (the last sub-authority of its mandatory label:
// 0x2000 medium, 0x3000 high).
func TokenIdentity(t windows.Token) (sid string, integrity uint32, err error) {
	u, err := t.GetTokenUser()
	if err != nil {
		return "", 0, fmt.Errorf("reading the token's user: %w", err)
	}
	n := uint32(64)
	for {
		buf := make([]byte, n)
		err = windows.GetTokenInformation(t, windows.TokenIntegrityLevel, &buf[0], n, &n)
		if err == windows.ERROR_INSUFFICIENT_BUFFER && n > uint32(len(buf)) {
			continue
		}
		if err != nil {
			return "", 0, fmt.Errorf("reading the token's integrity level: %w", err)
		}
		label := (*windows.Tokenmandatorylabel)(unsafe.Pointer(&buf[0]))
		ls := label.Label.Sid
		if ls == nil || ls.SubAuthorityCount() == 0 {
			return "", 0, fmt.Errorf("the token's integrity label has no level")
		}
		return u.User.Sid.String(), ls.SubAuthority(uint32(ls.SubAuthorityCount()) - 1), nil
	}
}
