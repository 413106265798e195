package state

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/auditq"
	"github.com/hookctl/hookctl/internal/natsurl"
	"github.com/hookctl/hookctl/state/kv"
)

// Defaults of a Shared's options.
const (
	// DefaultConnectTimeout bounds connecting to NATS and setting up the
	// bucket and stream, as a whole.
	DefaultConnectTimeout = 5 * time.Second
	// DefaultTimeout bounds each NATS operation (natsstate.DefaultTimeout).
	DefaultTimeout = 5 * time.Second
	// DefaultCheckTimeout bounds the round trip Status makes to NATS when
	// the last one is not fresh (the readiness check's bound).
	DefaultCheckTimeout = 2 * time.Second
)

const (
	// reopenAfter is how long a failed open is answered from memory
	// before the next use tries again (a daemon lives long).
	reopenAfter = 2 * time.Second
	// pingFresh is how long Status reports the last round trip to NATS
	// instead of making one of its own, and how long after a failed one
	// kv calls fail at once.
	pingFresh = 5 * time.Second
	// auditGone bounds the wait, after the NATS connection closed, for
	// the audit queue's publish in progress to fail and be logged.
	auditGone = time.Second
)

// ErrClosed is the error of a use after Close or Shutdown.
var ErrClosed = errors.New("state store: closed")

// Option configures a Shared.
type Option func(*Shared)

// WithNATS lets the Shared open a NATS backend with open. Without it a
// NATS backend fails every use (ErrNoNATS).
func WithNATS(open Opener) Option { return func(s *Shared) { s.openNATS = open } }

// WithConnectTimeout bounds connecting to NATS and setting up (default
// DefaultConnectTimeout).
func WithConnectTimeout(d time.Duration) Option {
	return func(s *Shared) {
		if d > 0 {
			s.connectTimeout = d
		}
	}
}

// WithTimeout bounds each NATS operation (default DefaultTimeout), and
// Close's wait for the audit records still queued.
func WithTimeout(d time.Duration) Option {
	return func(s *Shared) {
		if d > 0 {
			s.timeout = d
		}
	}
}

// WithCheckTimeout bounds the round trip Status makes (default
// DefaultCheckTimeout).
func WithCheckTimeout(d time.Duration) Option {
	return func(s *Shared) {
		if d > 0 {
			s.checkTimeout = d
		}
	}
}

// WithReplicas is how many NATS servers keep the bucket and stream the
// Shared creates (default 1).
func WithReplicas(n int) Option { return func(s *Shared) { s.replicas = n } }

// WithoutMemory refuses the memory backend: every use of a Shared on it
// fails with ErrMemoryRefused and why. A one-shot command, whose memory
// ends with each call, takes it, so that a count kept in the state (a
// rate limit, the Stop loop guard) is not silently reset at every call.
func WithoutMemory(why string) Option { return func(s *Shared) { s.noMemory = why } }

// ErrMemoryRefused is the error of every use of a Shared made
// WithoutMemory whose backend is memory.
var ErrMemoryRefused = errors.New("the memory state is refused here")

// WithClock makes the stores read the time from now (tests).
func WithClock(now func() time.Time) Option { return func(s *Shared) { s.clock = now } }

// Shared is the state of one command or one server: the kv store of
// hookctl/kv and the stateful built-ins, the Stop loop guard's counts
// and, on NATS, the audit log. It is kept in memory, in a file (the
// default: settings.state_file, else kv.DefaultPath) or, for a fleet of
// replicas, in NATS JetStream (hookctl serve --nats, settings.state).
// The engine and the configuration are built with it before the
// configuration says which (Configure); it opens on first use, or when
// Open is called, and a failure to open is the error of every use until
// it opens.
//
// It never fails open: while NATS cannot be reached a kv call fails (the
// hookctl/kv module throws, and the hook's on_error decides), the loop
// guard cannot count (the outcome's stop_guard.error says so, and a
// block stands), and an audit record that cannot be published is an
// error the engine logs with the count of records lost so far.
//
// It implements kv.Store and is safe for concurrent use.
type Shared struct {
	name           string // the client's name on NATS
	connectTimeout time.Duration
	timeout        time.Duration // each operation's bound on NATS
	checkTimeout   time.Duration
	replicas       int // servers keeping the bucket and stream it creates (0: 1)
	clock          func() time.Time
	openNATS       Opener
	noMemory       string // WithoutMemory's reason

	mu       sync.Mutex
	backend  Backend
	cfgErr   error // a configuration whose backend does not parse: every use fails
	store    kv.Store
	remote   Remote
	err      error // the last open's failure
	failedAt time.Time
	closed   bool
	// audit queues the audit records for the stream (AuditLog), so that
	// a slow or stalled NATS never delays a decision.
	audit *auditq.Queue
	// The last round trip to NATS (Check): when, and its error.
	pingAt  time.Time
	pingErr error
}

