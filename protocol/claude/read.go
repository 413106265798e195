package claude

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"strings"
	"sync"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/protocol"
)

// Reading what a command hook speaking Claude Code's protocol answered:
// its exit status, stdout and stderr (claude-code-hooks.md §1).

// interpreterMissingScript matches interpreters reporting a missing script
// file with exit status 2 (python, dash), which Claude Code reads as a
// block: the reason then says the script was not found.
var interpreterMissingScript = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)can't open file .*No such file or directory|No such file or directory.*\.(py|sh|rb|pl|js)`)
})

// Interpret applies Claude Code's exit-status and output rules to a command
// hook's result (also used for http hooks with code 0).
func Interpret(event string, code int, stdout, stderr []byte, argv0 string) (engine.Result, error) {
	errLine := firstLine(stderr)
	switch {
	case code == 126 || code == 127:
		return nil, &protocol.LaunchError{Argv0: argv0, Code: code, Err: errors.New(strings.TrimSpace(errLine))}
	case code == 2 && len(bytes.TrimSpace(stdout)) == 0 && interpreterMissingScript().Match(stderr):
		// Claude Code reads exit 2 as a block whatever printed it: so
		// does hookctl, and says that the script could not be found.
		return Exit2OrError(event,
			fmt.Sprintf("hook %s could not run its script (%s); exit status 2 blocks, as in Claude Code", argv0, strings.TrimSpace(errLine)),
			&protocol.LaunchError{Argv0: argv0, Code: code, Err: errors.New(strings.TrimSpace(errLine))})
	}
	var parsed engine.Result
	if protocol.IsJSONOutput(stdout) {
		var err error
		parsed, err = ParseOutputFor(event, stdout)
		if err != nil && code != 2 {
			return nil, err
		}
	}
	switch code {
	case 0:
		if parsed != nil {
			return nonEmpty(parsed), nil
		}
		if text := strings.TrimSpace(string(stdout)); text != "" && PlainTextIsContext(event) {
			return engine.Result{"additional_context": text}, nil
		}
		return nil, nil
	case 2:
		msg := ""
		if parsed != nil {
			msg, _ = parsed["reason"].(string)
		}
		if msg == "" {
			msg = strings.TrimSpace(string(stderr))
		}
		if msg == "" {
			msg = "blocked by a hook (exit status 2)"
		}
		return exit2(event, msg, parsed), nil
	default:
		if parsed != nil {
			// Valid JSON alone decides; the exit status is ignored.
			return nonEmpty(parsed), nil
		}
		return nil, &protocol.ExitError{Code: code, Stderr: strings.TrimSpace(errLine)}
	}
}

func nonEmpty(r engine.Result) engine.Result {
	if len(r) == 0 {
		return nil
	}
	return r
}

// Exit2OrError is exit2 for a hook that never ran (a refused or missing
// script): where exit status 2 has an effect it has that effect, and where
// the event ignores it the hook fails with err instead, so that the failure
// is reported and the hook's on_error applies rather than nothing at all.
func Exit2OrError(event, msg string, err error) (engine.Result, error) {
	if exit2Effects[event] == exit2Ignored {
		return nil, err
	}
	return exit2(event, msg, nil), nil
}

// exit2 is what exit status 2 means on each event (claude-code-hooks.md
// §1, the "Exit 2" column). A JSON allow cannot undo it.
func exit2(event, msg string, parsed engine.Result) engine.Result {
	res := engine.Result{}
	for k, v := range parsed {
		if k != "decision" && k != "reason" {
			res[k] = v
		}
	}
	switch exit2Effects[event] {
	case exit2Context:
		res["additional_context"] = msg
	case exit2Message:
		res["system_message"] = msg
	case exit2Decline:
		res["action"] = "decline"
		res["reason"] = msg
	case exit2Ignored:
		if len(res) == 0 {
			return nil
		}
	default:
		// Blocks: the engine maps "block" onto the event's own decision
		// (deny on PreToolUse, cancel on message_sending, ...).
		res["decision"] = "block"
		res["reason"] = msg
	}
	return res
}

const (
	exit2Block = iota
	exit2Context
	exit2Message
	exit2Decline
	exit2Ignored
)

var exit2Effects = map[string]int{
	"SessionStart": exit2Message, "Setup": exit2Message, "InstructionsLoaded": exit2Ignored,
	"MessageDisplay": exit2Ignored, "PermissionRequest": exit2Ignored, "PermissionDenied": exit2Ignored,
	"PostToolUseFailure": exit2Context, "Notification": exit2Ignored, "SubagentStart": exit2Message,
	"StopFailure": exit2Ignored, "CwdChanged": exit2Message, "DirectoryAdded": exit2Ignored,
	"FileChanged": exit2Message, "WorktreeRemove": exit2Ignored, "PostCompact": exit2Message,
	"PostModelSwitch": exit2Ignored, "Elicitation": exit2Decline, "ElicitationResult": exit2Decline,
	"SessionEnd": exit2Message,
}

// firstLine is the first line of b, trimmed, at most 500 bytes.
func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 500 {
		s = s[:500]
	}
	return s
}

// PayloadJSON is what a command or http hook receives: the payload as
// JSON, with hook_event_name set as Claude Code sets it.
func PayloadJSON(event string, payload map[string]any) ([]byte, error) {
	_, hasEvent := payload["hook_event_name"]
	_, hasTool := payload[engine.ToolField]
	raw, isTool := payload["tool_name"].(string)
	if !hasEvent || (isTool && !hasTool) {
		payload = maps.Clone(payload)
		if payload == nil {
			payload = map[string]any{}
		}
		if !hasEvent {
			payload["hook_event_name"] = event
		}
		if isTool && !hasTool {
			payload[engine.ToolField] = engine.CanonicalTool(raw)
		}
	}
	b, err := jsonx.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	return b, nil
}
