package protocol

import (
	"context"
	"errors"
	"fmt"

	"github.com/hookctl/hookctl/engine"
)

// Handle fires ev and answers in its protocol's format. An event the
// catalog does not have is answered with the host's empty reply (never a
// block) and reported on stderr: an unknown name as such, a real host
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
				r.Stderr = fmt.Sprintf("hookctl: %v (ignored)", err)
			case !m.Silent || opts.Verbose:
				r.Stderr = fmt.Sprintf("hookctl: %q is a %s event with no hookctl event: no hook runs for it (ignored)", ev.HostEvent, p.Title())
			}
			return r, nil
		}
		return Reply{}, err
	}
	out, err := eng.Fire(ctx, engine.Event{Name: ev.Name, Payload: ev.Payload})
	if err != nil {
		return Reply{Outcome: out}, err
	}
	r := p.Reply(ev, out, opts)
	r.Outcome = out
	return r, nil
}
