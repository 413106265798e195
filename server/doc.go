// Package server is hookctl's hardened HTTP transport (hookctl serve):
// the host hook routes (/claude, /hook/{host}, answered through package
// runtime, the same request path as every other transport), /v1/fire,
// health and readiness probes and metrics, with everything a client can
// make it hold bounded (ServerLimits): each input's bytes, nesting and
// values before it is decoded (DecodeInput, InputLimits), the requests
// firing and queued, the memory of the inputs held, the connections and
// the time each phase may take.
//
// Start (or Run) is hookctl serve's whole lifecycle around it: the
// engine watching its configuration (every load trust-gated unless
// Config.AllowUntrusted; a failed reload keeps the last good one and
// /healthz says so), metrics, readiness checks, the shared state, the
// listener, and the drain and ordered shutdown (Running.Wait, Shutdown).
//
// The Claude Code codec is package protocol/claude; the command and http
// handler kinds are packages handler/command and handler/http.
package server
