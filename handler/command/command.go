package command

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/safefile"
	"github.com/hookctl/hookctl/lib/proc"
	"github.com/hookctl/hookctl/protocol"
	claudeproto "github.com/hookctl/hookctl/protocol/claude"
)

// MaxOutput bounds what is kept of a command hook's stdout and stderr.
const MaxOutput = 1 << 20

// Spec describes a command hook.
type Spec struct {
	// Argv runs a program directly, without a shell. Shell runs a command
	// line with sh -c; on Windows as the host of Protocol runs its hooks'
	// lines (Git Bash, else PowerShell, for Claude Code; PowerShell for
	// the hosts whose protocol.CommandShell says so). Set exactly one.
	Argv  []string
	Shell string
	// ShellKind is the shell that runs Shell (HCL: shell): "sh", "bash"
	// or "powershell" (protocol.KnownHookShell); "" runs it as the host of Protocol
	// runs its own hooks' lines.
	ShellKind string
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
	// Protocol is the convention the program speaks: the payload it
	// reads on stdin, the variables it gets besides HOOKCTL_* (when it
	// implements protocol.CommandEnv) and how its exit status and output
	// are read. Nil is Claude Code's (protocol/claude).
	Protocol protocol.Convention
}

// WorkDir is the directory a command hook runs in: spec.Dir when set;
// else the project, as Claude Code runs hooks: $CLAUDE_PROJECT_DIR, else
// the payload's cwd, else the project directory the loader was given,
// else the configuration directory.
func WorkDir(spec Spec, payload map[string]any) string {
	return workDir(spec, payload, os.LookupEnv)
}

func workDir(spec Spec, payload map[string]any, lookup func(string) (string, bool)) string {
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

// New returns a handler that runs an external program speaking
// spec.Protocol, by default the Claude Code hook protocol: the payload JSON on stdin; exit 0 (stdout read
// as JSON when it starts with '{', as context on the events where Claude
// Code takes plain text as context), exit 2 (a blocking error: the JSON
// reason or stderr is the message), any other exit (a failure that
// blocks nothing unless the hook's on_error says so, or valid JSON on
// stdout that alone decides). A program that cannot start (missing, not
// executable, exit 126/127) is reported as a failure to run, never as a
// decision. The payload is never put into a command line.
func New(spec Spec) (engine.Handler, error) {
	switch {
	case len(spec.Argv) > 0 && spec.Shell != "":
		return nil, errors.New("a command is either an argv or a shell line, not both")
	case len(spec.Argv) == 0 && strings.TrimSpace(spec.Shell) == "":
		return nil, errors.New("empty command")
	case spec.ShellKind != "" && (spec.Shell == "" || !protocol.KnownHookShell(spec.ShellKind)):
		return nil, fmt.Errorf("shell %q: want %s, on a command line", spec.ShellKind, protocol.HookShellNames())
	}
	c := &command{spec: spec, conv: spec.Protocol}
	if c.conv == nil {
		c.conv = claudeproto.New()
	}
	if spec.Shell != "" {
		argv, err := shellArgv(spec.Shell, spec.ShellKind, c.conv, hostShellEnv())
		if err != nil {
			// Said at every run, where the hook's failure is reported:
			// the configuration still loads on a machine without the
			// shell, and the hook never passes for having run.
			c.argv, c.noShell = []string{"sh"}, err
		} else {
			c.argv = argv
		}
	} else {
		c.argv = append([]string(nil), spec.Argv...)
	}
	return c, nil
}

type command struct {
	spec Spec
	conv protocol.Convention
	argv []string
	// noShell is why the line has no shell to run it (Windows): every
	// run is a failure to launch.
	noShell error
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
	stdin, err := c.conv.EncodePayload(call.Event, call.Payload)
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
	maps.Copy(env, hookEnv(call))
	if ce, ok := c.conv.(protocol.CommandEnv); ok {
		maps.Copy(env, ce.CommandEnv(call))
	}
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
		return claudeproto.Exit2OrError(call.Event, msg, &RefusedError{Argv0: c.argv[0], Reason: msg})
	}
	if c.noShell != nil {
		return nil, &protocol.LaunchError{Argv0: c.argv[0], Err: c.noShell}
	}
	dir := workDir(c.spec, call.Payload, lookup)
	if fi, err := os.Stat(dir); dir != "" && (err != nil || !fi.IsDir()) {
		// Said as it is: starting the program would fail with an error
		// that names the program, not the directory.
		if err == nil {
			err = errors.New("not a directory")
		}
		return nil, &protocol.LaunchError{Argv0: c.argv[0], Err: fmt.Errorf("working directory %s: %w", dir, err)}
	}
	res, err := runCommand(ctx, call.Deadline, c.argv, dir, proc.Environ(env), stdin)
	var se *proc.StartError
	switch {
	case errors.As(err, &se):
		return nil, &protocol.LaunchError{Argv0: c.argv[0], Err: se.Err}
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		return nil, &engine.TimeoutError{Hook: call.Hook, Timeout: call.Timeout}
	case err != nil:
		return nil, err
	}
	return c.conv.ReadReply(call.Event, call.Payload, res.code, res.stdout, res.stderr, c.argv[0])
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
// it), HOOKCTL_TOOL (canonical) and HOOKCTL_SESSION_ID.
func hookEnv(call *engine.Call) map[string]string {
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
	return env
}

// verify checks the files the command names against spec.Check; it
// returns why one was refused ("" when all pass).
func (c *command) verify() string {
	if c.spec.Check == nil {
		return ""
	}
	for _, f := range c.spec.Files {
		b, err := safefile.ReadRegular(f)
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

// RefusedError is a command hook whose script the trust check refused:
// it was not run.
type RefusedError struct {
	Argv0  string
	Reason string
}

func (e *RefusedError) Error() string { return e.Reason }
