package claude

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/stdlib/proc"
)

// MaxHookOutput bounds what is kept of a command hook's stdout and stderr.
const MaxHookOutput = 1 << 20

// CommandSpec describes a command hook.
type CommandSpec struct {
	// Argv runs a program directly, without a shell. Shell runs a command
	// line with sh -c. Set exactly one.
	Argv  []string
	Shell string
	// Env adds environment variables.
	Env map[string]string
	// Dir is the working directory (HCL: cwd). When empty the hook runs
	// where Claude Code runs hooks, in the project directory: see
	// WorkDir.
	Dir string
	// ProjectDir is the project directory the loader was given, used when
	// neither $CLAUDE_PROJECT_DIR nor the payload's cwd names one.
	ProjectDir string
	// ConfigDir is the configuration directory, the last resort.
	ConfigDir string
	// Check, when set, must accept each of Files (the files the command
	// names inside the configuration directory) with its content before
	// every run: hookctl claude and serve run only the scripts the trust
	// record pins. A refused file blocks the events that can block.
	Check func(path string, content []byte) error
	Files []string
	// Protocol is how the program's exit is read: "" or ProtocolClaude
	// (Claude Code's), or ProtocolOpta (context in OPTA_* variables, any
	// non-zero exit on a tool call's gate denies it with stderr as the
	// reason, stdout ignored).
	Protocol string
	// Encode and Read, when set, speak another host's protocol instead
	// (see package host): Encode writes the program's stdin, Read reads
	// its exit status and output. Protocol then names the host.
	Encode func(event string, payload map[string]any) ([]byte, error)
	Read   func(event string, payload map[string]any, code int, stdout, stderr []byte, argv0 string) (engine.Result, error)
}

// Command-hook protocols.
const (
	ProtocolClaude = "claude"
	ProtocolOpta   = "opta"
)

// WorkDir is the directory a command hook runs in: spec.Dir when set;
// else the project, as Claude Code runs hooks: $CLAUDE_PROJECT_DIR, else
// the payload's cwd, else the project directory the loader was given,
// else the configuration directory.
func WorkDir(spec CommandSpec, payload map[string]any) string {
	return workDir(spec, payload, os.LookupEnv)
}

func workDir(spec CommandSpec, payload map[string]any, lookup func(string) (string, bool)) string {
	if spec.Dir != "" {
		return spec.Dir
	}
	if d, _ := lookup("CLAUDE_PROJECT_DIR"); d != "" {
		return d
	}
	if d, _ := payload["cwd"].(string); d != "" {
		return d
	}
	if spec.ProjectDir != "" {
		return spec.ProjectDir
	}
	return spec.ConfigDir
}

// NewCommand returns a handler that runs an external program speaking the
// Claude Code hook protocol: the payload JSON on stdin; exit 0 (stdout read
// as JSON when it starts with '{', as context on the events where Claude
// Code takes plain text as context), exit 2 (a blocking error: the JSON
// reason or stderr is the message), any other exit (a failure that
// blocks nothing unless the hook's on_error says so, or valid JSON on
// stdout that alone decides). A program that cannot start (missing, not
// executable, exit 126/127) is reported as a failure to run, never as a
// decision. The payload is never put into a command line.
func NewCommand(spec CommandSpec) (engine.Handler, error) {
	switch {
	case spec.Protocol != "" && spec.Protocol != ProtocolClaude && spec.Protocol != ProtocolOpta && spec.Read == nil:
		return nil, fmt.Errorf("protocol %q: want %q or %q", spec.Protocol, ProtocolClaude, ProtocolOpta)
	case len(spec.Argv) > 0 && spec.Shell != "":
		return nil, errors.New("a command is either an argv or a shell line, not both")
	case len(spec.Argv) == 0 && strings.TrimSpace(spec.Shell) == "":
		return nil, errors.New("empty command")
	}
	c := &command{spec: spec}
	if spec.Shell != "" {
		c.argv = []string{"sh", "-c", spec.Shell}
	} else {
		c.argv = append([]string(nil), spec.Argv...)
	}
	return c, nil
}

type command struct {
	spec CommandSpec
	argv []string
}

func (c *command) Kind() string { return "command" }

// ToolAware implements engine.ToolAware: the program's JSON gets the
// canonical tool name (payloadJSON adds it).
func (c *command) ToolAware() bool { return true }

