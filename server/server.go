package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookctl/hookctl/runtime"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/metrics"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/claude"
)

// Server is hookctl's HTTP face: Claude Code's http hooks and any HTTP
// client fire events through one long-running engine, with no process
// start per event. It is an http.Handler and safe for concurrent use.
//
//	POST /claude, /claude/{event}  Claude Code http hook: the hook JSON in, Claude's JSON out
//	POST /hook/{host}[/{event}]    any host's hook JSON in, the host's reply out (WithAnswer);
//	                               ?host_timeout=60s: how long the caller waits (default: the host's)
//	POST /v1/fire/{event}          any client: a payload object in, the SPEC outcome out
//	GET  /healthz                  status, hook count, reload information, load
//	GET  /livez                    liveness: 200 unless wedged (as /healthz)
//	GET  /readyz                   readiness: 200 while serving and every readiness check passes
//	GET  /metrics                  Prometheus metrics (WithMetrics)
//
// Fire replies carry the Hookctl-Config-Hash header when WithConfigHash is
// set.
//
// It answers no web browser: a request with a Host that is not a
// loopback name, with an Origin header, or a POST whose body is not
// application/json is refused (403, 403, 415) unless WithRequestPolicy
// allows it.
//
// Everything it holds is bounded (see ServerLimits): each request's input
// is refused before it is decoded when it is past its limits (413, or 400
// for nesting); the requests that fire at once are bounded, with a bounded
// queue behind them, and a request that finds the queue full or waits too
// long gets 503 with a Retry-After header; the estimated memory of all
// inputs held at once is bounded (503 when full). /healthz, /livez,
// /readyz and /metrics are outside these bounds: they answer while the
// server is saturated. Serve it with
// the *http.Server of HTTPServer on a listener from LimitListener to bound
// connections and time as well.
type Server struct {
	eng    *engine.Engine
	answer AnswerFunc
	// gate, when set, refuses every fire while it returns an error
	// (WithGate).
	gate      func() error
	status    func() map[string]any
	poolStats func() PoolStats
	lim       ServerLimits
	mux       *http.ServeMux
	start     time.Time

	slots   chan struct{} // one per request firing
	waiting atomic.Int64  // requests queued for a slot
	mem     memBudget
	conns   *connTracker

	served   atomic.Uint64
	busy     atomic.Uint64 // 503: queue full, queue wait over, memory full
	refused  atomic.Uint64 // input past a limit
	timedOut atomic.Uint64 // a client too slow to send its body
	// forbidden counts requests refused for their Host or Origin,
	// unsupported those whose body was not application/json.
	forbidden   atomic.Uint64
	unsupported atomic.Uint64
	policy      RequestPolicy
	// rejected counts the refusals by limit (the keys of rejectedLimits).
	rejected map[string]*atomic.Uint64

	metrics    *metrics.Metrics
	metricsH   http.Handler
	configHash func() string
	checks     []readinessCheck
	draining   atomic.Bool

	// outs holds Outcomes for FireInto: a request's is back once its
	// reply is written.
	outs sync.Pool
}

// rejectedLimits are the limits a request can be refused by.
var rejectedLimits = []string{"max-queue", "queue-timeout", "max-memory", LimitBytes, LimitDepth, LimitValues, "read-timeout"}

// HeaderConfigHash is the header of fire replies naming the hash of the
// configuration serving (WithConfigHash).
const HeaderConfigHash = "Hookctl-Config-Hash"

// ServerLimits bound what a Server holds. A zero field takes its default
// (DefaultServerLimits).
type ServerLimits struct {
	// Input bounds each request's body (bytes, nesting, values).
	Input InputLimits
	// MaxMemory bounds the estimated decoded size of all the inputs held
	// at once (2 bytes per byte read plus 128 per JSON value); it is
	// raised to what one input at the Input limits needs.
	MaxMemory int64
	// MaxInFlight bounds the requests that fire at once; MaxQueue bounds
	// those waiting for one of them to end, for QueueTimeout at most.
	MaxInFlight  int
	MaxQueue     int
	QueueTimeout time.Duration
	// MaxConns bounds the open connections (LimitListener).
	MaxConns int
	// ReadHeaderTimeout bounds reading a request's headers, ReadTimeout
	// its body (from when it is admitted), WriteTimeout writing the reply
	// (from when the hooks are done), IdleTimeout a kept-alive connection
	// waiting for its next request.
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	// WedgedAfter is how long every script runtime may be busy with a
	// call before /healthz reports the server wedged (503).
	WedgedAfter time.Duration
}

