package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/server"
)

// BenchmarkServeClaude is one POST /claude through the handler (no
// network): the request checks, reading the body, a fire with one deny
// hook and the reply.
func BenchmarkServeClaude(b *testing.B) {
	eng, err := engine.New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { eng.Close(context.Background()) })
	if err := eng.Register(engine.Hook{ID: "no-rm", Event: "PreToolUse", Handler: engine.Static(engine.Deny("no"))}); err != nil {
		b.Fatal(err)
	}
	srv := server.NewServer(eng, nil)
	const body = `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/claude", strings.NewReader(body))
		req.Host = "127.0.0.1:8765"
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code, rec.Body.String())
		}
	}
}
