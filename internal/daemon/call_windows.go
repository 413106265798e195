//go:build windows

package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

// callerChecked says whether the daemon's transport, with its caller
// checked, is available: yes, named pipes whose caller's token the
// daemon reads (Supported).
const callerChecked = true

// dialTimeout bounds the wait for a pipe instance of a busy daemon.
const dialTimeout = 2 * time.Second

// socketPath is the pipe whose key is key under dir (PipeDir).
func socketPath(dir, key string) string { return pipeName(dir, key) }

// osDir is Dir on Windows: the prefix of this user's daemons' pipes.
func osDir() (string, bool, error) {
	sid, err := MySID()
	if err != nil {
		return "", true, err
	}
	dir, err := PipeDir(sid)
	return dir, true, err
}

// MySID is the user SID of this process's token, as a string.
func MySID() (string, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return "", fmt.Errorf("reading this process's user: %w", err)
	}
	return u.User.Sid.String(), nil
}

// live counts the pipes under dir: a named pipe exists only while a
// process holds it, so a daemon that was killed leaves none.
func live(dir string) int {
	pattern, err := windows.UTF16PtrFromString(pipeRoot + "*")
	if err != nil {
		return 0
	}
	var fd windows.Win32finddata
	h, err := windows.FindFirstFile(pattern, &fd)
	if err != nil {
		return 0
	}
	defer windows.FindClose(h)
	var names []string
	for {
		names = append(names, windows.UTF16ToString(fd.FileName[:]))
		if windows.FindNextFile(h, &fd) != nil {
			break
		}
	}
	return countPipes(names, dir)
}

// Call sends req to the daemon at the named pipe pipe and returns its
// response.
func Call(pipe string, req *Request) (*Response, error) {
	return CallContext(context.Background(), pipe, req)
}

// CallContext is Call whose caller can give up. It connects at the
// identification level (the daemon can read who calls, not act as the
// caller), checks that the pipe is owned by this user before it writes
// anything (another user may have created the name first), and, when ctx
// ends, closes its writing side (a zero-byte message, which the daemon
// reads as the end of its input: the call given up); the response the
// daemon still sends (its block) is read and returned.
func CallContext(ctx context.Context, pipe string, req *Request) (*Response, error) {
	conn, err := dialMine(ctx, pipe, windows.GENERIC_READ|windows.GENERIC_WRITE)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := WriteRequest(conn, req); err != nil {
		return nil, err
	}
	if ctx.Done() != nil {
		cw, ok := conn.(interface{ CloseWrite() error })
		if !ok {
			return nil, errors.New("daemon: the pipe is not in message mode (no way to give a call up)")
		}
		closed := make(chan struct{})
		stop := context.AfterFunc(ctx, func() {
			defer close(closed)
			cw.CloseWrite()
		})
		defer func() {
			if !stop() {
				<-closed // not closed under CloseWrite
			}
		}()
	}
	return readReply(conn)
}

// myIdentity is who this process runs as; an empty SID when its token
// cannot be read (checkPipeServer then refuses every server).
func myIdentity() serverIdentity {
	ti, err := TokenIdentity(windows.GetCurrentProcessToken())
	if err != nil {
		return serverIdentity{}
	}
	return serverIdentity{SID: ti.SID, Integrity: ti.Integrity, Sandboxed: ti.Sandboxed}
}

// pipeServer reads who runs the process serving the pipe conn is
// connected to (GetNamedPipeServerProcessId, then that process's token).
// While the connection is open the server holds the pipe, so the process
// id names it.
func pipeServer(conn any) (serverIdentity, error) {
	f, ok := conn.(interface{ Fd() uintptr })
	if !ok {
		return serverIdentity{}, errors.New("not a pipe handle")
	}
	var pid uint32
	if err := windows.GetNamedPipeServerProcessId(windows.Handle(f.Fd()), &pid); err != nil {
		return serverIdentity{}, err
	}
	p, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return serverIdentity{}, err
	}
	defer windows.CloseHandle(p)
	var tok windows.Token
	if err := windows.OpenProcessToken(p, windows.TOKEN_QUERY, &tok); err != nil {
		return serverIdentity{}, err
	}
	defer tok.Close()
	ti, err := TokenIdentity(tok)
	if err != nil {
		return serverIdentity{}, err
	}
	return serverIdentity{SID: ti.SID, Integrity: ti.Integrity, Sandboxed: ti.Sandboxed}, nil
}

// pipeOwner is the owner SID of the pipe conn is connected to.
func pipeOwner(conn any) (string, error) {
	f, ok := conn.(interface{ Fd() uintptr })
	if !ok {
		return "", errors.New("not a pipe handle")
	}
	sd, err := windows.GetSecurityInfo(windows.Handle(f.Fd()), windows.SE_KERNEL_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return "", err
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return "", err
	}
	if owner == nil {
		return "", errors.New("no owner")
	}
	return owner.String(), nil
}

// PipeServed reports (nil) whether a daemon of this user serves the pipe:
// it accepts a connection, the pipe is owned by this user and the process
// serving it runs as this one does (dialMine).
func PipeServed(ctx context.Context, pipe string) error {
	conn, err := dialMine(ctx, pipe, windows.GENERIC_READ)
	if err != nil {
		return err
	}
	return conn.Close()
}

// dialMine connects to pipe at the identification level (the server can
// read the caller's token, not act with it) and returns the connection
// only when the pipe is owned by this user (ErrNotMyPipe) and the process
// serving it runs as this one does (ErrNotMyDaemon): nothing is written to
// a pipe that another user, or a process of this user at another
// integrity level or in a sandbox, took first.
func dialMine(ctx context.Context, pipe string, access uint32) (net.Conn, error) {
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	conn, err := winio.DialPipeAccessImpLevel(dctx, pipe, access, winio.PipeImpLevelIdentification)
	cancel()
	if err != nil {
		return nil, err
	}
	me, err := MySID()
	if err == nil {
		err = checkPipeOwner(func() (string, error) { return pipeOwner(conn) }, me)
	}
	if err == nil {
		err = checkPipeServer(func() (serverIdentity, error) { return pipeServer(conn) }, myIdentity())
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}
