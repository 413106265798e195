// Package auditq hands audit records to a slow writer (a JetStream
// publish, which a stalled NATS server holds for its whole timeout)
// without making the writer of the record wait: a fire's decision must
// never wait for its audit record.
package auditq

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// Defaults of a Queue's bounds.
const (
	DefaultRecords = 8192
	DefaultBytes   = 32 << 20
)

// ErrClosed is the error of a Write after Close.
var ErrClosed = errors.New("auditq: closed")

// DroppedError is a record a Queue did not take: the queue was full, or
// closed. It counts the records dropped since the queue started.
type DroppedError struct {
	// Why the record was dropped.
	Why string
	// Total counts the records dropped (or lost in Close) so far.
	Total uint64
}

func (e *DroppedError) Error() string {
	return fmt.Sprintf("audit record dropped: %s (%d audit %s lost since start)", e.Why, e.Total, plural(e.Total))
}

func plural(n uint64) string {
	if n == 1 {
		return "record"
	}
	return "records"
}

// Queue is an io.Writer whose Write copies the record into a bounded
// queue and returns at once; one goroutine writes the records to the
// underlying writer in order. A record that does not fit (more than
// the queue's records or bytes waiting) is dropped, counted, and
// reported by Write's *DroppedError, which the engine logs; a record the
// underlying writer fails is counted and passed to the Option
// OnError. Close writes what is queued, within its context. A Queue is
// safe for concurrent use.
type Queue struct {
	w        io.Writer
	maxBytes int64
	onError  func(err error, lost uint64)

	mu     sync.Mutex // guards closed and sending on ch
	closed bool
	ch     chan []byte
	bytes  atomic.Int64 // bytes queued
	// pending counts the records taken and not yet written (or lost):
	// those queued and the one being written.
	pending atomic.Int64
	stop    chan struct{} // closed when Close gives up waiting
	once    sync.Once
	done    chan struct{}

	written atomic.Uint64
	lost    atomic.Uint64 // dropped, failed, or abandoned at Close
}

// Option configures a Queue.
type Option func(*Queue)

// WithBounds bounds the records waiting and their bytes (defaults
// DefaultRecords and DefaultBytes).
func WithBounds(records int, bytes int64) Option {
	return func(q *Queue) {
		if records > 0 {
			q.ch = make(chan []byte, records)
		}
		if bytes > 0 {
			q.maxBytes = bytes
		}
	}
}

// OnError is called, on the queue's goroutine, with the error of each
// record the underlying writer did not take and the count of records lost
// so far, that one included.
func OnError(f func(err error, lost uint64)) Option { return func(q *Queue) { q.onError = f } }

// New returns a Queue writing to w and starts its goroutine; Close stops
// it.
func New(w io.Writer, opts ...Option) *Queue {
	q := &Queue{w: w, maxBytes: DefaultBytes, stop: make(chan struct{}), done: make(chan struct{})}
	for _, o := range opts {
		o(q)
	}
	if q.ch == nil {
		q.ch = make(chan []byte, DefaultRecords)
	}
	go q.run()
	return q
}

// Write queues a copy of p (one record, or several lines) and returns
// len(p) at once, or a *DroppedError (0 written) when it does not fit.
func (q *Queue) Write(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return 0, &DroppedError{Why: "the audit queue is closed", Total: q.lost.Add(1)}
	}
	if q.bytes.Add(int64(len(p))) > q.maxBytes {
		q.bytes.Add(-int64(len(p)))
		return 0, &DroppedError{Why: fmt.Sprintf("the audit queue holds its %d bytes (the writer is slow or stalled)", q.maxBytes), Total: q.lost.Add(1)}
	}
	q.pending.Add(1)
	select {
	case q.ch <- append([]byte(nil), p...):
		return len(p), nil
	default:
		q.pending.Add(-1)
		q.bytes.Add(-int64(len(p)))
		return 0, &DroppedError{Why: fmt.Sprintf("%d audit records are waiting (the writer is slow or stalled)", cap(q.ch)), Total: q.lost.Add(1)}
	}
}

func (q *Queue) run() {
	defer close(q.done)
	for rec := range q.ch {
		q.bytes.Add(-int64(len(rec)))
		q.write(rec)
		q.pending.Add(-1)
	}
}

func (q *Queue) write(rec []byte) {
	select {
	case <-q.stop:
		q.lost.Add(1) // Close gave up waiting: not written
		return
	default:
	}
	if _, err := q.w.Write(rec); err != nil {
		lost := q.lost.Add(1)
		if q.onError != nil {
			q.onError(err, lost)
		}
		return
	}
	q.written.Add(1)
}

// Stats counts the records written and lost (dropped, failed, or
// abandoned at Close) so far, and those not written yet (queued, or being
// written).
type Stats struct {
	Written, Lost uint64
	Queued        int
}

// Stats returns the counts so far.
func (q *Queue) Stats() Stats {
	return Stats{Written: q.written.Load(), Lost: q.lost.Load(), Queued: int(q.pending.Load())}
}

// Close stops taking records and waits for those queued to be written,
// until ctx ends: then the rest are counted lost and Close returns
// without waiting for the record being written (closing the underlying
// writer's connection ends it). It returns an error saying how many
// records were lost since the queue started, if any. Close is idempotent.
func (q *Queue) Close(ctx context.Context) error {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.ch)
	}
	q.mu.Unlock()
	pending := 0
	select {
	case <-q.done:
	case <-ctx.Done():
		q.once.Do(func() { close(q.stop) })
		pending = len(q.ch)
	}
	lost := q.lost.Load()
	switch {
	case pending > 0:
		return fmt.Errorf("audit: %d %s not written before shutdown (%w), %d lost before", pending, plural(uint64(pending)), ctx.Err(), lost)
	case lost > 0:
		return fmt.Errorf("audit: %d %s lost since start", lost, plural(lost))
	}
	return nil
}

// Wait waits for the queue's goroutine to end (after Close), or ctx.
func (q *Queue) Wait(ctx context.Context) error {
	select {
	case <-q.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
