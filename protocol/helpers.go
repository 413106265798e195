package protocol

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/hookctl/hookctl/engine"
)

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

// CatalogName is the catalog's name of an event given by name or alias
// (before_tool_call is PreToolUse); name itself when the catalog does not
// have it.
func CatalogName(name string) string {
	if c, ok := catalogNames()[name]; ok {
		return c
	}
	return name
}

// catalogNames maps every catalog event's name and aliases to its name:
// read on every decode, built once from the catalog (read-only).
var catalogNames = sync.OnceValue(func() map[string]string {
	names := map[string]string{}
	for _, s := range engine.BuiltinEvents() {
		for _, n := range append([]string{s.Name}, s.Aliases...) {
			if _, taken := names[n]; !taken { // the first event that has it, as KnownEvent reads
				names[n] = s.Name
			}
		}
	}
	return names
})

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
