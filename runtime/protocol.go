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
func handle(ctx context.Context, eng *engine.Engine, ev *Event, opts Options) (Reply, error) {
	return protocol.Handle(ctx, eng, ev, opts)
}
