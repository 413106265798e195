package state

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/hookctl/hookctl/state/kv"
)

// Remote is a backend kept on servers (NATS JetStream), as an Opener
// opens it.
type Remote interface {
	// KV is the kv store.
	KV() kv.Store
	// Audit is the writer of the audit stream; a Write publishes one
	// record, synchronously.
	Audit() io.Writer
	// Ready reports, without I/O, whether the client is connected.
	Ready() error
	// Ping makes a round trip to the servers within ctx.
	Ping(ctx context.Context) error
	// Close closes the connection; operations after it fail.
	Close() error
}

// Dial is how a Shared asks an Opener to connect.
type Dial struct {
	// Name is the client's name on the servers ("hookctl serve").
	Name string
	// ConnectTimeout bounds connecting.
	ConnectTimeout time.Duration
	// Timeout bounds each operation.
	Timeout time.Duration
	// Replicas is how many servers keep the bucket and stream the
	// Opener creates (at least 1).
	Replicas int
	// Clock is the time the store reads (nil: time.Now).
	Clock func() time.Time
}

// Opener opens the state on servers, a comma-separated URL list. Its
// error for servers that cannot be reached should match the backend's
// "unavailable" error (natsstate.ErrUnavailable).
type Opener func(ctx context.Context, servers string, d Dial) (Remote, error)

// ErrNoNATS is the error of every use of a Shared whose backend is NATS
// when it was made without WithNATS.
var ErrNoNATS = errors.New("state: no NATS opener (state.WithNATS)")