// DefaultServerLimits returns the defaults of `hookctl serve`.
func DefaultServerLimits() ServerLimits {
	return ServerLimits{
		Input:             DefaultInputLimits(),
		MaxMemory:         512 << 20,
		MaxInFlight:       64,
		MaxQueue:          256,
		QueueTimeout:      10 * time.Second,
		MaxConns:          1024,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      15 * time.Second,
		IdleTimeout:       60 * time.Second,
		WedgedAfter:       60 * time.Second,
	}
}

func (l ServerLimits) withDefaults() ServerLimits {
	d := DefaultServerLimits()
	l.Input = l.Input.withDefaults()
	set := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	setD := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&l.MaxInFlight, d.MaxInFlight)
	set(&l.MaxQueue, d.MaxQueue)
	set(&l.MaxConns, d.MaxConns)
	setD(&l.QueueTimeout, d.QueueTimeout)
	setD(&l.ReadHeaderTimeout, d.ReadHeaderTimeout)
	setD(&l.ReadTimeout, d.ReadTimeout)
	setD(&l.WriteTimeout, d.WriteTimeout)
	setD(&l.IdleTimeout, d.IdleTimeout)
	setD(&l.WedgedAfter, d.WedgedAfter)
	if l.MaxMemory <= 0 {
		l.MaxMemory = d.MaxMemory
	}
	// One input at the limits always fits.
	l.MaxMemory = max(l.MaxMemory, 2*l.Input.MaxBytes+valueCost*int64(l.Input.MaxValues))
	return l
}

// PoolStats is what /healthz reports of a pool of script runtimes: their
// number, how many run a call and how many wait, and for how long the
// oldest call in progress has run.
type PoolStats struct {
	Size, InUse, Idle int
	OldestCall        time.Duration
}

// ServerOption configures a Server.
type ServerOption func(*Server)

// AnswerFunc answers one host hook request read within the server's
// limits: body is the host's hook JSON, host the protocol's name (claude,
// crush, ...), event the URL's event ("" when it has none). Input that
// cannot be read (not JSON, not an event of the protocol, an event other
// than the URL's) is an error wrapping an *InputError (400); a host it
// does not serve an *UnknownHostError (404). Every other failure must be
// answered in the reply, fail-closed (runtime.Runtime.Try).
type AnswerFunc func(ctx context.Context, call HookCall) (Reply, error)

// HookCall is one host hook request.
type HookCall struct {
	// Host is the protocol's name (claude, crush, ...), Event the URL's
	// event ("" when it has none) and Body the host's hook JSON.
	Host, Event string
	Body        []byte
	// HostTimeout is the request's host_timeout: how long the caller
	// waits for the reply (0: the host's default for the event; see
	// runtime.Request.HostTimeout). The reply is the host's block when
	// hooks still run at runtime.Deadline of it.
	HostTimeout time.Duration
	// Start is when the request came in.
	Start time.Time
	// Failure, when set, is why the request cannot be answered by its
	// hooks (the server busy, input past a limit or not received): the
	// answer is the host's block for the event, which Body (the input,
	// or as much of it as was read) or Event names when it can, as
	// `hookctl claude` blocks input it cannot read. A Claude Code http
	// hook reads any status but 2xx as no objection.
	Failure error
}

// UnknownHostError is a /hook/{host} request for a host the server does
// not answer.
type UnknownHostError struct{ Host string }

func (e *UnknownHostError) Error() string { return fmt.Sprintf("no host %q", e.Host) }

// WithAnswer answers the host hook routes (/claude, /claude/{event},
// /hook/{host}, /hook/{host}/{event}) with answer. Without it they answer
// through a runtime firing the server's engine (runtime.Watched), for
// every host of protocol/hosts.
func WithAnswer(answer AnswerFunc) ServerOption { return func(s *Server) { s.answer = answer } }

// WithGate refuses every fire while gate returns an error: the host hook
// routes answer the host's block naming it, /v1/fire/{event} 503. hookctl
// serve --bundle gates on a signed policy having verified.
func WithGate(gate func() error) ServerOption { return func(s *Server) { s.gate = gate } }

// WithLimits sets the server's limits (zero fields keep their defaults).
func WithLimits(l ServerLimits) ServerOption { return func(s *Server) { s.lim = l } }

// WithPoolStats has /healthz report the script runtimes stats returns,
// and answer 503 "wedged" when every one of them has been busy with a call
// for longer than ServerLimits.WedgedAfter (hooks stuck where an interrupt
// cannot reach them: no script hook can run). A Size of 0 means no pool.
func WithPoolStats(stats func() PoolStats) ServerOption {
	return func(s *Server) { s.poolStats = stats }
}

// WithMetrics records the server's fires, hook runs' outcomes, requests
// and load in m, and serves h (metrics.Handler of m's registry) at GET
// /metrics. Tell m of hook runs by creating the engine with
// engine.WithObserver(m).
func WithMetrics(m *metrics.Metrics, h http.Handler) ServerOption {
	return func(s *Server) { s.metrics, s.metricsH = m, h }
}

