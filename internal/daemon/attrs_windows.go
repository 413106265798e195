//go:build windows

package daemon

import (
	"fmt"
	"strconv"
	"unsafe"

	"golang.org/x/sys/windows"
)

// ProcessAttrs is, on Windows, the integrity level of this process's
// token ("integrity=8192" for medium, " sandboxed" added for a restricted
// or AppContainer token): a process passes no umask or resource limits
// to the programs it starts, but its token's level and restrictions, and
// an elevated caller must not have its hooks run by a daemon that is not
// (nor a sandboxed caller by one that is not). It keeps such callers'
// daemons apart; the daemon checks the caller's real token, never this
// text.
func ProcessAttrs() string {
	ti, err := TokenIdentity(windows.GetCurrentProcessToken())
	if err != nil {
		return "integrity=?"
	}
	s := "integrity=" + strconv.FormatUint(uint64(ti.Integrity), 10)
	if ti.Sandboxed {
		s += " sandboxed"
	}
	return s
}

// ClientProcessAttrs is ProcessAttrs.
func ClientProcessAttrs() string { return ProcessAttrs() }

// TokenInfo is who a token runs as, as the daemon compares it.
type TokenInfo struct {
	// SID is the token's user, as a string.
	SID string
	// Integrity is its integrity level: the last sub-authority of its
	// mandatory label (0x2000 medium, 0x3000 high).
	Integrity uint32
	// Sandboxed is a restricted token (restricting SIDs) or one of an
	// AppContainer: a process that may open less than its user.
	Sandboxed bool
}

// tokenIsAppContainer is TOKEN_INFORMATION_CLASS's TokenIsAppContainer
// (after TokenLogonSid), which golang.org/x/sys/windows does not name.
const tokenIsAppContainer = 29

// TokenIdentity reads a token's TokenInfo.
func TokenIdentity(t windows.Token) (TokenInfo, error) {
	u, err := t.GetTokenUser()
	if err != nil {
		return TokenInfo{}, fmt.Errorf("reading the token's user: %w", err)
	}
	restricted, err := t.IsRestricted()
	if err != nil {
		return TokenInfo{}, fmt.Errorf("reading whether the token is restricted: %w", err)
	}
	var appContainer uint32
	var m uint32
	if err := windows.GetTokenInformation(t, tokenIsAppContainer, (*byte)(unsafe.Pointer(&appContainer)), 4, &m); err != nil {
		return TokenInfo{}, fmt.Errorf("reading whether the token is an AppContainer's: %w", err)
	}
	il, err := tokenIntegrity(t)
	if err != nil {
		return TokenInfo{}, err
	}
	return TokenInfo{SID: u.User.Sid.String(), Integrity: il, Sandboxed: restricted || appContainer != 0}, nil
}

// tokenIntegrity is the integrity level of a token.
func tokenIntegrity(t windows.Token) (uint32, error) {
	n := uint32(64)
	for {
		buf := make([]byte, n)
		err := windows.GetTokenInformation(t, windows.TokenIntegrityLevel, &buf[0], n, &n)
		if err == windows.ERROR_INSUFFICIENT_BUFFER && n > uint32(len(buf)) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("reading the token's integrity level: %w", err)
		}
		label := (*windows.Tokenmandatorylabel)(unsafe.Pointer(&buf[0]))
		ls := label.Label.Sid
		if ls == nil || ls.SubAuthorityCount() == 0 {
			return 0, fmt.Errorf("the token's integrity label has no level")
		}
		return ls.SubAuthority(uint32(ls.SubAuthorityCount()) - 1), nil
	}
}
