//go:build windows

package daemonserver

import (
	"context"
	"fmt"
	"net"
	"strings"

	"github.com/Microsoft/go-winio"

	"github.com/hookctl/hookctl/internal/daemon"
)

// listenPipe is Listen on Windows: it creates the named pipe pipe, which
// must be one of this user's daemons' pipes (under daemon.PipeDir of
// this user's SID), with daemon.PipeSecurity (owned by this user, who
// alone may open it or add instances of it) in message mode (a
// client's CloseWrite is a zero-byte message: the call given up), and
// rejects remote clients (go-winio's pipes always do). The first instance
// is created only where the name is free (FILE_CREATE, as
// FILE_FLAG_FIRST_PIPE_INSTANCE): where it is taken, Listen returns nil,
// nil if this user's daemon holds it (its owner is this user), and an
// error otherwise: a name another user took first is never served, nor
// sent a call (the client checks the owner too).
func listenPipe(ctx context.Context, pipe string) (net.Listener, bool, error) {
	sid, err := daemon.MySID()
	if err != nil {
		return nil, true, err
	}
	dir, err := daemon.PipeDir(sid)
	if err != nil {
		return nil, true, err
	}
	if !strings.HasPrefix(strings.ToLower(pipe), strings.ToLower(dir)+"-") {
		return nil, true, fmt.Errorf("%s: not a pipe of this user's daemons (%s-...)", pipe, dir)
	}
	sddl, err := daemon.PipeSecurity(sid)
	if err != nil {
		return nil, true, err
	}
	ln, err := winio.ListenPipe(pipe, &winio.PipeConfig{
		SecurityDescriptor: sddl,
		MessageMode:        true,
		InputBufferSize:    64 << 10,
		OutputBufferSize:   64 << 10,
	})
	if err == nil {
		return ln, true, nil
	}
	if served := daemon.PipeServed(ctx, pipe); served == nil {
		return nil, true, nil // another daemon of this user serves it
	} else {
		return nil, true, fmt.Errorf("%w (and the existing pipe: %v)", err, served)
	}
}
