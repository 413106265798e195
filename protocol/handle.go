package protocol

import (
	"context"
	"errors"
	"fmt"

	"github.com/hookctl/hookctl/engine"
)

// Handle fires ev and answers in its protocol's format. An event the
// catalog does not have is answered with the host's empty reply (never a
// block) and reported on stderr: an unknown name as such (and in the
// host's message channel, where the host has one), a real host
// event that has no catalog event (Mapping.Unsupported) as the host's,
// and not at all for a Silent one unless opts.Verbose.
func Handle(ctx context.Context, eng *engine.Engine, ev *Event, opts Options) (Reply, error) {
	p := ev.Protocol
	if _, err := eng.Resolve(ev.Name); err != nil {
		var ue *engine.UnknownEventError
		if errors.As(err, &ue) {
			r := p.Reply(ev, engine.Outcome{Event: ev.Name, Continue: true}, opts)
			m, known := p.Events()[ev.HostEvent]
			switch {
			case !known || !m.Unsupported:
				// A name neither the catalog nor the host has: said in
				// the host's message channel too, which its user sees
				// (stderr alone is Claude Code's debug log), as serve
				// says it.
				msg := fmt.Sprintf("hookctl: %v (ignored)", err)
				r = p.Warn(ev, msg)
				r.Stderr = msg
			case !m.Silent || opts.Verbose:
				r.Stderr = fmt.Sprintf("hookctl: %q is a %s event with no hookctl event: no hook runs for it (ignored)", ev.HostEvent, p.Title())
			}
			return r, nil
		}
		return Reply{}, err
	}
	out, err := eng.Fire(ctx, engine.Event{Name: ev.Name, Payload: ev.Payload, ReadInput: ev.ReadInput, InputFields: ev.InputFields})
	if err != nil {
		return Reply{Outcome: out}, err
	}
	r := p.Reply(ev, out, opts)
	r.Outcome = out
	return r, nil
}

// HandleInto is Handle firing with engine.FireInto into *out: the
// outcome is written into the memory of the last one *out held (its
// traces and its output map), which a caller that answers in a loop
// reuses. The reply's Stdout and Stderr share nothing with *out, but its
// Outcome does (Hooks, Output): the caller must be done with
// Reply.Outcome before it hands out to the next HandleInto.
func HandleInto(ctx context.Context, eng *engine.Engine, ev *Event, opts Options, out *engine.Outcome) (Reply, error) {
	if _, err := eng.Resolve(ev.Name); err != nil {
		// Nothing fires: Handle answers, out is not touched.
		return Handle(ctx, eng, ev, opts)
	}
	err := eng.FireInto(ctx, engine.Event{Name: ev.Name, Payload: ev.Payload, ReadInput: ev.ReadInput, InputFields: ev.InputFields}, out)
	if err != nil {
		return Reply{Outcome: *out}, err
	}
	r := ev.Protocol.Reply(ev, *out, opts)
	r.Outcome = *out
	return r, nil
}