// WithConfigHash names the configuration serving: hash is called for every
// fire reply (the Hookctl-Config-Hash header) and for /healthz and /readyz
// ("config_hash"), so that replicas serving different configurations show.
func WithConfigHash(hash func() string) ServerOption {
	return func(s *Server) { s.configHash = hash }
}

// ReadinessCheck reports whether something the server needs is ready: nil
// when it is, else why not. It must return soon after ctx ends.
type ReadinessCheck func(ctx context.Context) error

type readinessCheck struct {
	name  string
	check ReadinessCheck
}

// WithReadiness adds a check /readyz runs: while it returns an error,
// /readyz answers 503 naming it. name says what it checks ("config",
// "nats", ...); checks run in the order given, each within
// ReadinessTimeout.
func WithReadiness(name string, check ReadinessCheck) ServerOption {
	return func(s *Server) {
		if check != nil {
			s.checks = append(s.checks, readinessCheck{name: name, check: check})
		}
	}
}

// ReadinessTimeout bounds each readiness check of a /readyz request.
const ReadinessTimeout = 2 * time.Second

// NewServer returns a server firing through eng. status, when not nil,
// adds fields to /healthz (the configuration, reload errors).
func NewServer(eng *engine.Engine, status func() map[string]any, opts ...ServerOption) *Server {
	s := &Server{eng: eng, status: status, mux: http.NewServeMux(), start: time.Now(), lim: DefaultServerLimits()}
	for _, o := range opts {
		o(s)
	}
	s.lim = s.lim.withDefaults()
	s.slots = make(chan struct{}, s.lim.MaxInFlight)
	s.mem.max = s.lim.MaxMemory
	s.conns = &connTracker{max: s.lim.MaxConns}
	s.rejected = make(map[string]*atomic.Uint64, len(rejectedLimits))
	for _, l := range rejectedLimits {
		s.rejected[l] = new(atomic.Uint64)
	}
	if s.answer == nil {
		s.answer = answerWith(eng, s.gate)
	}
	s.mux.HandleFunc("POST /claude", s.claude)
	s.mux.HandleFunc("POST /claude/{event}", s.claude)
	s.mux.HandleFunc("POST /hook/{host}", s.hook)
	s.mux.HandleFunc("POST /hook/{host}/{event}", s.hook)
	s.mux.HandleFunc("POST /v1/fire/{event}", s.fire)
	s.mux.HandleFunc("GET /healthz", s.health)
	s.mux.HandleFunc("GET /livez", s.live)
	s.mux.HandleFunc("GET /readyz", s.ready)
	if s.metricsH != nil {
		s.mux.Handle("GET /metrics", s.metricsH)
	}
	s.mux.HandleFunc("/", s.unknown)
	if s.metrics != nil {
		// Registering twice (a second server on one Metrics) is refused:
		// the first server's stats keep being served.
		_ = s.metrics.WatchServer(s.stats)
	}
	return s
}

// Drain marks the server as shutting down: /readyz answers 503
// "draining" from now on, so that load balancers stop sending requests,
// while every endpoint keeps serving those that still come. Call it when
// shutdown starts, before closing the listener. Drain is idempotent.
func (s *Server) Drain() { s.draining.Store(true) }

// Draining reports whether Drain was called.
func (s *Server) Draining() bool { return s.draining.Load() }

// stats is the server's load for metrics.
func (s *Server) stats() metrics.ServerStats {
	st := metrics.ServerStats{
		InFlight: len(s.slots), MaxInFlight: s.lim.MaxInFlight,
		Queued: int(s.waiting.Load()), MaxQueue: s.lim.MaxQueue,
		InputMemory: s.mem.used.Load(), MaxInputMemory: s.lim.MaxMemory,
		Connections: s.conns.openCount(), MaxConnections: s.lim.MaxConns, ConnectionsClosed: s.conns.evicted.Load(),
		Rejected: make(map[string]uint64, len(s.rejected)), Draining: s.draining.Load(),
	}
	for l, n := range s.rejected {
		st.Rejected[l] = n.Load()
	}
	return st
}

// reject counts a request refused by limit.
func (s *Server) reject(limit string) {
	if n := s.rejected[limit]; n != nil {
		n.Add(1)
	}
}

// Limits returns the limits in force (defaults applied).
func (s *Server) Limits() ServerLimits { return s.lim }

