package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// Server is hookctl's HTTP face: Claude Code's http hooks and any HTTP
// client fire events through one long-running engine, with no process
// start per event. It is an http.Handler and safe for concurrent use.
//
//	POST /claude, /claude/{event}  Claude Code http hook: the hook JSON in, Claude's JSON out
//	POST /v1/fire/{event}          any client: a payload object in, the SPEC outcome out
//	GET  /healthz                  status, hook count, reload information, load
//
// Everything it holds is bounded (see ServerLimits): each request's input
// is refused before it is decoded when it is past its limits (413, or 400
// for nesting); the requests that fire at once are bounded, with a bounded
// queue behind them, and a request that finds the queue full or waits too
// long gets 503 with a Retry-After header; the estimated memory of all
// inputs held at once is bounded (503 when full). /healthz is outside
// these bounds: it answers while the server is saturated. Serve it with
// the *http.Server of HTTPServer on a listener from LimitListener to bound
// connections and time as well.
type Server struct {
	eng       *engine.Engine
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
}

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

// WithLimits sets the server's limits (zero fields keep their defaults).
func WithLimits(l ServerLimits) ServerOption { return func(s *Server) { s.lim = l } }

// WithPoolStats has /healthz report the script runtimes stats returns,
// and answer 503 "wedged" when every one of them has been busy with a call
// for longer than ServerLimits.WedgedAfter (hooks stuck where an interrupt
// cannot reach them: no script hook can run). A Size of 0 means no pool.
func WithPoolStats(stats func() PoolStats) ServerOption {
	return func(s *Server) { s.poolStats = stats }
}

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
	s.mux.HandleFunc("POST /claude", s.claude)
	s.mux.HandleFunc("POST /claude/{event}", s.claude)
	s.mux.HandleFunc("POST /v1/fire/{event}", s.fire)
	s.mux.HandleFunc("GET /healthz", s.health)
	s.mux.HandleFunc("/", s.unknown)
	return s
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
	known := p == "/claude" || strings.HasPrefix(p, "/claude/") || strings.HasPrefix(p, "/v1/fire/")
	switch {
	case p == "/healthz":
		w.Header().Set("Allow", http.MethodGet)
		s.writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: use GET", r.Method, p))
	case known && r.Method != http.MethodPost:
		w.Header().Set("Allow", http.MethodPost)
		s.writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: use POST", r.Method, p))
	default:
		s.writeError(w, http.StatusNotFound, fmt.Errorf("no endpoint %s %s (POST /claude, POST /claude/{event}, POST /v1/fire/{event}, GET /healthz)", r.Method, p))
	}
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if c := trackedFrom(r.Context()); c != nil {
		// A connection in a handler is never closed to make room.
		c.t.enter(c)
		defer c.t.leave(c)
	}
	s.mux.ServeHTTP(w, r)
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
// when ok is true. Otherwise the error reply is written.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) (data []byte, done func(), ok bool) {
	s.served.Add(1)
	in := s.lim.Input
	if r.ContentLength > in.MaxBytes {
		s.refused.Add(1)
		s.writeError(w, http.StatusRequestEntityTooLarge, &InputError{Err: &LimitError{Limit: LimitBytes, Max: in.MaxBytes}})
		return nil, nil, false
	}
	release, err := s.admit(r.Context())
	if err != nil {
		s.writeBusy(w, err)
		return nil, nil, false
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(s.lim.ReadTimeout))
	data, reserved, err := readBounded(r.Body, in, &s.mem)
	done = func() {
		s.mem.release(reserved)
		release()
	}
	if err != nil {
		// The rest of the body is not worth waiting for: the server
		// closes the connection after the reply rather than read it.
		_ = rc.SetReadDeadline(time.Now())
		done()
		var le *LimitError
		var ne interface{ Timeout() bool }
		switch {
		case errors.As(err, &le):
			s.refused.Add(1)
			code := http.StatusRequestEntityTooLarge
			if le.Limit == LimitDepth {
				code = http.StatusBadRequest
			}
			s.writeError(w, code, &InputError{Err: err})
		case errors.Is(err, errBudget):
			s.writeBusy(w, &BusyError{Limit: "max-memory", What: fmt.Sprintf("the inputs in flight hold their %d-byte memory bound", s.lim.MaxMemory)})
		case errors.As(err, &ne) && ne.Timeout():
			s.timedOut.Add(1)
			s.writeError(w, http.StatusRequestTimeout, &InputError{Err: fmt.Errorf("body not received within %s (the read-timeout limit)", s.lim.ReadTimeout)})
		default:
			s.writeError(w, http.StatusBadRequest, &InputError{Err: err})
		}
		return nil, nil, false
	}
	// No deadline while the hooks run: the server watches the connection
	// to cancel the request when the client goes, and a deadline passing
	// would read as that.
	_ = rc.SetReadDeadline(time.Time{})
	return data, done, true
}

