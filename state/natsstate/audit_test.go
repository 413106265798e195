package natsstate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/hookctl/hookctl/state/natsstate"
)

// auditRecord is one message of the audit stream.
type auditRecord struct {
	subject string
	data    []byte
}

// readStream returns every message of stream, in order.
func readStream(t *testing.T, url, stream string) []auditRecord {
	t.Helper()
	js, done := plainJS(t, url)
	defer done()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cons, err := js.OrderedConsumer(ctx, stream, jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	info, err := cons.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []auditRecord
	for pending := info.NumPending; pending > 0; {
		batch, err := cons.Fetch(int(min(pending, 500)), jetstream.FetchMaxWait(5*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for m := range batch.Messages() {
			n++
			out = append(out, auditRecord{m.Subject(), m.Data()})
			md, _ := m.Metadata()
			pending = md.NumPending
		}
		if batch.Error() != nil || n == 0 {
			t.Fatalf("reading %s: %v (%d pending)", stream, batch.Error(), pending)
		}
	}
	return out
}

// TestAuditRecordsOnce writes records the way the engine does (one JSON
// record and a newline per Write) from several goroutines and reads the
// stream back: every record is there exactly once, under its event's
// subject.
func TestAuditRecordsOnce(t *testing.T) {
	ts := sharedServer(t)
	st := openShared(t)
	name := bucketName(t)
	const writers, each = 8, 50
	events := []string{"PreToolUse", "Stop", "before_tool_call", "odd.event name", ""}
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				rec := fmt.Sprintf(`{"time":"2025-06-01T12:00:00Z","event":%q,"id":"%d-%d","blocked":false}`+"\n", events[(w+i)%len(events)], w, i)
				n, err := st.Audit().Write([]byte(rec))
				if err != nil || n != len(rec) {
					t.Errorf("Write = %d, %v", n, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if got := st.Audit().Stats(); got.Published != writers*each || got.Failed != 0 {
		t.Errorf("Stats = %+v", got)
	}
	seen := map[string]int{}
	for _, r := range readStream(t, ts.URL(), "A"+name) {
		var rec struct {
			Event string `json:"event"`
			ID    string `json:"id"`
		}
		if err := json.Unmarshal(r.data, &rec); err != nil {
			t.Fatalf("record %q: %v", r.data, err)
		}
		seen[rec.ID]++
		want := map[string]string{
			"PreToolUse": "PreToolUse", "Stop": "Stop", "before_tool_call": "before_tool_call",
			"odd.event name": "odd=2Eevent=20name", "": "=",
		}[rec.Event]
		if r.subject != "audit."+name+"."+want {
			t.Errorf("record of event %q on subject %q", rec.Event, r.subject)
		}
	}
	if len(seen) != writers*each {
		t.Errorf("%d distinct records in the stream, want %d", len(seen), writers*each)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("record %s stored %d times", id, n)
		}
	}
}

// TestAuditWriteSeveralRecords: a Write holding several lines publishes
// each as a record; blank lines are skipped and a last line without a
// newline is a record too.
func TestAuditWriteSeveralRecords(t *testing.T) {
	st := openShared(t)
	in := "{\"event\":\"A\"}\n\n{\"event\":\"B\"}\nnot json"
	n, err := st.Audit().Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	var got []string
	for _, r := range readStream(t, sharedServer(t).URL(), "A"+bucketName(t)) {
		got = append(got, strings.TrimPrefix(r.subject, "audit."+bucketName(t)+".")+" "+string(r.data))
	}
	want := []string{`A {"event":"A"}`, `B {"event":"B"}`, `= not json`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("stream holds %q, want %q", got, want)
	}
}

// TestAuditStreamTaken: Open refuses an audit subject prefix that another
// stream already captures, rather than publishing records elsewhere.
func TestAuditStreamTaken(t *testing.T) {
	ts := sharedServer(t)
	name := bucketName(t)
	js, done := plainJS(t, ts.URL())
	defer done()
	ctx := context.Background()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "OTHER_" + name, Subjects: []string{"taken." + name + ".>"}}); err != nil {
		t.Fatal(err)
	}
	_, err := natsstate.Open(ctx, ts.URL(), natsstate.WithBucket(name), natsstate.WithAuditStream("A"+name, "taken."+name))
	if err == nil || errors.Is(err, natsstate.ErrUnavailable) {
		t.Fatalf("Open = %v, want a refusal", err)
	}
}
