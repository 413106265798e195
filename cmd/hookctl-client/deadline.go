package main

import (
	"bytes"
	"sync/atomic"
	"time"

	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/internal/hosttime"
)

// hostTimeout is a host's default timeouts: def for an event events does
// not name, and the payload field that names the event (blocks_gen.go).
type hostTimeout struct {
	field  string
	def    time.Duration
	events map[string]time.Duration
}

// of is the host's timeout for event.
func (h hostTimeout) of(event string) time.Duration {
	if d, ok := h.events[event]; ok {
		return d
	}
	return h.def
}

// least is the host's shortest timeout, whatever the event.
func (h hostTimeout) least() time.Duration {
	d := h.def
	for _, e := range h.events {
		d = min(d, e)
	}
	return d
}

// timeoutsOf are the timeouts of host: its own, or every host's when it
// is to be detected ("", which only hookctl can do) or not one.
func timeoutsOf(host string) []hostTimeout {
	if h, ok := hostTimeouts[host]; ok {
		return []hostTimeout{h}
	}
	all := make([]hostTimeout, 0, len(hostTimeouts))
	for _, h := range hostTimeouts {
		all = append(all, h)
	}
	return all
}

// givenTimeout is the host's timeout the call names: --host-timeout,
// else $HOOKCTL_HOST_TIMEOUT (as hookctl reads them); false when it
// names none or one that is not a duration (hookctl refuses that one at
// once, with the host's block).
func givenTimeout(hook daemon.Hook, getenv func(string) string) (time.Duration, bool) {
	v := hook.HostTimeout
	if v == "" {
		v = getenv(hosttime.Env)
	}
	d, err := hosttime.Parse(v)
	return d, err == nil
}

// readTimeout bounds the wait for the hook input when the call names no
// host timeout: the shortest of the hosts' (the event is not known until
// the input is read). A host writes its input and closes it at once;
// one that holds it open is answered with the block by then.
func readTimeout(hosts []hostTimeout) time.Duration {
	d := time.Duration(0)
	for i, h := range hosts {
		if i == 0 || h.least() < d {
			d = h.least()
		}
	}
	return d
}

// callTimeout is the host's timeout for a call that names none: the
// hosts' default for its event (--event, else each occurrence of the
// host's event field in the input), the shortest when there are several
// (a field of that name nested in the tool's input only makes it
// shorter), else readTimeout. The input is not decoded (this program
// links no JSON decoder): it is searched for the field's name as a key.
func callTimeout(hosts []hostTimeout, event string, in input) time.Duration {
	var flat []byte
	found := time.Duration(0)
	add := func(d time.Duration) {
		if found == 0 || d < found {
			found = d
		}
	}
	for _, h := range hosts {
		if event != "" {
			add(h.of(event))
			continue
		}
		if h.field == "" || len(h.events) == 0 {
			add(h.def) // every event has the same
			continue
		}
		if flat == nil {
			flat = in.flat()
		}
		for _, v := range fieldValues(flat, h.field) {
			if v == nil {
				add(h.least()) // escaped: not read here
			} else {
				add(h.of(string(v)))
			}
		}
	}
	if found == 0 {
		return readTimeout(hosts)
	}
	return found
}

// flat is the input in one slice: the only part, else the parts joined
// (only for a host whose events differ in timeout and a call without
// --host-timeout, which hookctl install always writes).
func (in input) flat() []byte {
	if len(in) == 1 {
		return in[0]
	}
	return bytes.Join(in, nil)
}

// fieldValues are the string values of every "field": key in data (nil
// for one written with escapes).
func fieldValues(data []byte, field string) [][]byte {
	key := []byte(`"` + field + `"`)
	var out [][]byte
	for i := 0; ; {
		j := bytes.Index(data[i:], key)
		if j < 0 {
			return out
		}
		i += j + len(key)
		k := skipSpace(data, i)
		if k >= len(data) || data[k] != ':' {
			continue // a value, not a key
		}
		k = skipSpace(data, k+1)
		if k >= len(data) || data[k] != '"' {
			continue
		}
		end := bytes.IndexByte(data[k+1:], '"')
		if end < 0 {
			return out
		}
		v := data[k+1 : k+1+end]
		if bytes.IndexByte(v, '\\') >= 0 {
			v = nil
		}
		out = append(out, v)
		i = k + 1 + end
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// deadline answers the host's block when the call has no answer by the
// backstop of the host's timeout (hosttime.Backstop, counted from the
// client's start), whatever it waits for: the input, the daemon (stopped
// with SIGSTOP, or a process that holds its socket and never answers), a
// daemon's start, or the hookctl run here. Whoever answers first (claim)
// answers alone.
type deadline struct {
	start time.Time
	host  string
	claim func() bool
	stage func() string
	exit  func(int)
	// abandon, when set, is called before the block is written: it
	// stops what the call runs (the hookctl run here), not waiting.
	abandon atomic.Pointer[func()]
	timer   *time.Timer
	ht      time.Duration
}

// arm starts the deadline for a host timeout of ht.
func (d *deadline) arm(ht time.Duration) {
	d.ht = ht
	d.timer = time.AfterFunc(time.Until(d.start.Add(hosttime.Backstop(ht))), d.fire)
}

// rearm moves the deadline to ht's, unless it has fired (then the block
// is being written and the process exits: rearm does not return).
func (d *deadline) rearm(ht time.Duration) {
	if ht == d.ht {
		return
	}
	if !d.timer.Stop() {
		select {}
	}
	d.arm(ht)
}

func (d *deadline) fire() {
	if !d.claim() {
		return
	}
	if f := d.abandon.Load(); f != nil {
		(*f)()
	}
	d.exit(block(d.host, "hookctl-client: no answer within "+hosttime.Backstop(d.ht).String()+" of the host's "+d.ht.String()+
		" timeout ("+d.stage()+"); past it the host would run the action, so it is blocked"))
}
