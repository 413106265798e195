package natsbackend

import (
	"context"
	"io"

	"github.com/nats-io/nats.go"

	"github.com/hookctl/hookctl/state"
	"github.com/hookctl/hookctl/state/kv"
	"github.com/hookctl/hookctl/state/natsstate"
)

// Opener returns a state.Opener that opens natsstate's JetStream state
// with the state's Dial (client name, timeouts, replicas, clock), then
// opts (a bucket or audit stream of its own, say), which win.
func Opener(opts ...natsstate.Option) state.Opener {
	return func(ctx context.Context, servers string, d state.Dial) (state.Remote, error) {
		o := []natsstate.Option{
			natsstate.WithReplicas(max(d.Replicas, 1)),
			natsstate.WithNATSOptions(nats.Name(d.Name)),
		}
		if d.ConnectTimeout > 0 {
			o = append(o, natsstate.WithConnectTimeout(d.ConnectTimeout))
		}
		if d.Timeout > 0 {
			o = append(o, natsstate.WithTimeout(d.Timeout))
		}
		if d.Clock != nil {
			o = append(o, natsstate.WithClock(d.Clock))
		}
		st, err := natsstate.Open(ctx, servers, append(o, opts...)...)
		if err != nil {
			return nil, err
		}
		return remote{st}, nil
	}
}

// remote is natsstate.State as a state.Remote.
type remote struct{ *natsstate.State }

func (r remote) KV() kv.Store     { return r.State.KV() }
func (r remote) Audit() io.Writer { return r.State.Audit() }