// HTTPServer returns an *http.Server serving s with its header and idle
// timeouts, bounded headers, and the connection tracking LimitListener
// relies on. Serve it on s.LimitListener(ln).
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.lim.ReadHeaderTimeout,
		IdleTimeout:       s.lim.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ConnContext:       connContext,
		// ReadTimeout and WriteTimeout stay unset: they would run while
		// the hooks run (and the first cancels the request's context when
		// it passes). The handlers set both deadlines for the body and
		// for the reply themselves.
	}
}

// unknown answers every other request in JSON too: a known path with the
// wrong method is 405, anything else 404.
func (s *Server) unknown(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	known := p == "/claude" || strings.HasPrefix(p, "/claude/") || strings.HasPrefix(p, "/hook/") || strings.HasPrefix(p, "/v1/fire/")
	switch {
	case p == "/healthz" || p == "/livez" || p == "/readyz" || p == "/metrics" && s.metricsH != nil:
		w.Header().Set("Allow", http.MethodGet)
		s.writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: use GET", r.Method, p))
	case known && r.Method != http.MethodPost:
		w.Header().Set("Allow", http.MethodPost)
		s.writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: use POST", r.Method, p))
	default:
		endpoints := "POST /claude, POST /claude/{event}, POST /hook/{host}, POST /hook/{host}/{event}, POST /v1/fire/{event}, GET /healthz, GET /livez, GET /readyz"
		if s.metricsH != nil {
			endpoints += ", GET /metrics"
		}
		s.writeError(w, http.StatusNotFound, fmt.Errorf("no endpoint %s %s (%s)", r.Method, p, endpoints))
	}
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if c := trackedFrom(r.Context()); c != nil {
		// A connection in a handler is never closed to make room.
		c.t.enter(c)
		defer c.t.leave(c)
	}
	handle := s.mux.ServeHTTP
	if err := s.policy.checkOrigin(r); err != nil {
		// A browser's request (or a rebound name's): refused before
		// anything reads it.
		handle = func(w http.ResponseWriter, r *http.Request) {
			s.forbidden.Add(1)
			s.writeError(w, http.StatusForbidden, err)
		}
	}
	if s.metrics == nil {
		handle(w, r)
		return
	}
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w}
	handle(sw, r)
	s.metrics.ObserveRequest(route(r.Pattern), sw.code(), time.Since(start))
}

// route is the label of a request's route: the path of the pattern the
// mux matched (a closed set), "other" for the catch-all.
func route(pattern string) string {
	if _, path, ok := strings.Cut(pattern, " "); ok {
		pattern = path
	}
	if pattern == "" || pattern == "/" {
		return "other"
	}
	return pattern
}

// statusWriter records the status code of a reply. Unwrap lets
// http.NewResponseController reach the connection's deadlines.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) code() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}

// writeJSON writes the reply, within WriteTimeout.
func (s *Server) writeJSON(w http.ResponseWriter, status int, v any) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.lim.WriteTimeout))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) writeError(w http.ResponseWriter, status int, err error) {
	s.writeJSON(w, status, map[string]any{"error": err.Error()})
}

// BusyError is a request the server had no room for: it may succeed
// later (503 with Retry-After).
type BusyError struct {
	// Limit names the limit that is full: max-queue, queue-timeout or
	// max-memory.
	Limit string
	What  string
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("server busy: %s (the %s limit); retry later", e.What, e.Limit)
}

