package hosts_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
	"github.com/hookctl/hookctl/server"
)

// fuzzMaxInput bounds the fuzzed inputs: large enough for every fixture.
const fuzzMaxInput = 64 << 10

// FuzzDecode feeds every host's decoder what a hostile or broken host
// could send, the way `hookctl hook --host NAME` reads it (claude's
// bounded reader, then the host's Decode), and checks: no panic; an
// error is an *InputError that names the field it is about; a decoded
// event has a name, a payload that encodes as JSON, stays within the
// input's nesting limit (a JSON document in a string, such as Copilot's
// toolArgs, included) and is bounded by the input's size; and each reply
// the host can get (a deny, an allow, a block) is JSON when it is not
// empty.
func FuzzDecode(f *testing.F) {
	seeds := []string{
		`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`,
		`{"hook_event_name":"BeforeTool","session_id":"s","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"beforeShellExecution","conversation_id":"c","workspace_roots":["/p"],"command":"rm -rf /"}`,
		`{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`,
		`{"hookEventName":"preToolUse","toolName":"bash","toolArgs":"[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]"}`,
		`{"toolArgs":"` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `"}`,
		`{"toolArgs":"not json"}`,
		`{"hook_event_name":5}`,
		`{"hook_event_name":""}`,
		`{"event":"PreToolUse","tool_input":null}`,
		`{"workspace_roots":[1,"x"],"cwd":7}`,
		`{}`,
		`[]`,
		`null`,
	}
	if b, err := os.ReadFile("testdata/crush/PreToolUse.bash.rm.json"); err == nil {
		seeds = append(seeds, string(b))
	}
	for i, s := range seeds {
		for h := range len(hosts.New().Names()) {
			f.Add(uint8(h), []string{"", "preToolUse", "PreToolUse", "Stop"}[i%4], []byte(s))
		}
	}
	names := hosts.New().Names()
	f.Fuzz(func(t *testing.T, hi uint8, event string, data []byte) {
		if len(data) > fuzzMaxInput || len(event) > 256 {
			t.Skip()
		}
		h, _ := hosts.New().Lookup(names[int(hi)%len(names)])
		raw, err := server.DecodeObject(bytes.NewReader(data))
		if err != nil {
			var ie *protocol.InputError
			if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), "hook input") {
				t.Fatalf("reading: %T %v", err, err)
			}
			return
		}
		ev, err := h.Decode(raw, event)
		if err != nil {
			var ie *protocol.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("%s: decode error %T, not an *InputError: %v", h.Name(), err, err)
			}
			if ie.Field == "" || !strings.Contains(err.Error(), ie.Field) {
				t.Fatalf("%s: decode error does not name its field: %q", h.Name(), err)
			}
			return
		}
		if ev.Name == "" || ev.Payload == nil || ev.Protocol != h {
			t.Fatalf("%s: decoded %+v", h.Name(), ev)
		}
		out, err := json.Marshal(ev.Payload)
		if err != nil {
			t.Fatalf("%s: the payload does not encode: %v", h.Name(), err)
		}
		if max := 8*len(data) + 4096; len(out) > max {
			t.Fatalf("%s: a %d-byte input decoded to %d bytes", h.Name(), len(data), len(out))
		}
		if d := depth(ev.Payload); d > server.MaxInputDepth+1 {
			t.Fatalf("%s: the payload nests %d levels, past the input limit of %d", h.Name(), d, server.MaxInputDepth)
		}
		for _, o := range []engine.Outcome{
			{Event: ev.Name, Decision: engine.DecisionDeny, Reason: "no", Blocked: true, Continue: true},
			{Event: ev.Name, Decision: engine.DecisionAllow, Continue: true},
			{Event: ev.Name, Decision: "block", Reason: "again", Blocked: true, Continue: true},
		} {
			for _, r := range []protocol.Reply{h.Reply(ev, o, protocol.Options{}), h.Block(ev, "cannot read")} {
				if len(r.Stdout) > 0 && !json.Valid(bytes.TrimSpace(r.Stdout)) {
					t.Fatalf("%s: reply is not JSON: %q", h.Name(), r.Stdout)
				}
			}
		}
	})
}

// depth is how deeply v's objects and arrays nest.
func depth(v any) int {
	d := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	case []any:
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	}
	return 0
}
