package protocol

import (
	"context"
	"errors"
	"fmt"

	"github.com/hookctl/hookctl/engine"
)

// Handle fires ev and answers in its protocol's format. An event the
// catalog does not have is reported on stderr and answered with the
// host's empty reply (never a block, never silence about it).
func Handle(ctx context.Context, eng *engine.Engine, ev *Event, opts Options) (Reply, error) {
	p := ev.Protocol
	if _, err := eng.Resolve(ev.Name); err != nil {
		var ue *engine.UnknownEventError
		if errors.As(err, &ue) {
			r := p.Reply(ev, engine.Outcome{Event: ev.Name, Continue: true}, opts)
			r.Stderr = fmt.Sprintf("hookctl: %v (ignored)", err)
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
