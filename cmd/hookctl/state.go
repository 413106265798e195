package main

import (
	"context"
	"strings"
	"time"

	"github.com/hookctl/hookctl/server"
	"github.com/hookctl/hookctl/state"
	"github.com/hookctl/hookctl/state/kv"
	"github.com/hookctl/hookctl/state/natsbackend"
)

// How long connecting to NATS may take. serve takes --nats-timeout; the
// one-shot commands (claude, hook, the daemon's calls), which an agent
// waits on, give up sooner.
const (
	defaultNATSTimeout = state.DefaultConnectTimeout
	oneShotNATSTimeout = 2 * time.Second
)

// serveStateName is the name hookctl serve gives its state: the one
// command whose process, and memory, lasts as long as its state must.
const serveStateName = "hookctl serve"

// stateBackend says where a command keeps its state (state.Backend).
type stateBackend = state.Backend

// sharedState is a command's state.Shared, with NATS (natsstate), under
// the names the commands use.
type sharedState struct {
	*state.Shared
	// replicas is serve's --nats-replicas, read when NATS is opened (0: 1).
	replicas int
}

var _ kv.Store = (*sharedState)(nil)

// newSharedState returns a state on the default file store until
// configured.
func newSharedState(name string, connectTimeout, timeout time.Duration) *sharedState {
	s := &sharedState{}
	nats := natsbackend.Opener()
	var oneShot state.Option
	if name != serveStateName {
		// claude and hook, one-shot or through the daemon (whose
		// engines, and their memory, come and go), answer alike.
		oneShot = state.WithoutMemory(name + " keeps nothing between calls; keep the state in a file (state_file, file:///PATH) or on NATS, or use memory: with hookctl serve")
	}
	s.Shared = state.New(name, oneShot,
		state.WithConnectTimeout(connectTimeout),
		state.WithTimeout(timeout),
		state.WithCheckTimeout(server.ReadinessTimeout),
		state.WithNATS(func(ctx context.Context, servers string, d state.Dial) (state.Remote, error) {
			d.Replicas = max(s.replicas, 1)
			return nats(ctx, servers, d)
		}))
	return s
}

func (s *sharedState) configure(b stateBackend)                   { s.Use(b) }
func (s *sharedState) backendInUse() stateBackend                 { return s.BackendInUse() }
func (s *sharedState) onNATS() bool                               { return s.OnNATS() }
func (s *sharedState) open(ctx context.Context) (kv.Store, error) { return s.Open(ctx) }

// natsFlag parses --nats: a comma-separated list of nats:// or tls://
// URLs (empty: not given).
func natsFlag(v string) (string, error) {
	if strings.TrimSpace(v) == "" {
		return "", nil
	}
	b, err := state.ParseNATS("--nats", v)
	if err != nil {
		return "", usageError("%v", err)
	}
	return b.NATS, nil
}
