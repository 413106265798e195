package hosts_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
)

// TestHandleIntoAnswersAsHandle: HandleInto, reusing one outcome for
// every call (a rewrite, then a call with none, a deny, an ask, an event
// no hook has, crush's recorded payloads), answers byte for byte as
// Handle does, and its outcome's decision and output are Handle's: nothing
// of an earlier call's outcome shows in a later reply.
func TestHandleIntoAnswersAsHandle(t *testing.T) {
	eng := loadEngine(t)
	type call struct {
		name string
		ev   func() *protocol.Event
	}
	var calls []call
	decode := func(host string, raw map[string]any, event string) func() *protocol.Event {
		return func() *protocol.Event {
			h, _ := hosts.New().Lookup(host)
			ev, err := h.Decode(raw, event)
			if err != nil {
				t.Fatalf("%s: decode: %v", host, err)
			}
			return ev
		}
	}
	for _, name := range hosts.New().Names() {
		for _, cmd := range []string{"pip install requests", "echo hi", "rm -rf /home/dev/shop/build-cache", "git push origin main", "pip install x"} {
			calls = append(calls, call{name + " " + cmd, func() *protocol.Event {
				raw, event := shellPayload(t, name, cmd)
				return decode(name, raw, event)()
			}})
		}
	}
	files, _ := filepath.Glob("testdata/crush/*.json")
	for _, f := range files {
		calls = append(calls, call{f, func() *protocol.Event {
			b, _ := os.ReadFile(f)
			var raw map[string]any
			if err := json.Unmarshal(b, &raw); err != nil {
				t.Fatal(err)
			}
			return decode("crush", raw, "")()
		}})
	}
	calls = append(calls, call{"an event no hook has", decode("claude", map[string]any{"hook_event_name": "Bogus", "session_id": "s"}, "")})
	if len(calls) < 30 {
		t.Fatalf("%d calls", len(calls))
	}
	out := new(engine.Outcome)
	for round := range 2 {
		for _, c := range calls {
			want, werr := protocol.Handle(context.Background(), eng, c.ev(), protocol.Options{})
			got, gerr := protocol.HandleInto(context.Background(), eng, c.ev(), protocol.Options{}, out)
			if (werr == nil) != (gerr == nil) || string(got.Stdout) != string(want.Stdout) || got.Stderr != want.Stderr || got.ExitCode != want.ExitCode {
				t.Fatalf("round %d, %s: HandleInto answered\n%v %d %s %q\nHandle\n%v %d %s %q", round, c.name,
					gerr, got.ExitCode, got.Stdout, got.Stderr, werr, want.ExitCode, want.Stdout, want.Stderr)
			}
			g, w := got.Outcome, want.Outcome
			if g.Decision != w.Decision || g.Reason != w.Reason || g.Blocked != w.Blocked || g.Continue != w.Continue ||
				len(g.Output) != len(w.Output) || (len(w.Output) > 0 && !reflect.DeepEqual(g.Output, w.Output)) ||
				!reflect.DeepEqual(g.UpdatedInput, w.UpdatedInput) || len(g.Hooks) != len(w.Hooks) {
				t.Fatalf("round %d, %s: outcome %+v, Handle's %+v", round, c.name, g, w)
			}
		}
	}
}
