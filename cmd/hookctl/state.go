package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/claude"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/auditq"
	"github.com/hookctl/hookctl/internal/natsurl"
	"github.com/hookctl/hookctl/natsstate"
	"github.com/hookctl/hookctl/stdlib/kv"
)

// How long connecting to NATS may take. serve takes --nats-timeout; the
// one-shot commands (claude, hook, the daemon's calls), which an agent
// waits on, give up sooner.
const (
	defaultNATSTimeout = 5 * time.Second
	oneShotNATSTimeout = 2 * time.Second
	// reopenAfter is how long a failed open is answered from memory
	// before the next use tries again (a daemon lives long).
	reopenAfter = 2 * time.Second
)

// stateBackend says where a command keeps its state.
type stateBackend struct {
	// NATS is the server list of the shared state on NATS JetStream;
	// empty for the file store.
	NATS string
	// File is the file store's path (empty: kv.DefaultPath).
	File string
	// Source says what chose NATS, for messages: "--nats" or
	// "settings.state at FILE:LINE:COL".
	Source string
}

func (b stateBackend) String() string {
	if b.NATS != "" {
		return fmt.Sprintf("NATS %s (%s)", natsurl.Redact(b.NATS), b.Source)
	}
	if b.File != "" {
		return "file " + b.File
	}
	return "the default state file"
}

// same reports whether b and o keep the state in the same place, wherever
// they were written.
func (b stateBackend) same(o stateBackend) bool { return b.NATS == o.NATS && b.File == o.File }

// backendOf is the state a loaded configuration asks for: NATS when it
// sets settings.state, else the file store of settings.state_file.
func backendOf(cfg *assemble.Config) stateBackend {
	if cfg.Settings.State == "" {
		return stateBackend{File: cfg.Settings.StateFile}
	}
	src := "settings.state"
	if r := cfg.Decoded().StateRange; r.Filename != "" {
		src = fmt.Sprintf("settings.state at %s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
	}
	return stateBackend{NATS: cfg.Settings.State, Source: src}
}

// sharedState is a command's state: the kv store of hookctl/kv and the
// stateful built-ins, the Stop loop guard's counts and, on NATS, the
// audit log. It is kept in a file (the default: settings.state_file, else
// $HOOKCTL_STATE_DIR/kv.json, ...) or, for a fleet of replicas, in NATS
// JetStream (hookctl serve --nats, settings.state). The engine and the
// configuration are built with it before the configuration says which
// (configure); it opens on first use, or when open is called, and a
// failure to open is the error of every use until it opens.
//
// It never fails open: while NATS cannot be reached a kv call fails (the
// hookctl/kv module throws, and the hook's on_error decides), the loop
// guard cannot count (the outcome's stop_guard.error says so, and a
// block stands), and an audit record that cannot be published is an
// error the engine logs with the count of records lost so far.
//
// It is safe for concurrent use.
type sharedState struct {
	name           string // the client's name on NATS
	connectTimeout time.Duration
	timeout        time.Duration // each operation's bound on NATS
	replicas       int           // servers keeping the bucket and stream it creates (0: 1)

	mu       sync.Mutex
	backend  stateBackend
	store    kv.Store
	nats     *natsstate.State
	err      error // the last open's failure
	failedAt time.Time
	closed   bool
	// audit queues the audit records for the stream (auditLog), so that
	// a slow or stalled NATS never delays a decision.
	audit *auditq.Queue
	// The last round trip to NATS (Check): when, and its error.
	pingAt  time.Time
	pingErr error
}

// pingFresh is how long /healthz reports the last round trip to NATS
// instead of making one of its own.
const pingFresh = 5 * time.Second

// newSharedState returns a state on the file store until configured.
func newSharedState(name string, connectTimeout, timeout time.Duration) *sharedState {
	return &sharedState{name: name, connectTimeout: connectTimeout, timeout: timeout}
}

// configure chooses the backend. It must be called before the first use;
// later calls are ignored (a long-running process keeps the state it
// opened: see backendInUse).
func (s *sharedState) configure(b stateBackend) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.store == nil && s.err == nil {
		s.backend = b
	}
}

