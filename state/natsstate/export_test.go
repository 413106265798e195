package natsstate

import (
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// WithGCGrace sets how long past its expiry a key stays in the bucket, so
// that a test can watch the server remove it.
func WithGCGrace(d time.Duration) Option { return func(o *options) { o.gcGrace = d } }

// WrapJetStream replaces st's JetStream client with what wrap makes of it,
// so that a test can make the client's requests fail as a cluster
// electing a leader makes them fail.
func WrapJetStream(st *State, wrap func(jetstream.JetStream) jetstream.JetStream) {
	st.js = wrap(st.js)
}
