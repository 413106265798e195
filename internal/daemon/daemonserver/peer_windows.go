//go:build windows

package daemonserver

import (
	"errors"
	"fmt"
	"net"
	"runtime"

	"golang.org/x/sys/windows"

	"github.com/hookctl/hookctl/internal/daemon"
)

// procImpersonateNamedPipeClient is advapi32's ImpersonateNamedPipeClient,
// which golang.org/x/sys/windows does not wrap.
var procImpersonateNamedPipeClient = windows.NewLazySystemDLL("advapi32.dll").NewProc("ImpersonateNamedPipeClient")

// errNotPipe is the error for a connection that is no named pipe.
var errNotPipe = errors.New("not a named pipe")

// peerIsMe reports whether the client of a named pipe connection runs as
// this process's user at its integrity level (callerIs, over the
// client's token). It must be asked after the connection's first bytes
// were read: Windows lets a pipe server impersonate its client only then.
func peerIsMe(c net.Conn) (bool, error) {
	ti, err := daemon.TokenIdentity(windows.GetCurrentProcessToken())
	if err != nil {
		return false, err
	}
	return callerIs(c, tokenIDOf(ti), pipeClientToken)
}

// mePeer is peerIsMe with this process's token read once, not on every
// connection (a process's user, integrity level and sandbox do not
// change); if it cannot be read now, each connection reads it again.
func mePeer() func(net.Conn) (bool, error) {
	ti, err := daemon.TokenIdentity(windows.GetCurrentProcessToken())
	if err != nil {
		return peerIsMe
	}
	me := tokenIDOf(ti)
	return func(c net.Conn) (bool, error) { return callerIs(c, me, pipeClientToken) }
}

// pipeClientToken reads the token of the client of a pipe connection by
// impersonating it. The client connects at the identification level
// (daemon.CallContext): its token can be read, not used. This is the
// identity the connection was opened with, which the client cannot
// choose; the other way, the client's process id
// (GetNamedPipeClientProcessId) and that process's token, reads a
// process that may have exited and whose id was given to another (the
// pipe handle passed on to a child first), and needs the right to open
// the client's process.
func pipeClientToken(c net.Conn) (tokenID, error) {
	f, ok := c.(interface{ Fd() uintptr })
	if !ok {
		return tokenID{}, errNotPipe
	}
	tok, err := impersonationToken(windows.Handle(f.Fd()))
	if err != nil {
		return tokenID{}, err
	}
	defer tok.Close()
	ti, err := daemon.TokenIdentity(tok)
	return tokenIDOf(ti), err
}

func tokenIDOf(ti daemon.TokenInfo) tokenID {
	return tokenID{user: ti.SID, integrity: ti.Integrity, sandboxed: ti.Sandboxed}
}

// impersonationToken impersonates the client of the pipe h, opens the
// thread's token and reverts, on a goroutine of its own that ends right
// after: the thread is locked to that goroutine meanwhile, and should
// reverting fail it stays locked, so the runtime ends the thread with
// the goroutine rather than run other code as the client. (The caller's
// goroutine is a reused one, gopool.Pool: locked to a thread that is
// still the client, it would serve the next connections as the client.)
func impersonationToken(h windows.Handle) (windows.Token, error) {
	type result struct {
		tok windows.Token
		err error
	}
	done := make(chan result, 1)
	go func() {
		tok, err := impersonateOnThisThread(h)
		done <- result{tok, err}
	}()
	r := <-done
	return r.tok, r.err
}

// impersonateOnThisThread is impersonationToken on the calling
// goroutine, which must end when it returns.
func impersonateOnThisThread(h windows.Handle) (windows.Token, error) {
	if err := procImpersonateNamedPipeClient.Find(); err != nil {
		return 0, err
	}
	runtime.LockOSThread()
	if r, _, e := procImpersonateNamedPipeClient.Call(uintptr(h)); r == 0 {
		runtime.UnlockOSThread()
		return 0, fmt.Errorf("ImpersonateNamedPipeClient: %w", e)
	}
	var tok windows.Token
	err := windows.OpenThreadToken(windows.CurrentThread(), windows.TOKEN_QUERY, true, &tok)
	if rerr := windows.RevertToSelf(); rerr != nil {
		if err == nil {
			tok.Close()
		}
		return 0, fmt.Errorf("RevertToSelf: %w", rerr)
	}
	runtime.UnlockOSThread()
	if err != nil {
		return 0, fmt.Errorf("OpenThreadToken: %w", err)
	}
	return tok, nil
}
