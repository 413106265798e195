package natsstate

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/nats-io/nats.go"
)

// AuditWriter publishes audit records to the audit stream. It is the
// io.Writer to give engine.WithAuditLog, which writes one JSON record,
// ending in a newline, per Write. It is safe for concurrent use.
//
// Each line of a Write (a final line may lack its newline) is one record,
// published to "<prefix>.<event>" — event being the record's "event"
// field, encoded as a key segment is ("=" when it has none) — and
// acknowledged by JetStream before Write returns. A record carries a
// random Nats-Msg-Id, so the retries Write makes when the stream has no
// leader for a moment never store it twice.
//
// A record that cannot be published makes Write return an error (an
// *Error matching ErrUnavailable when NATS cannot be reached) and counts
// in Stats().Failed; the count n returned covers the records published
// before it. Nothing is buffered: a record is either acknowledged by
// JetStream or reported to the caller, which (the engine) logs it. The
// error of a record that was sent but not acknowledged matches
// ErrOutcomeUnknown: it may be in the stream.
type AuditWriter struct {
	s         *State
	published atomic.Uint64
	failed    atomic.Uint64
}

// AuditStats counts the records of an AuditWriter.
type AuditStats struct {
	// Published counts the records JetStream acknowledged.
	Published uint64
	// Failed counts the records Write returned an error for.
	Failed uint64
}

// Stats returns the counts so far.
func (w *AuditWriter) Stats() AuditStats {
	return AuditStats{Published: w.published.Load(), Failed: w.failed.Load()}
}

// Write publishes the records in p. See AuditWriter.
func (w *AuditWriter) Write(p []byte) (int, error) {
	done := 0
	for rest := p; len(rest) > 0; {
		line := rest
		next := len(rest)
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, next = rest[:i], i+1
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if err := w.publish(line); err != nil {
				w.failed.Add(1)
				return done, err
			}
			w.published.Add(1)
		}
		done += next
		rest = rest[next:]
	}
	return done, nil
}

func (w *AuditWriter) publish(rec []byte) error {
	var head struct {
		Event string `json:"event"`
	}
	_ = json.Unmarshal(rec, &head) // not JSON, or no event: subject "<prefix>.="
	subj := w.s.o.auditSubject + "." + encodeSegment(head.Event)
	if len(subj) > maxSubjectLen {
		subj = w.s.o.auditSubject + ".="
	}
	var id [16]byte
	_, _ = rand.Read(id[:])
	m := nats.NewMsg(subj)
	m.Data = bytes.Clone(rec)
	m.Header.Set(nats.MsgIdHdr, hex.EncodeToString(id[:]))
	m.Header.Set(nats.ExpectedStreamHdr, w.s.o.auditStream)
	ctx, cancel := w.s.opCtx(context.Background())
	defer cancel()
	var r pubAckReply
	if err := w.s.call(ctx, "audit", head.Event, m, &r, true); err != nil {
		if _, ok := err.(*Error); ok || err == ErrClosed {
			return err
		}
		return fmt.Errorf("natsstate: audit %q: %w", head.Event, err)
	}
	return nil
}