// Handle runs the program once. The hook's own process decides: once it
// has exited, its exit status and what it printed are used at once, even
// if a child it left behind still holds its stdout (the process group is
// killed after a short grace); if Call.Deadline passes first, the call is
// an *engine.TimeoutError and the hook's on_error applies.
func (c *command) Handle(ctx context.Context, call *engine.Call) (engine.Result, error) {
	var stdin []byte
	var err error
	if c.spec.Encode != nil {
		stdin, err = c.spec.Encode(call.Event, call.Payload)
	} else {
		stdin, err = payloadJSON(call)
	}
	if err != nil {
		return nil, err
	}
	extra := envFrom(ctx)
	lookup := func(k string) (string, bool) {
		if v, ok := extra[k]; ok {
			return v, true
		}
		return os.LookupEnv(k)
	}
	env := maps.Clone(extra)
	if env == nil {
		env = map[string]string{}
	}
	maps.Copy(env, hookEnv(call, c.spec.Protocol == ProtocolOpta))
	if _, set := lookup("CLAUDE_PROJECT_DIR"); !set {
		// The project, as the hook sees it: the payload's cwd, else the
		// loader's project directory.
		dir, _ := call.Payload["cwd"].(string)
		if dir == "" {
			dir = c.spec.ProjectDir
		}
		if dir != "" {
			env["CLAUDE_PROJECT_DIR"] = dir
		}
	}
	maps.Copy(env, c.spec.Env)
	if msg := c.verify(); msg != "" {
		return exit2OrError(call.Event, msg, &RefusedError{Argv0: c.argv[0], Reason: msg})
	}
	dir := workDir(c.spec, call.Payload, lookup)
	if fi, err := os.Stat(dir); dir != "" && (err != nil || !fi.IsDir()) {
		// Said as it is: starting the program would fail with an error
		// that names the program, not the directory.
		if err == nil {
			err = errors.New("not a directory")
		}
		return nil, &LaunchError{Argv0: c.argv[0], Err: fmt.Errorf("working directory %s: %w", dir, err)}
	}
	res, err := runCommand(ctx, call.Deadline, c.argv, dir, proc.Environ(env), stdin)
	var se *proc.StartError
	switch {
	case errors.As(err, &se):
		return nil, &LaunchError{Argv0: c.argv[0], Err: se.Err}
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		return nil, &engine.TimeoutError{Hook: call.Hook, Timeout: call.Timeout}
	case err != nil:
		return nil, err
	}
	switch {
	case c.spec.Read != nil:
		return c.spec.Read(call.Event, call.Payload, res.code, res.stdout, res.stderr, c.argv[0])
	case c.spec.Protocol == ProtocolOpta:
		return interpretOpta(call.Event, res.code, res.stderr)
	}
	return Interpret(call.Event, res.code, res.stdout, res.stderr, c.argv[0])
}

type envKey struct{}

// WithEnv returns a context under which command hooks run as if the
// process environment also held env: `hookctl test` gives each test its
// own this way, with no change to the process. The variables hookctl sets
// (HOOKCTL_*, the opta ones) and the hook's own env attribute still win,
// and a CLAUDE_PROJECT_DIR in env chooses the working directory as the
// process's would.
func WithEnv(ctx context.Context, env map[string]string) context.Context {
	if len(env) == 0 {
		return ctx
	}
	return context.WithValue(ctx, envKey{}, maps.Clone(env))
}

func envFrom(ctx context.Context) map[string]string {
	m, _ := ctx.Value(envKey{}).(map[string]string)
	return m
}

// hookEnv is the environment every command hook gets: HOOKCTL_HOOK,
// HOOKCTL_EVENT, and on tool events HOOKCTL_TOOL_NAME (as the host named
// it), HOOKCTL_TOOL (canonical) and HOOKCTL_SESSION_ID; with opta, the
// OPTA_* variables of that convention (metadata only: tool arguments
// without file contents).
func hookEnv(call *engine.Call, opta bool) map[string]string {
	p := call.Payload
	str := func(k string) string { s, _ := p[k].(string); return s }
	env := map[string]string{"HOOKCTL_HOOK": call.Hook, "HOOKCTL_EVENT": call.Event}
	tool := str("tool_name")
	if tool == "" {
		tool = str("toolName")
	}
	if tool != "" {
		env["HOOKCTL_TOOL_NAME"] = tool
		env["HOOKCTL_TOOL"] = engine.CanonicalTool(tool)
	}
	session := str("session_id")
	if session == "" {
		session = str("sessionId")
	}
	if session != "" {
		env["HOOKCTL_SESSION_ID"] = session
	}
	if opta {
		env["OPTA_EVENT"] = optaEvent(call.Event)
		env["OPTA_TOOL_NAME"] = tool
		env["OPTA_SESSION_ID"] = session
		if in, ok := p["tool_input"].(map[string]any); ok {
			env["OPTA_TOOL_ARGS"] = metadataJSON(in)
		}
	}
	return env
}

// optaEvents are the Opta names of catalog events.
var optaEvents = map[string]string{
	"PreToolUse": "tool.pre", "PostToolUse": "tool.post", "SessionStart": "session.start",
	"SessionEnd": "session.end", "Stop": "session.end", "PostCompact": "compact", "StopFailure": "error",
}

func optaEvent(event string) string {
	if n, ok := optaEvents[event]; ok {
		return n
	}
	return event
}

