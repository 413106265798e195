package runtime

import (
	"context"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
)

// The runtime speaks the protocols of package protocol; these names keep
// its API readable on its own.
type (
	// Reply is what a protocol answers for one event: stdout (or an
	// HTTP body), the stderr message and the exit status of a command
	// hook.
	Reply = protocol.Reply
	// Event is one decoded hook input.
	Event = protocol.Event
	// AskPolicy is what an ask becomes on a host that cannot ask.
	AskPolicy = protocol.AskPolicy
	// Options are the choices of one reply.
	Options = protocol.Options
	// InputError is hook input that cannot be read.
	InputError = protocol.InputError
	// Protocol is one agent host's hook protocol.
	Protocol = protocol.Protocol
	// Registry lists the protocols a runtime answers.
	Registry = *protocol.Registry
)

// The ask policies.
const (
	AskDeny  = protocol.AskDeny
	AskAllow = protocol.AskAllow
)

// Hosts is the registry of every host hookctl serves (protocol/hosts).
func Hosts() Registry { return hosts.New() }

// Lookup returns the protocol named name in the registry of every host.
func Lookup(name string) (Protocol, bool) { return hosts.New().Lookup(name) }

// handle fires ev and answers in its protocol's format.
func (r *Runtime) handle(ctx context.Context, eng *engine.Engine, ev *Event, opts Options) (Reply, error) {
	if !r.replyOnly {
		return protocol.Handle(ctx, eng, ev, opts)
	}
	// The caller reads no traces nor output map of the reply's Outcome:
	// the fire writes into a pooled outcome, which goes back to the pool
	// once the reply is encoded.
	out, _ := r.outs.Get().(*engine.Outcome)
	if out == nil {
		out = new(engine.Outcome)
	}
	reply, err := protocol.HandleInto(ctx, eng, ev, opts, out)
	reply.Outcome.Hooks, reply.Outcome.Output = nil, nil
	r.outs.Put(out)
	return reply, err
}