// backendInUse is the backend configured, or opened.
func (s *sharedState) backendInUse() stateBackend {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.backend
}

// onNATS reports whether the backend is NATS.
func (s *sharedState) onNATS() bool { return s.backendInUse().NATS != "" }

// open opens the backend, if it is not open yet, within ctx and the
// connect timeout. NATS that cannot be reached fails it with an error
// matching natsstate.ErrUnavailable.
func (s *sharedState) open(ctx context.Context) (kv.Store, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("state store: closed")
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
	if b.NATS == "" {
		st, err := openFileStore(b.File)
		if err != nil {
			s.err, s.failedAt = fmt.Errorf("state store: %w", err), time.Now()
			return nil, s.err
		}
		s.store = st
		return st, nil
	}
	// Connecting, then finding or creating the bucket and the stream, is
	// bounded as a whole, by one connect timeout (--nats-timeout): a
	// server that accepts the connection but never answers JetStream must
	// not hang a command, nor take a timeout per step.
	octx, cancel := context.WithTimeout(ctx, s.connectTimeout)
	defer cancel()
	st, err := natsstate.Open(octx, b.NATS,
		natsstate.WithConnectTimeout(s.connectTimeout),
		natsstate.WithTimeout(s.timeout),
		natsstate.WithReplicas(max(s.replicas, 1)),
		natsstate.WithNATSOptions(nats.Name(s.name)))
	if err != nil {
		err = fmt.Errorf("shared state on %s: %w", b, err)
		if ctx.Err() == nil {
			// NATS's failure, not the caller's context ending: the next
			// uses get it at once, for a while.
			s.err, s.failedAt = err, time.Now()
		}
		return nil, err
	}
	s.nats, s.store = st, st.KV()
	return s.store, nil
}

// openFileStore opens the file store at path (kv.DefaultPath when empty),
// creating its directory.
func openFileStore(path string) (*kv.File, error) {
	if path == "" {
		var err error
		if path, err = kv.DefaultPath(); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	return kv.OpenFile(path)
}

// Ready reports whether the state can serve now: nil for a file store
// that opened, and for NATS while the client is connected (no I/O: see
// natsstate.State.Ready); otherwise why not. It is the seam for a
// readiness check (GET /readyz).
func (s *sharedState) Ready() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return errors.New("state store: closed")
	case s.nats != nil:
		if err := s.nats.Ready(); err != nil {
			return fmt.Errorf("shared state on %s: %w", s.backend, err)
		}
		return nil
	case s.store != nil:
		return nil
	case s.err != nil:
		return s.err
	}
	return errors.New("state store: not open yet")
}