var _ kv.Store = (*Shared)(nil)

// New returns a Shared named name (its client name on NATS: "hookctl
// serve"), on the default file store until configured.
func New(name string, opts ...Option) *Shared {
	s := &Shared{name: name, connectTimeout: DefaultConnectTimeout, timeout: DefaultTimeout, checkTimeout: DefaultCheckTimeout}
	for _, opt := range opts {
		if opt != nil {
			opt(s)
		}
	}
	return s
}

// Use chooses the backend. It must be called before the first use;
// later calls are ignored (a long-running process keeps the state it
// opened: see BackendInUse).
func (s *Shared) Use(b Backend) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.store == nil && s.err == nil && s.cfgErr == nil {
		s.backend = b
	}
}

// Configure chooses the backend a loaded configuration asks for
// (BackendOf), as Use does. A settings.state that does not parse is the
// error of every use: the state is not silently kept elsewhere.
func (s *Shared) Configure(cfg *assemble.Config) {
	b, err := BackendOf(cfg)
	if err != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.store == nil && s.err == nil && s.cfgErr == nil {
			s.cfgErr = fmt.Errorf("state store: %w", err)
		}
		return
	}
	s.Use(b)
}

// BackendInUse is the backend configured, or opened.
func (s *Shared) BackendInUse() Backend {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.backend
}

// OnNATS reports whether the backend is NATS.
func (s *Shared) OnNATS() bool { return s.BackendInUse().NATS != "" }

// Open opens the backend, if it is not open yet, within ctx and the
// connect timeout. NATS that cannot be reached fails it with an error
// matching natsstate.ErrUnavailable.
func (s *Shared) Open(ctx context.Context) (kv.Store, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	if s.cfgErr != nil {
		return nil, s.cfgErr
	}
	if s.store != nil {
		return s.store, nil
	}
	if s.err != nil && time.Since(s.failedAt) < reopenAfter {
		return nil, s.err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("state store: %w", err)
	}
	s.err = nil
	b := s.backend
	switch b.Kind() {
	case KindMemory:
		if s.noMemory != "" {
			s.err, s.failedAt = fmt.Errorf("shared state on %s: %w: %s", b, ErrMemoryRefused, s.noMemory), time.Now()
			return nil, s.err
		}
		s.store = kv.NewMemory(kv.WithClock(s.clock))
		return s.store, nil
	case KindFile:
		st, err := openFileStore(b.File, s.clock)
		if err != nil {
			s.err, s.failedAt = fmt.Errorf("state store: %w", err), time.Now()
			return nil, s.err
		}
		s.store = st
		return st, nil
	}
	if s.openNATS == nil {
		s.err, s.failedAt = fmt.Errorf("shared state on %s: %w", b, ErrNoNATS), time.Now()
		return nil, s.err
	}
	// Connecting, then finding or creating the bucket and the stream, is
	// bounded as a whole, by one connect timeout (--nats-timeout): a
	// server that accepts the connection but never answers JetStream must
	// not hang a command, nor take a timeout per step.
	octx, cancel := context.WithTimeout(ctx, s.connectTimeout)
	defer cancel()
	st, err := s.openNATS(octx, b.NATS, Dial{
		Name:           s.name,
		ConnectTimeout: s.connectTimeout,
		Timeout:        s.timeout,
		Replicas:       max(s.replicas, 1),
		Clock:          s.clock,
	})
	if err == nil && st == nil {
		err = errors.New("the NATS opener returned no state")
	}
	if err != nil {
		err = fmt.Errorf("shared state on %s: %w", b, err)
		if ctx.Err() == nil {
			// NATS's failure, not the caller's context ending: the next
			// uses get it at once, for a while.
			s.err, s.failedAt = err, time.Now()
		}
		return nil, err
	}
	s.remote, s.store = st, st.KV()
	return s.store, nil
}

