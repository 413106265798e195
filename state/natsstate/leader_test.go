package natsstate_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/hookctl/hookctl/state/natsstate"
)

// leaderlessJS fails its first consumer creations as a cluster that is
// electing the stream's leader does, then passes them on.
type leaderlessJS struct {
	jetstream.JetStream
	fails []error
	never bool // no leader ever
	// silent is how many of the first creations get no reply at all, as
	// when the cluster still believes in a leader that died.
	silent int
	calls  atomic.Int32
}

func (j *leaderlessJS) CreateConsumer(ctx context.Context, stream string, cfg jetstream.ConsumerConfig) (jetstream.Consumer, error) {
	n := int(j.calls.Add(1))
	if j.never {
		return nil, nats.ErrNoResponders
	}
	if n <= j.silent {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if n <= len(j.fails) {
		return nil, j.fails[n-1]
	}
	return j.JetStream.CreateConsumer(ctx, stream, cfg)
}

// TestKeysWaitsForALeader: Keys, like every other operation, waits out a
// stream that has no leader for a moment (no responders, JetStream's 503)
// within its timeout, instead of failing on the first request, as it did
// when the node leading the bucket's stream had just died. What
// JetStream refuses otherwise is returned at once, and a leader that
// never comes ends in ErrUnavailable at the context's end.
func TestKeysWaitsForALeader(t *testing.T) {
	ts := startServer(t)
	st := open(t, ts.URL(), natsstate.WithBucket(bucketName(t)), natsstate.WithTimeout(time.Minute))
	ctx := context.Background()
	if err := st.KV().Set(ctx, "a", 1, 0); err != nil {
		t.Fatal(err)
	}
	unavailable := &jetstream.APIError{Code: 503, ErrorCode: 10008, Description: "JetStream system temporarily unavailable"}
	var fake *leaderlessJS
	natsstate.WrapJetStream(st, func(js jetstream.JetStream) jetstream.JetStream {
		fake = &leaderlessJS{JetStream: js}
		return fake
	})

	fake.fails = []error{nats.ErrNoResponders, unavailable, nats.ErrNoResponders}
	keys, err := st.KV().Keys(ctx, "")
	if err != nil || !slices.Equal(keys, []string{"a"}) {
		t.Fatalf("Keys while a leader is elected = %q, %v; want [a]", keys, err)
	}
	if got := fake.calls.Load(); got != 4 {
		t.Errorf("consumer created in %d requests, want 4", got)
	}

	fake.calls.Store(0)
	fake.fails = []error{&jetstream.APIError{Code: 400, ErrorCode: 10025, Description: "bad request"}}
	if _, err := st.KV().Keys(ctx, ""); err == nil || errors.Is(err, natsstate.ErrUnavailable) {
		t.Errorf("Keys refused by JetStream = %v; want the refusal", err)
	}
	if got := fake.calls.Load(); got != 1 {
		t.Errorf("a refusal was asked %d times, want once", got)
	}

	fake.calls.Store(0)
	fake.never = true
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := st.KV().Keys(short, ""); !errors.Is(err, natsstate.ErrUnavailable) {
		t.Errorf("Keys with no leader ever = %v; want ErrUnavailable", err)
	}
	if got := fake.calls.Load(); got < 3 {
		t.Errorf("no leader: asked %d times before giving up, want several", got)
	}
}

// TestKeysAsksAgainWhenUnanswered: a consumer creation that gets no reply
// at all, as while the nodes still believe in a leader that died, is
// asked again instead of waiting out Keys' whole timeout (a minute here),
// which it did: the new leader answers the next request.
func TestKeysAsksAgainWhenUnanswered(t *testing.T) {
	ts := startServer(t)
	st := open(t, ts.URL(), natsstate.WithBucket(bucketName(t)), natsstate.WithTimeout(time.Minute))
	ctx := context.Background()
	if err := st.KV().Set(ctx, "a", 1, 0); err != nil {
		t.Fatal(err)
	}
	var fake *leaderlessJS
	natsstate.WrapJetStream(st, func(js jetstream.JetStream) jetstream.JetStream {
		fake = &leaderlessJS{JetStream: js, silent: 1}
		return fake
	})
	keys, err := st.KV().Keys(ctx, "")
	if err != nil || !slices.Equal(keys, []string{"a"}) {
		t.Fatalf("Keys after an unanswered request = %q, %v; want [a]", keys, err)
	}
	if got := fake.calls.Load(); got != 2 {
		t.Errorf("consumer created in %d requests, want 2", got)
	}
}