// status describes the state for /healthz.
func (s *sharedState) status() map[string]any {
	b := s.backendInUse()
	out := map[string]any{"backend": "file"}
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
			ctx, cancel := context.WithTimeout(context.Background(), claude.ReadinessTimeout)
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
func (s *sharedState) Check(ctx context.Context) error {
	if err := s.Ready(); err != nil {
		return err
	}
	s.mu.Lock()
	st, b := s.nats, s.backend
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

func (s *sharedState) auditQueue() *auditq.Queue {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.audit
}

// closeAudit writes the audit records still queued, until ctx ends; the
// error says how many were lost, if any. Records written after it are
// dropped.
func (s *sharedState) closeAudit(ctx context.Context) error {
	if q := s.auditQueue(); q != nil {
		return q.Close(ctx)
	}
	return nil
}

// Close writes the audit records still queued (for the operation timeout
// at most), then closes the NATS connection, if any. Uses after it fail.
func (s *sharedState) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	return s.Shutdown(ctx)
}

// auditGone bounds the wait, after the NATS connection closed, for the
// audit queue's publish in progress to fail and be logged.
const auditGone = time.Second

// Shutdown writes the audit records still queued until ctx ends, then
// closes the NATS connection, which ends a publish still in progress, and
// waits (auditGone at most) for that publish's failure to be logged, so
// that every record lost is reported before Shutdown returns. The error
// counts the records lost. Uses after it fail; it is idempotent.
func (s *sharedState) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	already := s.closed
	s.mu.Unlock()
	if already {
		return nil
	}
	aerr := s.closeAudit(ctx)
	s.mu.Lock()
	st, q := s.nats, s.audit
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

// loops is the Stop loop guard's store: its counts in the kv store, under
// "stopguard/", as one-shot processes have always kept them.
func (s *sharedState) loops() engine.Option { return engine.WithLoopStore(kv.LoopStore(s)) }

// auditLog is the audit writer of a state on NATS, for
// engine.SetAuditLog. A record is queued (a bounded queue: auditq) and
// Write returns at once, so that a slow or stalled NATS never delays a
// decision; the queue's goroutine publishes each record to the audit
// stream. A record that finds the queue full is dropped, and Write's
// error (which the engine logs) says so; one that cannot be published is
// logged on log. Both say how many records were lost since the process
// started. Close (or closeAudit) publishes what is still queued.
func (s *sharedState) auditLog(log *slog.Logger) io.Writer {
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
type auditWriter struct{ s *sharedState }

func (w auditWriter) Write(p []byte) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), w.s.connectTimeout+w.s.timeout)
	defer cancel()
	_, err := w.s.open(ctx)
	n := 0
	if err == nil {
		w.s.mu.Lock()
		st := w.s.nats
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

func (s *sharedState) Get(ctx context.Context, key string) (any, bool, error) {
	st, err := s.kv(ctx)
	if err != nil {
		return nil, false, err
	}
	return st.Get(ctx, key)
}

func (s *sharedState) Set(ctx context.Context, key string, v any, ttl time.Duration) error {
	st, err := s.kv(ctx)
	if err != nil {
		return err
	}
	return st.Set(ctx, key, v, ttl)
}

func (s *sharedState) Delete(ctx context.Context, key string) error {
	st, err := s.kv(ctx)
	if err != nil {
		return err
	}
	return st.Delete(ctx, key)
}

func (s *sharedState) Incr(ctx context.Context, key string, d int64, ttl time.Duration) (int64, error) {
	st, err := s.kv(ctx)
	if err != nil {
		return 0, err
	}
	return st.Incr(ctx, key, d, ttl)
}

func (s *sharedState) CompareAndSwap(ctx context.Context, key string, old, new any, ttl time.Duration) (bool, error) {
	st, err := s.kv(ctx)
	if err != nil {
		return false, err
	}
	return st.CompareAndSwap(ctx, key, old, new, ttl)
}

func (s *sharedState) Keys(ctx context.Context, prefix string) ([]string, error) {
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
func (s *sharedState) kv(ctx context.Context) (kv.Store, error) {
	s.mu.Lock()
	perr, at := s.pingErr, s.pingAt
	s.mu.Unlock()
	if perr != nil && time.Since(at) < pingFresh {
		return nil, fmt.Errorf("%w (failing fast: the last round trip, %s ago, had no answer)", perr, time.Since(at).Round(time.Millisecond))
	}
	return s.open(ctx)
}

var _ kv.Store = (*sharedState)(nil)

// natsFlag parses --nats: a comma-separated list of nats:// or tls://
// URLs (empty: not given).
func natsFlag(v string) (string, error) {
	if strings.TrimSpace(v) == "" {
		return "", nil
	}
	urls, err := natsurl.Parse(v)
	if err != nil {
		return "", usageError("--nats: %v", err)
	}
	return strings.Join(urls, ","), nil
}
