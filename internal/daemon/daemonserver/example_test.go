package daemonserver_test

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/internal/daemon/daemonserver"
)

// A daemon that answers every call it accepts with exit status 0 and
// exits after a minute without calls.
func ExampleServe() {
	dir, _ := os.MkdirTemp("", "hkd")
	defer os.RemoveAll(dir)
	socket := filepath.Join(dir, "d.sock")
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	ln, err := daemonserver.Listen(ctx, socket)
	if err != nil || ln == nil {
		return // failed, or another daemon serves the socket
	}
	id, _ := daemon.Identity(os.Args[0])
	h := daemonserver.HandlerFunc(func(ctx context.Context, req *daemon.Request) daemon.Response {
		return daemon.Response{Stdout: []byte("{}")}
	})
	_ = daemonserver.Serve(ctx, ln, h, daemonserver.WithIdentity(id), daemonserver.WithIdle(time.Minute))
	// Output:
}
