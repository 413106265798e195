package natsstate_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/hookctl/hookctl/state/kv/kvtest"
	"github.com/hookctl/hookctl/state/natsstate"
)

// rawLast returns the last message of a key's subject in the bucket, or
// nil when the subject has none.
func rawLast(t *testing.T, url, bucket, subject string) *jetstream.RawStreamMsg {
	t.Helper()
	js, done := plainJS(t, url)
	defer done()
	ctx := context.Background()
	s, err := js.Stream(ctx, "KV_"+bucket)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.GetLastMsgForSubject(ctx, "$KV."+bucket+"."+subject)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestStoredForm pins what a key looks like in the bucket: its encoded
// subject, its value as plain JSON, its expiry header and the server TTL
// that collects it a grace period after it expired; a deleted key leaves
// nothing behind.
func TestStoredForm(t *testing.T) {
	c := kvtest.NewClock()
	st := openShared(t, natsstate.WithClock(c.Now))
	url, bucket := sharedServer(t).URL(), bucketName(t)
	ctx := context.Background()
	if err := st.KV().Set(ctx, "session/s.1/seen", map[string]any{"n": 1}, 90*time.Second); err != nil {
		t.Fatal(err)
	}
	m := rawLast(t, url, bucket, "session.s=2E1.seen")
	if m == nil {
		t.Fatal("no message under the encoded subject")
	}
	if string(m.Data) != `{"n":1}` || m.Header.Get("Hookctl-Expires") != "2025-06-01T12:01:30Z" || m.Header.Get("Nats-TTL") != "150" {
		t.Errorf("stored %q with headers %v", m.Data, m.Header)
	}
	st.KV().Set(ctx, "forever", 1, 0)
	if m := rawLast(t, url, bucket, "forever"); m == nil || m.Header.Get("Nats-TTL") != "" || m.Header.Get("Hookctl-Expires") != "" {
		t.Errorf("key without ttl stored as %v", m)
	}
	st.KV().Delete(ctx, "session/s.1/seen")
	if m := rawLast(t, url, bucket, "session.s=2E1.seen"); m != nil {
		t.Errorf("Delete left %v", m.Header)
	}
}

// TestServerRemovesExpired: an expired key is not only hidden but removed
// by the server once the grace after its expiry has passed.
func TestServerRemovesExpired(t *testing.T) {
	st := openShared(t, natsstate.WithGCGrace(0))
	url, bucket := sharedServer(t).URL(), bucketName(t)
	ctx := context.Background()
	st.KV().Set(ctx, "short", 1, time.Second)
	st.KV().Set(ctx, "long", 1, time.Hour)
	deadline := time.Now().Add(20 * time.Second)
	for {
		m := rawLast(t, url, bucket, "short")
		if m == nil || m.Header.Get("Nats-Marker-Reason") != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server kept an expired key")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if m := rawLast(t, url, bucket, "long"); m == nil || m.Header.Get("Nats-Marker-Reason") != "" {
		t.Error("the server removed a live key")
	}
	// The marker the server may leave reads as a missing key, and the
	// key can be written again over it.
	if _, ok, err := st.KV().Get(ctx, "short"); ok || err != nil {
		t.Errorf("Get(short) = %v, %v", ok, err)
	}
	if n, err := st.KV().Incr(ctx, "short", 1, 0); n != 1 || err != nil {
		t.Errorf("Incr over the marker = %d, %v", n, err)
	}
}