// admit waits for a slot to fire in, behind at most MaxQueue others and
// for QueueTimeout at most. release frees the slot.
func (s *Server) admit(ctx context.Context) (release func(), err error) {
	release = func() { <-s.slots }
	select {
	case s.slots <- struct{}{}:
		return release, nil
	default:
	}
	if s.waiting.Add(1) > int64(s.lim.MaxQueue) {
		s.waiting.Add(-1)
		return nil, &BusyError{Limit: "max-queue", What: fmt.Sprintf("%d requests in flight and %d waiting", s.lim.MaxInFlight, s.lim.MaxQueue)}
	}
	defer s.waiting.Add(-1)
	t := time.NewTimer(s.lim.QueueTimeout)
	defer t.Stop()
	select {
	case s.slots <- struct{}{}:
		return release, nil
	case <-t.C:
		return nil, &BusyError{Limit: "queue-timeout", What: fmt.Sprintf("no request slot free within %s", s.lim.QueueTimeout)}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// readBody admits the request and reads its body within the limits. done
// releases what it holds (the slot, the memory reserved); it is not nil
// when ok is true. Otherwise the reply is written: by refuse, given the
// status an error reply would have, the error and as much of the body as
// was read (at most its first 64 KiB), or as an error reply when refuse
// is nil.
//
// by, when not zero, is when the caller stops waiting (a hook request's
// host_timeout): a request still queued or read then is refused.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, by time.Time, refuse func(code int, err error, head []byte)) (data []byte, done func(), ok bool) {
	var head headReader
	fail := func(code int, err error) {
		if refuse == nil {
			if code == http.StatusServiceUnavailable {
				s.writeBusy(w, err)
				return
			}
			s.writeError(w, code, err)
			return
		}
		if code == http.StatusServiceUnavailable {
			s.countBusy(err)
		}
		refuse(code, err, head.bytes())
	}
	s.served.Add(1)
	if err := checkContentType(r); err != nil {
		// Not read: a browser's "simple" request (text/plain, form data)
		// never gets to fire.
		s.unsupported.Add(1)
		s.writeError(w, http.StatusUnsupportedMediaType, err)
		return nil, nil, false
	}
	in := s.lim.Input
	rc := http.NewResponseController(w)
	if r.ContentLength > in.MaxBytes {
		s.refused.Add(1)
		s.reject(LimitBytes)
		// Not read at all: no client of a hook route sends such a body,
		// and waiting for one would let a client hold a connection.
		w.Header().Set("Connection", "close")
		fail(http.StatusRequestEntityTooLarge, &InputError{Err: &LimitError{Limit: LimitBytes, Max: in.MaxBytes}})
		return nil, nil, false
	}
	// The body is read before a request slot is taken: a client that
	// sends headers and no body holds its connection (bounded by
	// --max-conns, the idlest closed first) and its memory reservation,
	// not one of the slots every guarded call needs.
	readBy := time.Now().Add(s.lim.ReadTimeout)
	if !by.IsZero() && by.Before(readBy) {
		readBy = by
	}
	_ = rc.SetReadDeadline(readBy)
	head.r = r.Body
	data, reserved, err := readBounded(&head, in, &s.mem)
	if err != nil {
		// The rest of the body is not worth waiting for: the server
		// closes the connection after the reply rather than read it, and
		// says so, so that no client sends its next request on a
		// connection whose read deadline has passed (it was answered 500,
		// a non-blocking error to Claude Code).
		w.Header().Set("Connection", "close")
		_ = rc.SetReadDeadline(time.Now())
		s.mem.release(reserved)
		var le *LimitError
		var ne interface{ Timeout() bool }
		switch {
		case errors.As(err, &le):
			s.refused.Add(1)
			s.reject(le.Limit)
			code := http.StatusRequestEntityTooLarge
			if le.Limit == LimitDepth {
				code = http.StatusBadRequest
			}
			fail(code, &InputError{Err: err})
		case errors.Is(err, errBudget):
			fail(http.StatusServiceUnavailable, &BusyError{Limit: "max-memory", What: fmt.Sprintf("the inputs in flight hold their %d-byte memory bound", s.lim.MaxMemory)})
		case errors.As(err, &ne) && ne.Timeout():
			s.timedOut.Add(1)
			s.reject("read-timeout")
			fail(http.StatusRequestTimeout, &InputError{Err: fmt.Errorf("body not received within %s (the read-timeout limit)", s.lim.ReadTimeout)})
		default:
			fail(http.StatusBadRequest, &InputError{Err: err})
		}
		return nil, nil, false
	}
	actx := r.Context()
	if !by.IsZero() {
		var cancel context.CancelFunc
		actx, cancel = context.WithDeadline(actx, by)
		defer cancel()
	}
	release, err := s.admit(actx)
	if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
		err = &BusyError{Limit: "queue-timeout", What: "no request slot free before the caller stops waiting (host_timeout)"}
	}
	if err != nil {
		s.mem.release(reserved)
		fail(http.StatusServiceUnavailable, err)
		return nil, nil, false
	}
	done = func() {
		s.mem.release(reserved)
		release()
	}
	// No deadline while the hooks run: the server watches the connection
	// to cancel the request when the client goes, and a deadline passing
	// would read as that.
	_ = rc.SetReadDeadline(time.Time{})
	return data, done, true
}

func (s *Server) writeBusy(w http.ResponseWriter, err error) {
	if s.countBusy(err) {
		w.Header().Set("Retry-After", "1")
	}
	s.writeError(w, http.StatusServiceUnavailable, err)
}

// countBusy counts a request refused for a full limit, and reports
// whether err is one (not a client gone while queued).
func (s *Server) countBusy(err error) bool {
	var be *BusyError
	if !errors.As(err, &be) {
		return false
	}
	s.busy.Add(1)
	s.reject(be.Limit)
	return true
}

// headLimit bounds the part of a refused hook request's body read for
// its event's name (protocol.EventNameIn).
const headLimit = 64 << 10

// headReader reads through r, keeping the first headLimit bytes read.
type headReader struct {
	r    io.Reader
	head []byte
}

func (h *headReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if room := headLimit - len(h.head); room > 0 && n > 0 {
		h.head = append(h.head, p[:min(n, room)]...)
	}
	return n, err
}

