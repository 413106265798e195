package runtime

import (
	"bytes"
	"context"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/lib/proc"
)

// goroutineWriter records the goroutine each write comes from.
type goroutineWriter struct{ ids []string }

func (w *goroutineWriter) Write(b []byte) (int, error) {
	buf := make([]byte, 64)
	buf = buf[:goruntime.Stack(buf, false)]
	id, _, _ := bytes.Cut(bytes.TrimPrefix(buf, []byte("goroutine ")), []byte(" "))
	w.ids = append(w.ids, string(id))
	return len(b), nil
}

// TestCallsUnderADeadlineReuseAGoroutine: calls under a host's timeout run
// on a worker that outlives them, the next call on the same goroutine
// (whose stack has grown already), not on a fresh one each.
func TestCallsUnderADeadlineReuseAGoroutine(t *testing.T) {
	parked := make(chan struct{}, 1)
	r := New()
	r.calls.Parked = func() { parked <- struct{}{} }
	w := &goroutineWriter{}
	claude, _ := Lookup("claude")
	req := Request{
		Protocol: claude, Payload: []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`),
		Env: []string{proc.DepthEnv + "=1"}, HostTimeout: time.Minute, Stderr: w,
	}
	for i := range 3 {
		reply := r.Answer(context.Background(), req)
		if !strings.Contains(string(reply.Stdout)+reply.Stderr, "own hooks") {
			t.Fatalf("call %d: %s %s", i, reply.Stdout, reply.Stderr)
		}
		<-parked // the worker waits for the next call
	}
	if len(w.ids) != 3 || w.ids[0] != w.ids[1] || w.ids[1] != w.ids[2] {
		t.Fatalf("the calls ran on goroutines %v, want one", w.ids)
	}
}
