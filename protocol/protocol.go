package protocol

import (
	"fmt"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// Reply is what hookctl answers a host for one hook event: the JSON (or
// text) for stdout or the http response body, the message for stderr and
// the exit status of a command hook.
type Reply struct {
	Stdout   []byte
	Stderr   string
	ExitCode int
	// Outcome is the engine's outcome (zero when nothing was fired).
	Outcome engine.Outcome
	// Event is the catalog event the reply answers, "" when the input
	// could not be read as one: a transport that renders the reply
	// another way (serve, where no exit status is read) renders it for
	// the event.
	Event string
}

// Event is one decoded hook input: the host's event, the catalog event
// it fires and the payload in Claude Code's field names (the host's own
// fields kept beside them).
type Event struct {
	// Protocol is the host's protocol that decoded the input and answers
	// it.
	Protocol  Protocol
	HostEvent string
	Name      string
	Payload   map[string]any
	// Detected says why the host was chosen when it was detected.
	Detected string
	// ReadInput is the host's reading of a tool input its decoder
	// applied to the payload's (engine.Event.ReadInput): a tool input a
	// hook rewrites is read the same way before the next hooks judge it.
	ReadInput func(tool string, in map[string]any) map[string]any
	// InputFields are the payload's names of the tool input in the
	// host's spelling (engine.Event.InputFields).
	InputFields []string
}

// AskPolicy is what an ask becomes on a host that cannot ask.
type AskPolicy string

const (
	// AskDeny denies: a guard that cannot ask must not allow (default).
	AskDeny AskPolicy = "deny"
	// AskAllow lets the call run (the host's own permission checks
	// still apply).
	AskAllow AskPolicy = "allow"
)

// Options are the choices of one reply.
type Options struct {
	// Ask maps an ask on a host that cannot ask (default AskDeny).
	Ask AskPolicy
	// Verbose writes the notes a host would show its user for nothing
	// (the Silent events' notes).
	Verbose bool
}

// Mapping is a host event as a catalog event: its name, and for events
// that are a tool call in disguise (Cursor's beforeShellExecution), the
// tool it is and how its payload becomes tool_input.
type Mapping struct {
	Event string
	// Tool, when set, is the tool_name the payload gets.
	Tool string
	// Input lists payload fields copied into tool_input (as
	// "from:to" or "name").
	Input []string
	// Narrow marks a host event that is a narrower view of another one
	// mapped to the same catalog event (Cursor's beforeShellExecution
	// beside preToolUse): install does not register it, so that a call
	// is not guarded twice.
	Narrow bool
	// Unsupported marks a real host event that has no catalog event
	// (Event is then the host's name): no hook runs for it, and the
	// reply says so on stderr, naming it as the host's event.
	Unsupported bool
	// Silent, on an Unsupported event, keeps that note for --verbose:
	// the host shows a hook's stderr to the user on every event (Gemini
	// CLI), and an event nothing can run for needs no words.
	Silent bool
}

// Convention is how the program of a command hook speaks: the payload it
// reads on stdin and how its exit status and output are read. Every host
// protocol is one (a command hook with protocol = "<host>" runs that
// host's own scripts unchanged); some conventions are nothing more (opta).
type Convention interface {
	// Name is the name a command hook's protocol attribute gives.
	Name() string
	// Title is the name for people.
	Title() string
	// EncodePayload writes the payload of a catalog event as the host
	// sends it to its scripts.
	EncodePayload(event string, payload map[string]any) ([]byte, error)
	// ReadReply reads what a script answered (its exit status, stdout
	// and stderr) as the host would, in hookctl's result vocabulary.
	ReadReply(event string, payload map[string]any, code int, stdout, stderr []byte, argv0 string) (engine.Result, error)
}

// CommandEnv is implemented by a Convention whose programs also read
// variables of their own (opta's OPTA_*): they are added to the
// program's environment.
type CommandEnv interface {
	CommandEnv(call *engine.Call) map[string]string
}

// Hint is why a payload looks like a host's: Rank orders the hints of
// every protocol (the lowest wins; see the Rank constants), Why says it
// for people.
type Hint struct {
	Rank int
	Why  string
}

// Ranks of detection hints, lowest first: the order in which the
// registry trusts them. A hint names its host more surely the lower it
// is; the registry keeps each protocol's best one.
const (
	RankEventField     = 10   // the payload names its event in a field only one host uses
	RankEnvironment    = 20   // a variable only one host sets (crush), with that host's payload shape
	RankFieldNames     = 30   // field names only one host uses (camelCase)
	RankOwnFields      = 40   // fields only one host sends (conversation_id)
	RankEventName      = 50   // an event name only this host has
	RankEventNameLater = 60   // an event name this host shares with a host ranked before
	RankPayloadField   = 70   // a field that this host adds to Claude Code's shape
	RankProjectEnv     = 75   // a project variable the host sets for its hooks: after any payload field of another host
	RankSharedEvent    = 80   // an event name the host shares with others ranked before
	RankFallback       = 1000 // the shape every other host copies: the default
)

// Protocol is one agent host's hook protocol: how its payloads name
// events and fields, how it reads a reply, how its own scripts are run,
// where its configuration file is, and what it cannot express.
// Implementations are immutable and safe for concurrent use.
type Protocol interface {
	Convention
	// Decode maps a decoded hook input onto the catalog: the event (from
	// the payload's event field, else event), and the payload with
	// Claude Code's field names.
	Decode(raw map[string]any, event string) (*Event, error)
	// Reply writes an outcome in the host's format, mapping what the
	// host cannot express by opts; the stderr line says what was mapped.
	Reply(ev *Event, out engine.Outcome, opts Options) Reply
	// Block is the answer for hooks that could not run: the event's
	// block where the host has one, else the message on stderr with the
	// blocking exit status. ev is nil for input that could not be read.
	Block(ev *Event, msg string) Reply
	// Warn is the answer that only tells the user msg; it never blocks.
	// ev may be nil.
	Warn(ev *Event, msg string) Reply
	// BlockExit is the exit status that blocks with the reason on
	// stderr; 0 when no exit status blocks (Copilot CLI).
	BlockExit() int
	// CanAsk reports whether the host can ask the user on a tool call.
	CanAsk() bool
	// Events maps the host's event names to catalog events; nil when
	// the host names its events as the catalog does (Claude Code).
	Events() map[string]Mapping
	// Detect says whether a payload that came without --host looks like
	// the host's, and why.
	Detect(raw map[string]any, getenv func(string) string) (Hint, bool)
	// Limitations says, for people, what the host cannot express and
	// what hookctl does instead.
	Limitations() []string
	// HookTimeout is how long the host waits for a hook of its event
	// hostEvent whose entry sets no timeout (the host's default).
	HookTimeout(hostEvent string) time.Duration
	// HookEnv is what the host adds to the environment of its hook
	// commands run in project ("KEY=value": its project variables).
	HookEnv(project string) []string
	Installer
	// ToClaudeSettings turns the command hooks of the host's own
	// configuration file into the hooks of a Claude Code settings file,
	// each marked with the host's protocol (what hookctl import --host
	// reads), with warnings for what was left out.
	ToClaudeSettings(data []byte) ([]byte, []string, error)
}

// Installer registers hookctl in a host's configuration file.
type Installer interface {
	// ConfigPath is the host's project hook configuration file,
	// relative to the project directory.
	ConfigPath() string
	// HookCommand is the command that answers the host's hooks, run as
	// prog (hookctl or hookctl-client).
	HookCommand(prog string) string
	// Install returns the configuration file existing (nil when there is
	// none) with the request's command registered as the hook of its
	// events, replacing what an earlier install wrote for the same
	// configuration, with notes on the events the host does not have
	// and the entries of other configurations it kept. Each entry gets
	// the request's Timeout (0: the host's default for its event,
	// HookTimeout) rounded up to the host's unit, in the host's timeout
	// field and as the command's --host-timeout, so that hookctl answers
	// before the host stops waiting.
	Install(existing []byte, req InstallRequest) (*Installed, error)
	// ConfigFiles lists the host's hook configuration files that exist:
	// the project's (under project) and the user's (under home).
	ConfigFiles(project, home string) []string
	// Entries reads the command hooks a configuration file of the host
	// registers.
	Entries(data []byte) ([]Entry, error)
	// HasEvent reports whether the host has an event of that name (a
	// configuration file's key the host fires): an entry under any
	// other key never runs.
	HasEvent(name string) bool
}

// Entry is one command hook a host's configuration file registers.
type Entry struct {
	// Event is the host's event name.
	Event string
	// Command is the command line the host runs (with sh -c or bash -c).
	Command string
	// Type is the entry's "type" field as written ("" when it has none):
	// a host runs Command only for type "command".
	Type string
	// Async is set for an entry the host runs in the background
	// ("async" or "asyncRewake" true): it does not wait for the answer,
	// which can then decide nothing.
	Async bool
	// Timeout is the entry's own timeout (0: none; the host's default
	// applies).
	Timeout time.Duration
}

// InputError is a hook input a host would not send; Field names the
// problem.
type InputError struct {
	Field string
	Err   error
}

func (e *InputError) Error() string {
	if e.Field == "" {
		return "hook input: " + e.Err.Error()
	}
	return fmt.Sprintf("hook input: %s: %v", e.Field, e.Err)
}

// Unwrap returns the cause.
func (e *InputError) Unwrap() error { return e.Err }

// GateState is what a host's own gate says about hookctl's hooks.
type GateState string

const (
	// GateOpen: the host runs the hooks as far as this gate goes.
	GateOpen GateState = "open"
	// GateClosed: the host skips the hooks (silently, as a rule).
	GateClosed GateState = "closed"
	// GateUnknown: what the host decides could not be read.
	GateUnknown GateState = "unknown"
)

// Gate is a condition outside hookctl under which a host runs a
// project's hooks at all (Codex's hook review and project trust, Gemini
// CLI's folder trust), as far as hookctl can read it.
type Gate struct {
	// Name names the gate for people ("Codex hook review").
	Name  string    `json:"name"`
	State GateState `json:"state"`
	// Detail says what was found and, when closed, what opens it.
	Detail string `json:"detail"`
}

// Gater is implemented by a protocol whose host gates the hooks of a
// project: Gates reads, where it can, whether the host will run the
// hooks installed in projectDir (getenv is the environment the host runs
// with: its home directory variables). A protocol that does not
// implement it has no gate of its own (hookctl doctor reports none).
type Gater interface {
	Gates(projectDir string, getenv func(string) string) []Gate
}