func (h *headReader) bytes() []byte { return h.head }

// claude answers a Claude Code http hook. The reply has the same shape as
// `hookctl claude`'s stdout; Claude Code reads decisions only from 2xx JSON,
// so even a block is a 200.
func (s *Server) claude(w http.ResponseWriter, r *http.Request) {
	s.answerHook(w, r, "claude")
}

// hook answers a host's hook request in the host's reply format, as
// `hookctl hook --host HOST` would on stdout; a reply that blocks with an
// exit status (input a host's reply cannot carry) is a 200 JSON block.
func (s *Server) hook(w http.ResponseWriter, r *http.Request) {
	s.answerHook(w, r, r.PathValue("host"))
}

// answerHook reads a host hook request and writes the reply: its stdout
// as the body; an exit status that blocks, which HTTP cannot carry, as
// {"decision":"block","reason":STDERR}.
func (s *Server) answerHook(w http.ResponseWriter, r *http.Request, host string) {
	start := time.Now()
	call := HookCall{Host: host, Event: r.PathValue("event"), Start: start}
	// A hook request no hook can answer (the server busy, input past a
	// limit or not received) gets the host's block, as `hookctl claude`
	// blocks input it cannot read: an http hook's error status is no
	// objection to Claude Code.
	refuse := func(_ int, err error, head []byte) {
		call.Body, call.Failure = head, err
		s.replyHook(w, r, call)
	}
	var by time.Time
	var bad error
	if v := r.URL.Query().Get("host_timeout"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			bad = &InputError{Err: fmt.Errorf("host_timeout %q: want a positive duration (60s)", v)}
		} else {
			call.HostTimeout, by = d, start.Add(runtime.Deadline(d))
		}
	}
	data, done, ok := s.readBody(w, r, by, refuse)
	if !ok {
		return
	}
	defer done()
	call.Body, call.Failure = data, bad
	s.replyHook(w, r, call)
}

// replyHook answers a hook call and writes its reply.
func (s *Server) replyHook(w http.ResponseWriter, r *http.Request, call HookCall) {
	reply, err := s.answer(r.Context(), call)
	var he *UnknownHostError
	if errors.As(err, &he) {
		s.writeError(w, http.StatusNotFound, err)
		return
	}
	s.hashHeader(w)
	if s.metrics != nil && call.Failure == nil {
		s.metrics.ObserveFire(&reply.Outcome, time.Since(call.Start))
	}
	if err != nil {
		// Not a reply of the host's: the call is blocked all the same.
		reply = Reply{Stderr: fmt.Sprintf("hookctl: %v; no hook could decide, so the action is blocked", err), ExitCode: 2}
	}
	body := reply.Stdout
	if reply.ExitCode != 0 {
		body = httpBlock(call, reply)
	} else if msg := strings.TrimSpace(reply.Stderr); msg != "" {
		// What the command would say on stderr (a rewrite the host
		// cannot apply, an ask mapped, context dropped): an HTTP reply
		// has no stderr, so it is the reply's systemMessage, which the
		// user is shown, never dropped.
		body = withSystemMessage(body, msg)
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.lim.WriteTimeout))
	w.Header().Set("Content-Type", "application/json")
	if len(body) == 0 {
		w.WriteHeader(http.StatusOK)
		return
	}
	_, _ = w.Write(body)
}

// httpBlock is the reply body of a block the host reads from a command
// hook's exit status, which HTTP cannot carry: a top-level block with the
// reason, or for Claude Code the event's own block (a PreToolUse deny, an
// Elicitation declined). Claude Code reads a block of some events
// (TaskCompleted, TeammateIdle) only from the exit status: for them, and
// for a block whose event cannot be told, the reply also stops the agent
// (continue:false), the only stop an http hook can give, and says why.
// The event is the reply's, else the one the top level of the input's
// first 64 KiB names (input that could not be read whole), else the
// URL's.
func httpBlock(call HookCall, reply Reply) []byte {
	reason := strings.TrimSpace(reply.Stderr)
	m := map[string]any{"decision": "block", "reason": reason}
	if call.Host == claude.Name {
		event := reply.Event
		if event == "" {
			event = protocol.EventNameIn(call.Body, "hook_event_name")
		}
		if event == "" {
			event = call.Event
		}
		event = protocol.CatalogName(event)
		switch {
		case !protocol.KnownEvent(event) || claude.BlocksByExitStatus(event):
			m["continue"], m["stopReason"] = false, reason
			if event != "" && claude.BlocksByExitStatus(event) {
				m["systemMessage"] = fmt.Sprintf("hookctl: a hook blocked %s, which Claude Code reads from a command hook's exit status only; an http hook cannot give one, so the agent is stopped instead: %s", event, reason)
			}
		case event == "Elicitation" || event == "ElicitationResult":
			// Exit status 2 declines: over HTTP, the declining action.
			m = map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": event, "action": "decline"}, "systemMessage": reason}
		default:
			p := claude.New()
			if ev, err := p.Decode(map[string]any{"hook_event_name": event}, ""); err == nil {
				if r := p.Block(ev, reason); r.ExitCode == 0 && (bytes.Contains(r.Stdout, []byte(`"decision"`)) || bytes.Contains(r.Stdout, []byte(`"permissionDecision"`))) {
					return r.Stdout
				}
			}
		}
	}
	b, _ := json.Marshal(m)
	return append(b, '\n')
}

