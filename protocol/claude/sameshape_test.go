package claude_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol/claude"
)

// TestHandlerResultReadAsStdout: an output in Claude Code's shapes means
// the same decision and reason whether a command hook prints it (read by
// ParseOutputFor) or a script or Go handler returns it (read by the
// engine through ReadOutputFor, as assemble.NewEngine sets it up), channel
// for channel: a top-level "approve" beside hookSpecificOutput's "deny"
// is a deny both ways, and a decision in a channel the event does not
// read is dropped both ways. Random outputs of the official shapes, on
// every event of Claude Code's.
func TestHandlerResultReadAsStdout(t *testing.T) {
	decisions := []any{"allow", "deny", "ask", "approve", "block", "", nil}
	r := rand.New(rand.NewPCG(28, 9))
	pick := func() any { return decisions[r.IntN(len(decisions))] }
	output := func() map[string]any {
		out := map[string]any{}
		if r.IntN(2) == 0 {
			out["decision"] = pick()
		}
		if r.IntN(3) == 0 {
			out["reason"] = "top"
		}
		{
			// Claude Code's shapes: a result with hookSpecificOutput (one
			// without is hookctl's own vocabulary, whose decision field
			// every event reads).
			hso := map[string]any{"hookEventName": "PreToolUse"}
			switch r.IntN(4) {
			case 0:
				hso["permissionDecision"] = pick()
			case 1:
				hso["decision"] = map[string]any{"behavior": pick(), "message": "inner message"}
			case 2:
				hso["permissionDecision"] = pick()
				hso["decision"] = pick()
			}
			if r.IntN(2) == 0 {
				hso["permissionDecisionReason"] = "inner"
			}
			if r.IntN(2) == 0 {
				hso["additionalContext"] = "ctx"
			}
			out["hookSpecificOutput"] = hso
		}
		return out
	}
	// Every event of Claude Code's, PreToolUse and PermissionRequest
	// (whose channels differ) most often.
	events := []string{"PreToolUse", "PermissionRequest", "PreToolUse", "PermissionRequest"}
	for _, s := range engine.BuiltinEvents() {
		if s.Source == engine.SourceClaudeCode {
			events = append(events, s.Name)
		}
	}
	ctx := context.Background()
	payload := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}
	for i := range 6000 {
		raw := output()
		stdout, err := json.Marshal(raw)
		if err != nil {
			t.Fatal(err)
		}
		event := events[i%len(events)]
		// As a command hook's stdout is read: the channels the event does
		// not read are dropped (and listed under "ignored").
		parsed, err := claude.ParseOutputFor(event, stdout)
		if err != nil {
			t.Fatal(err)
		}
		var returned map[string]any
		if err := json.Unmarshal(stdout, &returned); err != nil {
			t.Fatal(err)
		}
		read := func(res engine.Result) string {
			// As assemble.NewEngine makes it.
			e, err := engine.New(engine.WithOutputReader(claude.ReadOutputFor))
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close(ctx)
			if err := e.Register(engine.Hook{ID: "h", Event: event, Handler: engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) {
				return res, nil
			})}); err != nil {
				t.Fatal(err)
			}
			out, err := e.Fire(ctx, engine.Event{Name: event, Payload: payload})
			if err != nil {
				t.Fatal(err)
			}
			status := ""
			for _, tr := range out.Hooks {
				status = string(tr.Status)
			}
			return fmt.Sprintf("decision %q reason %q status %s", out.Decision, out.Reason, status)
		}
		if asStdout, asResult := read(parsed), read(returned); asStdout != asResult {
			t.Fatalf("%s %s: printed %s, returned %s", event, stdout, asStdout, asResult)
		}
	}
}

// TestOutputNamesClaudeCodeReads: the fields Claude Code reads win over
// other spellings of them in a command hook's output ("Decision" never
// hides the "decision" beside it), and an empty hookSpecificOutput value
// erases no top-level one.
func TestOutputNamesClaudeCodeReads(t *testing.T) {
	for _, c := range []struct {
		event, stdout, decision string
	}{
		{"Stop", `{"Decision":null,"decision":"block","reason":"keep going"}`, "block"},
		{"UserPromptSubmit", `{"Decision":"","decision":"block","reason":"secret"}`, "block"},
		{"PreToolUse", `{"Decision":"approve","decision":"block"}`, "block"},
		{"Stop", `{"decision":"block","hookSpecificOutput":{"decision":null}}`, "block"},
		{"PermissionRequest", `{"hookSpecificOutput":{"decision":{"behavior":"deny","decision":"allow","permissionDecision":"allow"}}}`, "deny"},
		{"Notification", `{"hookSpecificOutput":{"decision":{"behavior":"deny"},"permissionDecision":null}}`, "deny"},
		{"Notification", `{"decision":"block","Decision":""}`, "block"},
	} {
		res, err := claude.ParseOutputFor(c.event, []byte(c.stdout))
		if err != nil {
			t.Fatal(err)
		}
		if res["decision"] != c.decision {
			t.Errorf("%s %s: decision %v, want %q", c.event, c.stdout, res["decision"], c.decision)
		}
	}
}

// TestOutputEmptyValueHidesNoSpelling: an exact name whose value says
// nothing ("") does not hide another spelling that does (the same rule a
// handler's result is read by).
func TestOutputEmptyValueHidesNoSpelling(t *testing.T) {
	res, err := claude.ParseOutput([]byte(`{"Outcome":"block","outcome":""}`))
	if err != nil {
		t.Fatal(err)
	}
	if res["outcome"] != "block" {
		t.Fatalf("outcome %v, want block", res["outcome"])
	}
}

// TestReadOutputForLeavesTheResult: a script may return the same result
// object on every call (a constant return is one map for all of them):
// reading it drops channels from a copy, never from the result, so every
// fire reads it alike.
func TestReadOutputForLeavesTheResult(t *testing.T) {
	res := map[string]any{"decision": "deny", "hookSpecificOutput": map[string]any{
		"permissionDecision": "allow", "decision": map[string]any{"behavior": "deny", "message": "no"}}}
	want, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	first := claude.ReadOutputFor("PermissionRequest", res)
	for range 3 {
		if got := claude.ReadOutputFor("PermissionRequest", res); fmt.Sprint(got) != fmt.Sprint(first) {
			t.Fatalf("read %v, then %v", first, got)
		}
	}
	if after, _ := json.Marshal(res); string(after) != string(want) {
		t.Fatalf("the result was changed by its reading: %s, was %s", after, want)
	}
}