// openFileStore opens the file store at path (kv.DefaultPath when empty),
// creating its directory.
func openFileStore(path string, clock func() time.Time) (*kv.File, error) {
	if path == "" {
		var err error
		if path, err = kv.DefaultPath(); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	return kv.OpenFile(path, kv.WithClock(clock))
}

// Ready reports whether the state can serve now: nil for a memory or
// file store that opened, and for NATS while the client is connected (no
// I/O: see natsstate.State.Ready); otherwise why not. It is the seam for
// a readiness check (GET /readyz).
func (s *Shared) Ready() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return ErrClosed
	case s.remote != nil:
		if err := s.remote.Ready(); err != nil {
			return fmt.Errorf("shared state on %s: %w", s.backend, err)
		}
		return nil
	case s.store != nil:
		return nil
	case s.cfgErr != nil:
		return s.cfgErr
	case s.err != nil:
		return s.err
	}
	return errors.New("state store: not open yet")
}

// Status describes the state for /healthz: backend (memory, file or
// nats), where it is, ready and, if not, error; on NATS the audit
// queue's counts and when the last round trip was made.
func (s *Shared) Status() map[string]any {
	b := s.BackendInUse()
	out := map[string]any{"backend": string(b.Kind())}
	if b.NATS != "" {
		out = map[string]any{"backend": "nats", "servers": natsurl.Redact(b.NATS), "source": b.Source}
		if q := s.auditQueue(); q != nil {
			st := q.Stats()
			if st.Lost > 0 {
				out["audit_records_lost"] = st.Lost
			}
			out["audit_records_queued"] = st.Queued
		}
	} else if b.File != "" {
		out["path"] = b.File
	}
	err := s.Ready()
	if err == nil && b.NATS != "" {
		// The round trip /readyz makes, so that both say the same of a
		// server that keeps the connection open but answers nothing: the
		// last one if it is fresh, else one within the readiness bound.
		s.mu.Lock()
		at, perr := s.pingAt, s.pingErr
		s.mu.Unlock()
		if at.IsZero() || time.Since(at) >= pingFresh {
			ctx, cancel := context.WithTimeout(context.Background(), s.checkTimeout)
			perr = s.Check(ctx)
			cancel()
			s.mu.Lock()
			at = s.pingAt
			s.mu.Unlock()
		}
		err = perr
		if !at.IsZero() {
			out["checked_at"] = at.UTC().Format(time.RFC3339Nano)
		}
	}
	if err != nil {
		out["ready"] = false
		out["error"] = err.Error()
	} else {
		out["ready"] = true
	}
	return out
}

// Check is the readiness check of the state (GET /readyz): Ready, and on
// NATS a round trip to the server within ctx, so that a server that keeps
// the connection open but does not answer (stopped, wedged) is noticed.
func (s *Shared) Check(ctx context.Context) error {
	if err := s.Ready(); err != nil {
		return err
	}
	s.mu.Lock()
	st, b := s.remote, s.backend
	s.mu.Unlock()
	if st == nil {
		return nil
	}
	err := st.Ping(ctx)
	if err != nil {
		err = fmt.Errorf("shared state on %s: %w", b, err)
	}
	s.mu.Lock()
	s.pingAt, s.pingErr = time.Now(), err
	s.mu.Unlock()
	return err
}

func (s *Shared) auditQueue() *auditq.Queue {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.audit
}

// closeAudit writes the audit records still queued, until ctx ends; the
// error says how many were lost, if any. Records written after it are
// dropped.
func (s *Shared) closeAudit(ctx context.Context) error {
	if q := s.auditQueue(); q != nil {
		return q.Close(ctx)
	}
	return nil
}

// Close writes the audit records still queued (for the operation timeout
// at most), then closes the NATS connection, if any. Uses after it fail.
func (s *Shared) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	return s.Shutdown(ctx)
}

// Shutdown writes the audit records still queued until ctx ends, then
// closes the NATS connection, which ends a publish still in progress, and
// waits (a second at most) for that publish's failure to be logged, so
// that every record lost is reported before Shutdown returns. The error
// counts the records lost. Uses after it fail; it is idempotent.
func (s *Shared) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	already := s.closed
	s.mu.Unlock()
	if already {
		return nil
	}
	aerr := s.closeAudit(ctx)
	s.mu.Lock()
	st, q := s.remote, s.audit
	s.closed = true
	s.mu.Unlock()
	var cerr error
	if st != nil {
		cerr = st.Close()
	}
	if q != nil {
		wctx, cancel := context.WithTimeout(context.Background(), auditGone)
		defer cancel()
		if q.Wait(wctx) == nil {
			if lost := q.Stats().Lost; lost > 0 && aerr == nil {
				aerr = fmt.Errorf("audit: %d %s lost since start", lost, plural(lost, "record", "records"))
			}
		}
	}
	return errors.Join(aerr, cerr)
}

