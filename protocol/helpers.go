package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
)

// Marshal is a reply's stdout: the object as one JSON line (nothing for
// an empty object unless always).
func Marshal(top map[string]any, always bool) Reply {
	if len(top) == 0 && !always {
		return Reply{}
	}
	b, _ := json.Marshal(top)
	return Reply{Stdout: append(b, '\n')}
}

// Message is what the user should see besides the decision: the system
// message and the hooks that failed.
func Message(out engine.Outcome) string {
	return strings.TrimSpace(strings.Join(NonEmpty(out.SystemMessage, HookFailures(out)), "\n\n"))
}

// NonEmpty returns the strings of s that are not empty.
func NonEmpty(s ...string) []string {
	var out []string
	for _, v := range s {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// ReasonOr is r, or def when r is blank.
func ReasonOr(r, def string) string {
	if strings.TrimSpace(r) == "" {
		return def
	}
	return r
}

// OrText is s, or def when s is empty.
func OrText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// FirstLine is the first line of s, trimmed.
func FirstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func joinReason(a, b string) string {
	if strings.TrimSpace(a) == "" {
		return b
	}
	return a + " (" + b + ")"
}

// HookFailures tells the user which hooks failed (error or timeout) and
// why, and when the Stop loop guard could not count: hosts show a hook
// command's stderr only in their debug logs and count exit 0 as success,
// so a failing guard would go unseen. A failure that counted as a block
// is said by the block's reason already.
func HookFailures(out engine.Outcome) string {
	var lines []string
	for _, h := range out.Hooks {
		if (h.Status != engine.StatusError && h.Status != engine.StatusTimeout) || h.FailClosed {
			continue
		}
		msg := h.Error
		if len(msg) > 300 {
			msg = msg[:300] + "..."
		}
		lines = append(lines, fmt.Sprintf("hookctl: hook %q failed (%s): %s", h.ID, h.Status, msg))
	}
	if g := out.StopGuard; g != nil && g.Error != "" {
		lines = append(lines, fmt.Sprintf("hookctl: the Stop loop guard could not count (%s): the hooks' decision stands, and a block is not counted toward stop_block_cap %d", g.Error, g.Cap))
	}
	return strings.Join(lines, "\n")
}

// BlockingDecision is the decision that blocks event: deny on the tool
// gates, block elsewhere where the event can block; "" if it cannot.
func BlockingDecision(event string) engine.Decision {
	for _, s := range engine.BuiltinEvents() {
		if s.Name == event || slices.Contains(s.Aliases, event) {
			for _, d := range s.Decisions {
				if engine.Decision(d).Blocks() {
					return engine.Decision(d)
				}
			}
		}
	}
	return ""
}

// IsToolGate reports whether event is a tool call's permission point.
func IsToolGate(event string) bool {
	return event == "PreToolUse" || event == "PermissionRequest"
}

// KnownEvent reports whether the catalog has the event (by name or
// alias).
func KnownEvent(name string) bool {
	for _, s := range engine.BuiltinEvents() {
		if s.Name == name || slices.Contains(s.Aliases, name) {
			return true
		}
	}
	return false
}

// IsJSONOutput reports whether hook stdout is to be read as JSON: its
// first non-space character is '{' (Claude Code's rule, which every host
// copies).
func IsJSONOutput(stdout []byte) bool {
	t := bytes.TrimLeft(stdout, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// OutputError is hook stdout that looks like JSON but is not valid.
type OutputError struct {
	Err error
	// Snippet is the start of the output.
	Snippet string
}

func (e *OutputError) Error() string {
	return fmt.Sprintf("hook output is not valid JSON (%v): %q", e.Err, e.Snippet)
}

// Unwrap returns the decoding error.
func (e *OutputError) Unwrap() error { return e.Err }

// LaunchError is a command hook that could not run: the program is
// missing or not executable. It decided nothing.
type LaunchError struct {
	Argv0 string
	Code  int
	Err   error
}

func (e *LaunchError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("could not run %s: %v", e.Argv0, e.Err)
	}
	return fmt.Sprintf("could not run %s: exit %d", e.Argv0, e.Code)
}

// Unwrap returns the cause.
func (e *LaunchError) Unwrap() error { return e.Err }

// ExitError is a command hook that failed (a non-zero exit that its
// protocol does not read as a decision): it blocks nothing by itself.
type ExitError struct {
	Code   int
	Stderr string
}

func (e *ExitError) Error() string {
	if e.Stderr == "" {
		return fmt.Sprintf("hook exited with status %d", e.Code)
	}
	return fmt.Sprintf("hook exited with status %d: %s", e.Code, e.Stderr)
}

// ReadDecision is a decision a host's script wrote, in hookctl's words:
// the legacy approve is allow, and block on a tool gate is deny.
func ReadDecision(event, d string) string {
	switch d {
	case "approve":
		d = "allow"
	case "block":
		if IsToolGate(event) {
			d = "deny"
		}
	}
	return d
}

// ReadUniversal reads the fields every Claude-shaped reply may carry:
// continue, stopReason and systemMessage.
func ReadUniversal(raw map[string]any, res engine.Result) {
	if c, ok := raw["continue"].(bool); ok && !c {
		res["continue"] = false
		if s, _ := raw["stopReason"].(string); s != "" {
			res["stop_reason"] = s
		}
	}
	if s, _ := raw["systemMessage"].(string); s != "" {
		res["system_message"] = s
	}
}

// DecodeReply decodes a script's JSON reply with the payload decoder (an
// updated input keeps its integers exact); nil when stdout is not JSON.
func DecodeReply(stdout []byte) (map[string]any, error) {
	if !IsJSONOutput(stdout) {
		return nil, nil
	}
	raw, err := jsonx.DecodeObject(stdout)
	if err != nil {
		return nil, &OutputError{Err: err, Snippet: FirstLine(string(stdout))}
	}
	return raw, nil
}

// Result is res, or nil when it is empty.
func Result(res engine.Result) engine.Result {
	if len(res) == 0 {
		return nil
	}
	return res
}
