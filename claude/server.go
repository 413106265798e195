package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
//	GET  /healthz                  status, hook count, reload information
type Server struct {
	eng    *engine.Engine
	status func() map[string]any
	mux    *http.ServeMux
	served atomic.Uint64
	start  time.Time
}

// NewServer returns a server firing through eng. status, when not nil,
// adds fields to /healthz (the configuration, reload errors).
func NewServer(eng *engine.Engine, status func() map[string]any) *Server {
	s := &Server{eng: eng, status: status, mux: http.NewServeMux(), start: time.Now()}
	s.mux.HandleFunc("POST /claude", s.claude)
	s.mux.HandleFunc("POST /claude/{event}", s.claude)
	s.mux.HandleFunc("POST /v1/fire/{event}", s.fire)
	s.mux.HandleFunc("GET /healthz", s.health)
	s.mux.HandleFunc("/", s.unknown)
	return s
}

// unknown answers every other request in JSON too: a known path with the
// wrong method is 405, anything else 404.
func (s *Server) unknown(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	known := p == "/claude" || strings.HasPrefix(p, "/claude/") || strings.HasPrefix(p, "/v1/fire/")
	switch {
	case p == "/healthz":
		w.Header().Set("Allow", http.MethodGet)
		writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: use GET", r.Method, p))
	case known && r.Method != http.MethodPost:
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: use POST", r.Method, p))
	default:
		writeError(w, http.StatusNotFound, fmt.Errorf("no endpoint %s %s (POST /claude, POST /claude/{event}, POST /v1/fire/{event}, GET /healthz)", r.Method, p))
	}
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, map[string]any{"error": err.Error()})
}

// claude answers a Claude Code http hook. The reply has the same shape as
// `hookctl claude`'s stdout; Claude Code reads decisions only from 2xx JSON,
// so even a block is a 200.
func (s *Server) claude(w http.ResponseWriter, r *http.Request) {
	s.served.Add(1)
	payload, event, err := DecodeInput(http.MaxBytesReader(w, r.Body, MaxInput))
	if err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if pe := r.PathValue("event"); pe != "" && pe != event {
		writeError(w, http.StatusBadRequest, &InputError{Field: "hook_event_name",
			Err: fmt.Errorf("%q does not match the URL's event %q", event, pe)})
		return
	}
	reply, err := Handle(r.Context(), s.eng, payload, event)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	body := reply.Stdout
	if reply.ExitCode != 0 {
		// No exit status over HTTP: continue=false carries the stop.
		b, _ := json.Marshal(map[string]any{"decision": "block", "reason": reply.Stderr})
		body = append(b, '\n')
	}
	w.Header().Set("Content-Type", "application/json")
	if len(body) == 0 {
		w.WriteHeader(http.StatusOK)
		return
	}
	_, _ = w.Write(body)
}

// fire runs an event and returns the outcome.
func (s *Server) fire(w http.ResponseWriter, r *http.Request) {
	s.served.Add(1)
	event := r.PathValue("event")
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxInput))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, err)
		return
	}
	payload := map[string]any{}
	if len(strings.TrimSpace(string(data))) > 0 {
		if err := json.Unmarshal(data, &payload); err != nil || payload == nil {
			if err == nil {
				err = errors.New("want a JSON object, got null")
			}
			writeError(w, http.StatusBadRequest, &InputError{Err: fmt.Errorf("payload: %w", err)})
			return
		}
	}
	out, err := s.eng.Fire(r.Context(), engine.Event{Name: event, Payload: payload})
	if err != nil {
		var ue *engine.UnknownEventError
		if errors.As(err, &ue) {
			writeError(w, http.StatusNotFound, err)
			return
		}
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	if out.Blocked {
		w.Header().Set("X-Hookctl-Blocked", "true")
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	st := s.eng.Stats()
	body := map[string]any{
		"status":      "ok",
		"uptime_s":    int64(time.Since(s.start).Seconds()),
		"requests":    s.served.Load(),
		"fires":       st.Fires,
		"hook_errors": st.HookErrors,
		"events":      s.eng.EventsWithHooks(),
	}
	if s.status != nil {
		for k, v := range s.status() {
			body[k] = v
		}
	}
	writeJSON(w, http.StatusOK, body)
}