// EngineOptions are the engine's options the state gives: the Stop loop
// guard's store (engine.WithLoopStore), its counts in the kv store under
// "stopguard/", as one-shot processes have always kept them.
func (s *Shared) EngineOptions() []engine.Option {
	return []engine.Option{engine.WithLoopStore(kv.LoopStore(s))}
}

// Attach sends eng's audit records to the audit stream when the state is
// on NATS (AuditLog, logging on eng's logger); otherwise it does nothing.
// Call it after Configure.
func (s *Shared) Attach(eng *engine.Engine) {
	if s.OnNATS() {
		eng.SetAuditLog(s.AuditLog(eng.Logger()))
	}
}

// AuditLog is the audit writer of a state on NATS, for
// engine.SetAuditLog. A record is queued (a bounded queue: auditq) and
// Write returns at once, so that a slow or stalled NATS never delays a
// decision; the queue's goroutine publishes each record to the audit
// stream. A record that finds the queue full is dropped, and Write's
// error (which the engine logs) says so; one that cannot be published is
// logged on log. Both say how many records were lost since the process
// started. Close (or Shutdown) publishes what is still queued.
func (s *Shared) AuditLog(log *slog.Logger) io.Writer {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.audit == nil {
		s.audit = auditq.New(auditWriter{s}, auditq.OnError(func(err error, lost uint64) {
			log.Warn("audit record not written", "error", fmt.Sprintf("%v (%d audit %s lost since start)", err, lost, plural(lost, "record", "records")))
		}))
	}
	return s.audit
}

// auditWriter publishes records to the audit stream, synchronously.
type auditWriter struct{ s *Shared }

func (w auditWriter) Write(p []byte) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), w.s.connectTimeout+w.s.timeout)
	defer cancel()
	_, err := w.s.Open(ctx)
	n := 0
	if err == nil {
		w.s.mu.Lock()
		st := w.s.remote
		w.s.mu.Unlock()
		if st == nil {
			return len(p), nil // not on NATS: no audit stream
		}
		n, err = st.Audit().Write(p)
	}
	return n, err
}

func plural(n uint64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Get implements kv.Store on the backend, opening it first.
func (s *Shared) Get(ctx context.Context, key string) (any, bool, error) {
	st, err := s.kv(ctx)
	if err != nil {
		return nil, false, err
	}
	return st.Get(ctx, key)
}

// Set implements kv.Store on the backend, opening it first.
func (s *Shared) Set(ctx context.Context, key string, v any, ttl time.Duration) error {
	st, err := s.kv(ctx)
	if err != nil {
		return err
	}
	return st.Set(ctx, key, v, ttl)
}

// Delete implements kv.Store on the backend, opening it first.
func (s *Shared) Delete(ctx context.Context, key string) error {
	st, err := s.kv(ctx)
	if err != nil {
		return err
	}
	return st.Delete(ctx, key)
}

// Incr implements kv.Store on the backend, opening it first.
func (s *Shared) Incr(ctx context.Context, key string, d int64, ttl time.Duration) (int64, error) {
	st, err := s.kv(ctx)
	if err != nil {
		return 0, err
	}
	return st.Incr(ctx, key, d, ttl)
}

// CompareAndSwap implements kv.Store on the backend, opening it first.
func (s *Shared) CompareAndSwap(ctx context.Context, key string, old, new any, ttl time.Duration) (bool, error) {
	st, err := s.kv(ctx)
	if err != nil {
		return false, err
	}
	return st.CompareAndSwap(ctx, key, old, new, ttl)
}

// Keys implements kv.Store on the backend, opening it first.
func (s *Shared) Keys(ctx context.Context, prefix string) ([]string, error) {
	st, err := s.kv(ctx)
	if err != nil {
		return nil, err
	}
	return st.Keys(ctx, prefix)
}

// kv is the open store for a kv operation. On NATS whose last round trip
// (a /readyz or /healthz ping, pingFresh ago at most) failed, it fails at
// once instead of letting the operation wait its whole timeout: a stalled
// server would otherwise hold each kv-using hook (and its slot of
// --max-inflight) for the hook's full timeout.
func (s *Shared) kv(ctx context.Context) (kv.Store, error) {
	s.mu.Lock()
	perr, at := s.pingErr, s.pingAt
	s.mu.Unlock()
	if perr != nil && time.Since(at) < pingFresh {
		return nil, fmt.Errorf("%w (failing fast: the last round trip, %s ago, had no answer)", perr, time.Since(at).Round(time.Millisecond))
	}
	return s.Open(ctx)
}
