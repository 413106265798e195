package runtime

import (
	"context"

	"github.com/hookctl/hookctl/claude"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/host"
)

// Reply is what a protocol answers for one event: stdout (or an HTTP
// body), the stderr message and the exit status of a command hook.
type Reply = claude.Reply

// Event is one decoded hook input.
type Event = host.Event

// AskPolicy is what an ask becomes on a host that cannot ask.
type AskPolicy = host.AskPolicy

// The ask policies.
const (
	AskDeny  = host.AskDeny
	AskAllow = host.AskAllow
)

// Options are the choices of one reply.
type Options = host.Options

// InputError is hook input that cannot be read.
type InputError = claude.InputError

// Protocol is one agent host's hook protocol: it decodes a payload into a
// catalog event and writes an outcome, or a block or warning for hooks
// that could not run, in the host's reply format.
type Protocol interface {
	// Name is the --host name: claude, codex, gemini, cursor, copilot, crush.
	Name() string
	// Title is the host's name for people ("Claude Code").
	Title() string
	Decode(raw map[string]any, event string) (*Event, error)
	Reply(ev *Event, out engine.Outcome, opts Options) Reply
	// Block and Warn answer for hooks that did not run; ev may be nil
	// (input that could not be read).
	Block(ev *Event, msg string) Reply
	Warn(ev *Event, msg string) Reply
}

// Registry lists the protocols a runtime answers.
type Registry interface {
	Lookup(name string) (Protocol, bool)
	Names() []string
	All() []Protocol
	// Detect chooses the protocol of a payload that came without one,
	// and says why.
	Detect(raw map[string]any, getenv func(string) string) (Protocol, string)
}

// Hosts is the registry of every host hookctl serves.
func Hosts() Registry { return hostRegistry{} }

// Lookup returns the protocol named name in the registry of every host.
func Lookup(name string) (Protocol, bool) { return hostRegistry{}.Lookup(name) }

// hostRegistry is the host package's table as a Registry.
type hostRegistry struct{}

func (hostRegistry) Lookup(name string) (Protocol, bool) {
	h, ok := host.Lookup(name)
	if !ok {
		return nil, false
	}
	return hostProtocol{h}, true
}

func (hostRegistry) Names() []string { return host.Names() }

func (r hostRegistry) All() []Protocol {
	var all []Protocol
	for _, n := range host.Names() {
		p, _ := r.Lookup(n)
		all = append(all, p)
	}
	return all
}

func (hostRegistry) Detect(raw map[string]any, getenv func(string) string) (Protocol, string) {
	h, why := host.Detect(raw, getenv)
	return hostProtocol{h}, why
}

// hostProtocol is a *host.Host as a Protocol.
type hostProtocol struct{ h *host.Host }

func (p hostProtocol) Name() string  { return p.h.Name }
func (p hostProtocol) Title() string { return p.h.Title }
func (p hostProtocol) Decode(raw map[string]any, event string) (*Event, error) {
	return p.h.Decode(raw, event)
}
func (p hostProtocol) Reply(ev *Event, out engine.Outcome, opts Options) Reply {
	return p.h.Reply(ev, out, opts)
}
func (p hostProtocol) Block(ev *Event, msg string) Reply { return p.h.Block(ev, msg) }
func (p hostProtocol) Warn(ev *Event, msg string) Reply  { return p.h.Warn(ev, msg) }

// handle fires ev and answers in its protocol's format (host.Handle).
func handle(ctx context.Context, eng *engine.Engine, ev *Event, opts Options) (Reply, error) {
	return host.Handle(ctx, eng, ev, opts)
}