func (s *Server) writeBusy(w http.ResponseWriter, err error) {
	var be *BusyError
	if !errors.As(err, &be) {
		// The client went away while queued: nobody reads this.
		s.writeError(w, http.StatusServiceUnavailable, err)
		return
	}
	s.busy.Add(1)
	w.Header().Set("Retry-After", "1")
	s.writeError(w, http.StatusServiceUnavailable, err)
}

// claude answers a Claude Code http hook. The reply has the same shape as
// `hookctl claude`'s stdout; Claude Code reads decisions only from 2xx JSON,
// so even a block is a 200.
func (s *Server) claude(w http.ResponseWriter, r *http.Request) {
	data, done, ok := s.readBody(w, r)
	if !ok {
		return
	}
	defer done()
	payload, event, err := decodeInput(data)
	if err != nil {
		s.writeError(w, http.StatusBadRequest, err)
		return
	}
	if pe := r.PathValue("event"); pe != "" && pe != event {
		s.writeError(w, http.StatusBadRequest, &InputError{Field: "hook_event_name",
			Err: fmt.Errorf("%q does not match the URL's event %q", event, pe)})
		return
	}
	reply, err := Handle(r.Context(), s.eng, payload, event)
	if err != nil {
		s.writeError(w, http.StatusInternalServerError, err)
		return
	}
	body := reply.Stdout
	if reply.ExitCode != 0 {
		// No exit status over HTTP: continue=false carries the stop.
		b, _ := json.Marshal(map[string]any{"decision": "block", "reason": reply.Stderr})
		body = append(b, '\n')
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.lim.WriteTimeout))
	w.Header().Set("Content-Type", "application/json")
	if len(body) == 0 {
		w.WriteHeader(http.StatusOK)
		return
	}
	_, _ = w.Write(body)
}

// fire runs an event and returns the outcome.
func (s *Server) fire(w http.ResponseWriter, r *http.Request) {
	data, done, ok := s.readBody(w, r)
	if !ok {
		return
	}
	defer done()
	event := r.PathValue("event")
	payload := map[string]any{}
	if len(strings.TrimSpace(string(data))) > 0 {
		if err := json.Unmarshal(data, &payload); err != nil || payload == nil {
			if err == nil {
				err = errors.New("want a JSON object, got null")
			}
			s.writeError(w, http.StatusBadRequest, &InputError{Err: fmt.Errorf("payload: %w", err)})
			return
		}
	}
	out, err := s.eng.Fire(r.Context(), engine.Event{Name: event, Payload: payload})
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
	status, code := "ok", http.StatusOK
	if s.poolStats != nil {
		ps := s.poolStats()
		if ps.Size > 0 {
			body["scripts"] = map[string]any{"runtimes": ps.Size, "in_use": ps.InUse, "idle": ps.Idle,
				"oldest_call_ms": ps.OldestCall.Milliseconds()}
			if ps.InUse >= ps.Size && ps.OldestCall >= s.lim.WedgedAfter {
				status, code = "wedged", http.StatusServiceUnavailable
				body["reason"] = fmt.Sprintf("all %d script runtimes are busy and the oldest call has run for %s (the wedged-after limit is %s): script hooks cannot run",
					ps.Size, ps.OldestCall.Round(time.Millisecond), s.lim.WedgedAfter)
			}
		}
	}
	body["status"] = status
	s.writeJSON(w, code, body)
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