// withSystemMessage adds msg to a JSON object reply's systemMessage (an
// empty reply becomes one with it); a reply that is not a JSON object
// (WorktreeCreate's path) is left as it is.
func withSystemMessage(body []byte, msg string) []byte {
	top := map[string]any{}
	if len(strings.TrimSpace(string(body))) > 0 {
		var err error
		if top, err = jsonx.DecodeObject(body); err != nil {
			return body
		}
	}
	if prev, _ := top["systemMessage"].(string); strings.Contains(prev, msg) {
		return body // said already
	} else if prev != "" {
		msg = prev + "\n\n" + msg
	}
	top["systemMessage"] = msg
	b, err := jsonx.Marshal(top)
	if err != nil {
		return body
	}
	return append(b, '\n')
}

// answerWith is the answer of a server without WithAnswer: the hook
// routes answer through a runtime firing the server's engine, as hookctl
// serve's do.
func answerWith(eng *engine.Engine, gate func() error) AnswerFunc {
	src := runtime.Watched(eng)
	if gate != nil {
		src = runtime.Gated(src, gate)
	}
	rt := runtime.New(runtime.WithSource(src), runtime.WithTransportLimits())
	reg := runtime.Hosts()
	return func(ctx context.Context, call HookCall) (Reply, error) {
		p, ok := reg.Lookup(call.Host)
		if !ok {
			return Reply{}, &UnknownHostError{Host: call.Host}
		}
		req := runtime.Request{Protocol: p, Event: call.Event, Payload: call.Body, HostTimeout: call.HostTimeout, Start: call.Start}
		if call.Failure != nil {
			return rt.Refuse(req, call.Failure), nil
		}
		// Answer, not Try: input that cannot be read is the host's
		// block, as for `hookctl claude`, never an error status.
		return rt.Answer(ctx, req), nil
	}
}

// fire runs an event and returns the outcome.
func (s *Server) fire(w http.ResponseWriter, r *http.Request) {
	data, done, ok := s.readBody(w, r, time.Time{}, nil)
	if !ok {
		return
	}
	defer done()
	event := r.PathValue("event")
	payload := map[string]any{}
	if len(strings.TrimSpace(string(data))) > 0 {
		var err error
		if payload, err = jsonx.DecodeObject(data); err != nil {
			s.writeError(w, http.StatusBadRequest, &InputError{Err: fmt.Errorf("payload: %w", err)})
			return
		}
	}
	if s.gate != nil {
		if err := s.gate(); err != nil {
			s.writeError(w, http.StatusServiceUnavailable, fmt.Errorf("%w; no hook ran", err))
			return
		}
	}
	s.hashHeader(w)
	start := time.Now()
	out, _ := s.outs.Get().(*engine.Outcome)
	if out == nil {
		out = new(engine.Outcome)
	}
	defer s.outs.Put(out)
	err := s.eng.FireInto(r.Context(), engine.Event{Name: event, Payload: payload}, out)
	if s.metrics != nil {
		s.metrics.ObserveFire(out, time.Since(start))
	}
	if err != nil {
		var ue *engine.UnknownEventError
		if errors.As(err, &ue) {
			s.writeError(w, http.StatusNotFound, err)
			return
		}
		s.writeError(w, http.StatusInternalServerError, err)
		return
	}
	if out.Blocked {
		w.Header().Set("X-Hookctl-Blocked", "true")
	}
	s.writeJSON(w, http.StatusOK, out)
}

// hashHeader names the configuration serving in a fire reply.
func (s *Server) hashHeader(w http.ResponseWriter) {
	if s.configHash != nil {
		if h := s.configHash(); h != "" {
			w.Header().Set(HeaderConfigHash, h)
		}
	}
}