// contentFields are tool arguments that carry file contents, which the
// opta convention keeps out of the environment.
var contentFields = map[string]bool{
	"content": true, "new_string": true, "old_string": true, "edits": true, "file_text": true,
	"new_source": true, "patch": true, "input": true,
}

// maxArgsEnv bounds OPTA_TOOL_ARGS.
const maxArgsEnv = 16 << 10

// metadataJSON is the tool arguments as JSON without file contents: each
// content field says only its size; past maxArgsEnv, only the names.
func metadataJSON(in map[string]any) string {
	out := make(map[string]any, len(in))
	for k, v := range in {
		if contentFields[k] {
			b, _ := json.Marshal(v)
			out[k] = fmt.Sprintf("(%d bytes omitted)", len(b))
			continue
		}
		out[k] = v
	}
	b, err := json.Marshal(out)
	if err != nil || len(b) > maxArgsEnv {
		keys := slices.Sorted(maps.Keys(in))
		b, _ = json.Marshal(map[string]any{"_omitted": "arguments too large for the environment", "keys": keys})
	}
	return string(b)
}

// interpretOpta reads an opta-convention hook's exit: on a tool call's
// gate any non-zero exit denies the call with stderr as the reason;
// elsewhere a non-zero exit is a failure. Stdout is not read.
func interpretOpta(event string, code int, stderr []byte) (engine.Result, error) {
	if code == 0 {
		return nil, nil
	}
	msg := strings.TrimSpace(string(stderr))
	if event == "PreToolUse" {
		if msg == "" {
			msg = fmt.Sprintf("cancelled by a hook (exit status %d)", code)
		}
		return engine.Result{"decision": "deny", "reason": msg}, nil
	}
	return nil, &ExitError{Code: code, Stderr: firstLine(stderr)}
}

// verify checks the files the command names against spec.Check; it
// returns why one was refused ("" when all pass).
func (c *command) verify() string {
	if c.spec.Check == nil {
		return ""
	}
	for _, f := range c.spec.Files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // nothing of it can run
		}
		if err := c.spec.Check(f, b); err != nil {
			return fmt.Sprintf("hook %s was not run: %v", c.argv[0], err)
		}
	}
	return ""
}

// SelfTimed implements engine.SelfTimed: the handler ends the run at
// Call.Deadline itself, because only it can tell a hook that exited in
// time (whose decision stands, even when reading its output ends a little
// later) from one that did not.
func (c *command) SelfTimed() bool { return true }

// payloadJSON is what a command or http hook receives: the payload as
// JSON, with hook_event_name set as Claude Code sets it.
func payloadJSON(call *engine.Call) ([]byte, error) {
	payload := call.Payload
	_, hasEvent := payload["hook_event_name"]
	_, hasTool := payload[engine.ToolField]
	raw, isTool := payload["tool_name"].(string)
	if !hasEvent || (isTool && !hasTool) {
		payload = maps.Clone(payload)
		if payload == nil {
			payload = map[string]any{}
		}
		if !hasEvent {
			payload["hook_event_name"] = call.Event
		}
		if isTool && !hasTool {
			payload[engine.ToolField] = engine.CanonicalTool(raw)
		}
	}
	b, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	return b, nil
}

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

// ExitError is a command hook that failed (a non-zero exit other than 2
// without JSON output): it blocks nothing by itself.
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
		return nil, &LaunchError{Argv0: argv0, Code: code, Err: errors.New(strings.TrimSpace(errLine))}
	case code == 2 && len(bytes.TrimSpace(stdout)) == 0 && interpreterMissingScript().Match(stderr):
		// Claude Code reads exit 2 as a block whatever printed it: so
		// does hookctl, and says that the script could not be found.
		return exit2OrError(event,
			fmt.Sprintf("hook %s could not run its script (%s); exit status 2 blocks, as in Claude Code", argv0, strings.TrimSpace(errLine)),
			&LaunchError{Argv0: argv0, Code: code, Err: errors.New(strings.TrimSpace(errLine))})
	}
	var parsed engine.Result
	if IsJSONOutput(stdout) {
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
		return nil, &ExitError{Code: code, Stderr: strings.TrimSpace(errLine)}
	}
}

func nonEmpty(r engine.Result) engine.Result {
	if len(r) == 0 {
		return nil
	}
	return r
}

// exit2OrError is exit2 for a hook that never ran (a refused or missing
// script): where exit status 2 has an effect it has that effect, and where
// the event ignores it the hook fails with err instead, so that the failure
// is reported and the hook's on_error applies rather than nothing at all.
func exit2OrError(event, msg string, err error) (engine.Result, error) {
	if exit2Effects[event] == exit2Ignored {
		return nil, err
	}
	return exit2(event, msg, nil), nil
}

// RefusedError is a command hook whose script the trust check refused:
// it was not run.
type RefusedError struct {
	Argv0  string
	Reason string
}

func (e *RefusedError) Error() string { return e.Reason }

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