// health reports the server's state. It takes no request slot, so that it
// answers while the server is saturated. It is 503 when the server is
// wedged: every script runtime busy with a call for longer than
// WedgedAfter.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	st := s.eng.Stats()
	body := map[string]any{
		"uptime_s":    int64(time.Since(s.start).Seconds()),
		"requests":    s.served.Load(),
		"fires":       st.Fires,
		"hook_errors": st.HookErrors,
		"events":      s.eng.EventsWithHooks(),
		"load": map[string]any{
			"active_fires":       st.ActiveFires,
			"in_flight":          len(s.slots),
			"max_in_flight":      s.lim.MaxInFlight,
			"queued":             s.waiting.Load(),
			"max_queue":          s.lim.MaxQueue,
			"input_memory":       s.mem.used.Load(),
			"max_input_memory":   s.lim.MaxMemory,
			"rejected_busy":      s.busy.Load(),
			"refused_input":      s.refused.Load(),
			"body_timeouts":      s.timedOut.Load(),
			"refused_origin":     s.forbidden.Load(),
			"refused_media_type": s.unsupported.Load(),
			"connections":        s.conns.openCount(),
			"max_connections":    s.lim.MaxConns,
			"connections_closed": s.conns.evicted.Load(),
		},
	}
	if s.status != nil {
		for k, v := range s.status() {
			body[k] = v
		}
	}
	if s.configHash != nil {
		body["config_hash"] = s.configHash()
	}
	body["draining"] = s.draining.Load()
	status, code := "ok", http.StatusOK
	if ps, ok := s.scriptStats(); ok {
		body["scripts"] = map[string]any{"runtimes": ps.Size, "in_use": ps.InUse, "idle": ps.Idle,
			"oldest_call_ms": ps.OldestCall.Milliseconds()}
	}
	if reason := s.wedged(); reason != "" {
		status, code = "wedged", http.StatusServiceUnavailable
		body["reason"] = reason
	}
	body["status"] = status
	s.writeJSON(w, code, body)
}

// scriptStats returns the script runtimes' stats, if there is a pool.
func (s *Server) scriptStats() (PoolStats, bool) {
	if s.poolStats == nil {
		return PoolStats{}, false
	}
	ps := s.poolStats()
	return ps, ps.Size > 0
}

// wedged says why the server is wedged (every script runtime busy with a
// call for longer than WedgedAfter), or "" when it is not.
func (s *Server) wedged() string {
	ps, ok := s.scriptStats()
	if !ok || ps.InUse < ps.Size || ps.OldestCall < s.lim.WedgedAfter {
		return ""
	}
	return fmt.Sprintf("all %d script runtimes are busy and the oldest call has run for %s (the wedged-after limit is %s): script hooks cannot run",
		ps.Size, ps.OldestCall.Round(time.Millisecond), s.lim.WedgedAfter)
}

// live answers a liveness probe: 200 while the server's loop answers and
// is not wedged (as /healthz), 503 when wedged. It does no other work, so
// a saturated server is still alive.
func (s *Server) live(w http.ResponseWriter, r *http.Request) {
	if reason := s.wedged(); reason != "" {
		s.writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "wedged", "reason": reason})
		return
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"status": "ok"})
}

// ready answers a readiness probe: 200 when the server is serving a
// configuration, is not draining, is not wedged, and every readiness
// check passes; 503 otherwise, naming the checks that failed. The engine
// being closed fails the built-in "engine" check.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	checks := map[string]string{}
	var failing []string
	note := func(name string, err error) {
		if err != nil {
			checks[name] = err.Error()
			failing = append(failing, name)
			return
		}
		checks[name] = "ok"
	}
	if s.draining.Load() {
		note("draining", errors.New("shutting down: not taking new work"))
	} else {
		note("draining", nil)
	}
	if reason := s.wedged(); reason != "" {
		note("scripts", errors.New(reason))
	}
	if s.eng.Closed() {
		note("engine", engine.ErrClosed)
	} else {
		note("engine", nil)
	}
	for _, c := range s.checks {
		ctx, cancel := context.WithTimeout(r.Context(), ReadinessTimeout)
		err := c.check(ctx)
		cancel()
		note(c.name, err)
	}
	body := map[string]any{"checks": checks}
	if s.configHash != nil {
		body["config_hash"] = s.configHash()
	}
	if len(failing) == 0 {
		body["status"] = "ready"
		s.writeJSON(w, http.StatusOK, body)
		return
	}
	body["status"] = "not ready"
	if failing[0] == "draining" {
		body["status"] = "draining"
	}
	body["failing"] = failing
	s.writeJSON(w, http.StatusServiceUnavailable, body)
}

// memBudget bounds the estimated memory of the inputs held at once.
type memBudget struct {
	used atomic.Int64
	max  int64
}

func (b *memBudget) reserve(n int64) bool {
	if b.used.Add(n) > b.max {
		b.used.Add(-n)
		return false
	}
	return true
}

func (b *memBudget) release(n int64) {
	if n > 0 {
		b.used.Add(-n)
	}
}
