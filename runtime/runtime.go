package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/bundle"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/filestamp"
	"github.com/hookctl/hookctl/internal/gopool"
	"github.com/hookctl/hookctl/internal/jsonlimit"
	"github.com/hookctl/hookctl/lib/proc"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/trust"
)

// Runtime answers host hook calls. Build it with New; it is safe for
// concurrent use when its Source is (every Source of this package is).
type Runtime struct {
	source    Source
	protocols Registry
	newState  NewState
	tracer    Tracer
	engOpts   []engine.Option
	// transportLimits, when set, says the transport read payloads within its
	// own limits: they are decoded, not checked again.
	transportLimits bool
	// trust is the trust file, read once per version of it.
	trust *trust.Index
	// uid is the user running hookctl, whom managed files must not
	// belong to (os.Geteuid).
	uid int
	// calls run the calls under a host's deadline (answerWithin).
	calls gopool.Pool
	// replyOnly (WithReplyOnly): fires write into outs, pooled outcomes.
	replyOnly bool
	outs      sync.Pool
}

// Option configures a Runtime.
type Option func(*Runtime)

// Tracer starts the tracing of one call whose engine serves it alone
// (OneShot): the context the call fires in, the engine's options, and
// done, which sends the spans. Given by the CLI (package telemetry).
type Tracer func(ctx context.Context, stderr io.Writer) (_ context.Context, engOpts []engine.Option, done func())

// WithSource sets where engines come from (default OneShot()).
func WithSource(s Source) Option { return func(r *Runtime) { r.source = s } }

// WithProtocols sets the protocols the runtime detects (default Hosts()).
func WithProtocols(reg Registry) Option { return func(r *Runtime) { r.protocols = reg } }

// WithState makes each call's state with newState (loaded configurations
// get it as their kv store, loop store and audit log). Without it the
// configuration keeps assemble's default store.
func WithState(newState NewState) Option { return func(r *Runtime) { r.newState = newState } }

// WithTracer traces the calls of a OneShot source.
func WithTracer(t Tracer) Option { return func(r *Runtime) { r.tracer = t } }

// WithEngineOptions adds options to every engine the runtime builds
// (metrics observers and the like).
func WithEngineOptions(opts ...engine.Option) Option {
	return func(r *Runtime) { r.engOpts = append(r.engOpts, opts...) }
}

// WithTransportLimits says the transport reads every payload within its
// own input limits (hookctl serve's --max-body, --max-depth, --max-values):
// the runtime decodes payloads without checking them against the
// default limits again.
func WithTransportLimits() Option { return func(r *Runtime) { r.transportLimits = true } }

// WithReplyOnly says the caller reads of a Reply's Outcome only its
// top-level fields (the decision, its reason, blocked, continue, the
// counts): the hooks fire into pooled outcomes (engine.FireInto), and
// the Outcome of a reply has no Hooks and no Output (the reply's Stdout
// and Stderr are whole). The daemon and hookctl claude answer so.
func WithReplyOnly() Option { return func(r *Runtime) { r.replyOnly = true } }

// New returns a Runtime.
func New(opts ...Option) *Runtime {
	r := &Runtime{source: OneShot(), trust: trust.NewIndex(), uid: os.Geteuid()}
	for _, o := range opts {
		o(r)
	}
	if r.protocols == nil {
		r.protocols = Hosts()
	}
	return r
}

// Protocols is the registry the runtime answers from (WithProtocols, else
// every host of protocol/hosts): transports look a host up in it once,
// not per call.
func (r *Runtime) Protocols() Registry { return r.protocols }

// Mode is what a guard that could not run answers: ModeBlock (the events
// that can block are blocked) or ModeWarn (a message only).
type Mode string

// The modes.
const (
	ModeBlock Mode = "block"
	ModeWarn  Mode = "warn"
)

// Modes are a call's choices for what cannot run.
type Modes struct {
	// AllowUntrusted runs a configuration that is not trusted
	// (--allow-untrusted; HOOKCTL_ALLOW_UNTRUSTED in the request's
	// environment does too).
	AllowUntrusted bool
	// OnUntrusted and OnConfigError answer an untrusted configuration
	// and one that cannot be found or loaded ("": block).
	OnUntrusted, OnConfigError Mode
	// OnAsk maps an ask on a host that cannot ask ("": deny).
	OnAsk AskPolicy
	// Verbose says on Stderr which host was detected, and the notes of
	// events that need no words (--verbose). Without it nothing is
	// written there for them: Gemini CLI shows a hook's stderr to its
	// user on every event.
	Verbose bool
}

// Request is one host hook call.
type Request struct {
	// Protocol is the host's protocol; nil detects it from the payload
	// (and, with Modes.Verbose, says which on Stderr).
	Protocol Protocol
	// Event is the host's event name (--event), for hosts whose payload
	// does not name it.
	Event string
	// Payload is the hook input as the host sent it. When it is nil,
	// Stdin is read (within the default input limits) instead.
	Payload []byte
	Stdin   io.Reader
	// Decoded is a payload the caller decoded itself (fire's --payload
	// and --set), for Outcome.
	Decoded map[string]any
	// Config is the configuration's path (--config); "" discovers it.
	Config string
	// Cwd and Env are the caller's working directory and environment
	// ("KEY=value" entries): discovery, the project directory, the
	// nested-call check and host detection read them, never the
	// process's own.
	Cwd string
	Env []string
	// Modes are the call's choices for what cannot run.
	Modes Modes
	// Command names the command in messages ("hookctl claude").
	Command string
	// Stderr receives the diagnostics a person reads (nil: discarded);
	// LogLevel is its engine log level (debug, info, warn, error).
	Stderr   io.Writer
	LogLevel string
	// Timer, when set, records the call's phases.
	Timer Timer
	// HostTimeout is how long the host waits for the reply
	// (--host-timeout): 0 is the protocol's default for the event
	// (Protocol.HookTimeout), a negative value sets no deadline. The
	// hooks get Deadline of it, counted from Start; then the call is
	// answered with the host's block.
	HostTimeout time.Duration
	// Start is when the host made the call (zero: when Try begins).
	Start time.Time
	// Invalid, when set, is what is wrong with the call itself (a flag,
	// a mode or its environment variable that is not one, an unknown
	// --host): no hook runs, and the call is answered with the host's
	// block naming it (the host detected from the payload when the
	// Protocol is not known), never with an exit status the host reads
	// as a go-ahead.
	Invalid error
}

func (req *Request) stderr() io.Writer {
	if req.Stderr == nil {
		return io.Discard
	}
	return req.Stderr
}

func (req *Request) mark(name string) {
	if req.Timer != nil {
		req.Timer.Mark(name)
	}
}

// NestedError is a call made from within one of hookctl's own hooks.
type NestedError struct{ Depth int }

func (e *NestedError) Error() string {
	return fmt.Sprintf("this call comes from one of hookctl's own hooks (%s=%d): a hook that runs hookctl claude, hook or fire would make hookctl call itself without end, so no hook ran and the action is blocked; remove that hook (see hookctl list)", proc.DepthEnv, e.Depth)
}

// Nested refuses a hook call made from within one of hookctl's own hooks
// (proc.DepthEnv is set in the environment of every program a hook
// runs): hookctl registered as its own hook would call itself without
// end, each call waiting for the next until the host's timeout, which
// fails open.
func Nested(getenv func(string) string) error {
	if d := proc.Depth(getenv); d > 0 {
		return &NestedError{Depth: d}
	}
	return nil
}

// StopError is the cause of a call context a stop signal (SIGTERM,
// SIGINT, SIGHUP from the host giving up on the hook) ended: the call is
// answered with the host's block.
type StopError struct{ Signal fmt.Stringer }

func (e *StopError) Error() string {
	return fmt.Sprintf("hookctl was stopped (%v) while its hooks ran; their processes were killed", e.Signal)
}

// Stopped returns the stop signal's error that ended ctx, if one did.
func Stopped(ctx context.Context) (*StopError, bool) {
	var se *StopError
	ok := errors.As(context.Cause(ctx), &se)
	return se, ok
}

// allowUntrusted is trust.AllowUntrusted with the request's environment.
func allowUntrusted(flag bool, getenv func(string) string) bool {
	if flag {
		return true
	}
	v := strings.TrimSpace(getenv(trust.AllowUntrustedEnv))
	if b, err := strconv.ParseBool(v); err == nil {
		return b
	}
	return strings.EqualFold(v, "yes") || strings.EqualFold(v, "on")
}

// Answer answers one host hook call in the host's format: decode, refuse a
// nested call, discover the configuration, check its trust, load it
// through the Source, fire, reply. No path ends in an unseen allow: input
// that cannot be read, a configuration that cannot be found, loaded or
// trusted, hooks that did not finish, a stop signal and a panic all answer
// with the host's block (or, where the Modes ask, a warning).
func (r *Runtime) Answer(ctx context.Context, req Request) Reply {
	reply, err := r.Try(ctx, req)
	if err != nil {
		if req.Invalid != nil {
			err = fmt.Errorf("%v; and %w", req.Invalid, err)
		}
		var ie *unreadable
		if errors.As(err, &ie) {
			return ie.p.Block(nil, fmt.Sprintf("hookctl: %v; no hook could run, so the action is blocked", err))
		}
		// Try answers every other failure itself.
		p := req.Protocol
		if p == nil {
			p, _ = r.protocols.Default(), true
		}
		return p.Block(nil, fmt.Sprintf("hookctl: %v; no hook could run, so the action is blocked", err))
	}
	return reply
}

// Refuse is the host's block for a call no hook can answer for a reason
// of the transport's (a server busy, input past its limits or not
// received in time), as for input that cannot be read: the same reply
// on every transport.
func (r *Runtime) Refuse(req Request, why error) Reply {
	p := req.Protocol
	if p == nil {
		p = r.protocols.Default()
	}
	return p.Block(nil, fmt.Sprintf("hookctl: %v; no hook ran, so the action is blocked", why))
}

// unreadable is input that cannot be read, with the protocol that answers
// it.
type unreadable struct {
	p   Protocol
	err error
}

func (e *unreadable) Error() string { return e.err.Error() }
func (e *unreadable) Unwrap() error { return e.err }

// Try is Answer for transports with a channel of their own for a request
// that cannot be read (HTTP's 400): input that is not JSON, past the input
// limits or not an event of the protocol is returned as an error wrapping
// an *InputError instead of the protocol's block. Every other failure is
// answered fail-closed, as by Answer.
func (r *Runtime) Try(ctx context.Context, req Request) (reply Reply, err error) {
	if req.Start.IsZero() {
		req.Start = time.Now()
	}
	stderr := req.stderr()
	getenv := Getenv(req.Env)
	p := req.Protocol
	var ev *Event
	defer func() {
		if v := recover(); v != nil {
			if p == nil {
				p, _ = r.protocols.Default(), true
			}
			fmt.Fprintf(stderr, "hookctl: the call failed (%v)\n", v)
			reply, err = p.Block(ev, fmt.Sprintf("hookctl: the call failed (%v); no hook could decide, so the action is blocked", v)), nil
		}
	}()
	raw, derr := r.decodeWithin(&req)
	if derr != nil {
		if p == nil {
			p, _ = r.protocols.Default(), true
		}
		var te *InputTimeoutError
		if errors.As(derr, &te) {
			// Not input that cannot be read: input that did not end in
			// time, answered as the host's block before it stops waiting
			// (which says why on stderr).
			return p.Block(nil, "hookctl: "+te.Error()), nil
		}
		return Reply{}, &unreadable{p, derr}
	}
	if p == nil {
		var why string
		p, why = r.protocols.Detect(raw, getenv)
		if req.Modes.Verbose {
			fmt.Fprintf(stderr, "hookctl: host %s (%s)\n", p.Name(), why)
		}
	}
	ev, derr = p.Decode(raw, req.Event)
	if derr != nil {
		return Reply{}, &unreadable{p, derr}
	}
	if req.Invalid != nil {
		fmt.Fprintf(stderr, "hookctl: %v\n", req.Invalid)
		return p.Block(ev, fmt.Sprintf("hookctl: %v; no hook ran, so the action is blocked", req.Invalid)), nil
	}
	return r.answerWithin(ctx, &req, p, ev, getenv), nil
}

// decode reads the payload: within the default input limits, or as read
// by a transport within its own (WithTransportLimits).
func (r *Runtime) decode(req Request) (map[string]any, error) {
	if req.Payload == nil {
		in := req.Stdin
		if in == nil {
			in = bytes.NewReader(nil)
		}
		return protocol.DecodeObject(in)
	}
	if !r.transportLimits {
		// Checked where it is (a 10 MB payload is not copied to be
		// read again), then decoded.
		if err := jsonlimit.Check(req.Payload); err != nil {
			return nil, &protocol.InputError{Err: err}
		}
	}
	return protocol.DecodeBytes(req.Payload)
}

// managedPresent reports whether layers hold a managed layer.
func managedPresent(layers []Layer) bool {
	return slices.ContainsFunc(layers, func(l Layer) bool { return l.Name == LayerManaged })
}

// guardAnswer is the answer for hooks that did not run: the event's block
// in the host's format, or with warnOnly a message only.
func guardAnswer(p Protocol, ev *Event, msg string, warnOnly bool) Reply {
	if warnOnly {
		return p.Warn(ev, msg)
	}
	return p.Block(ev, msg)
}

// configErrorText is the message for a configuration that could not be
// found or loaded: the diagnostics, at most 20 lines of them.
func configErrorText(diag string) string {
	lines := strings.Split(strings.TrimSpace(diag), "\n")
	if len(lines) > 20 {
		lines = append(lines[:20], "...")
	}
	return "hookctl: the hook configuration could not be loaded; its hooks did not run:\n" + strings.Join(lines, "\n")
}

// answer runs a decoded event: the steps after decoding.
func (r *Runtime) answer(ctx context.Context, req *Request, p Protocol, ev *Event, getenv func(string) string) Reply {
	stderr := req.stderr()
	opts := Options{Ask: req.Modes.OnAsk, Verbose: req.Modes.Verbose}
	if !r.source.perCall() {
		eng, release, err := r.source.acquire(nil)
		if err != nil {
			return p.Block(ev, fmt.Sprintf("hookctl: %v; no hook could run, so the action is blocked", err))
		}
		defer release()
		return r.fire(ctx, p, ev, eng, opts)
	}
	if err := Nested(getenv); err != nil {
		fmt.Fprintf(stderr, "hookctl: %v\n", err)
		return p.Block(ev, "hookctl: "+err.Error())
	}
	req.mark("decode")
	configWarn := req.Modes.OnConfigError == ModeWarn
	layers, err := discoverLayers(req.Config, req.Cwd, getenv, r.source.listing())
	if err != nil {
		fmt.Fprintf(stderr, "hookctl: %v\n", err)
		var me *ManagedError
		if errors.As(err, &me) {
			// The managed directory is there but cannot be read: its
			// policy holds by blocking, whatever the modes say.
			return p.Block(ev, fmt.Sprintf("hookctl: %v; no hook ran, so the action is blocked", err))
		}
		return guardAnswer(p, ev, configErrorText(err.Error()), configWarn)
	}
	untrusted := allowUntrusted(req.Modes.AllowUntrusted, getenv)
	// Under a managed policy no warn mode turns a configuration that did
	// not load, or a layer that is not trusted, into a go-ahead: that
	// would switch the organisation's hooks off from below (a project's
	// settings can set HOOKCTL_ON_UNTRUSTED=warn, and a lower layer can
	// make the merged configuration fail to load on purpose).
	untrustedWarn := req.Modes.OnUntrusted == ModeWarn
	guard := func(msg string, warn bool) Reply {
		if warn && managedPresent(layers) {
			fmt.Fprintln(stderr, "hookctl: a managed policy is in force, so the warn modes (--on-untrusted, --on-config-error) do not apply: the event is blocked")
			warn = false
		}
		return guardAnswer(p, ev, msg, warn)
	}
	// The verifier of the record the project was checked against: every
	// file it loads, as it loads it, must be one the record pins. The
	// managed and user layers are trusted by who can write them. A signed
	// project (a bundle, a signed directory) verified by a trusted key is
	// trusted without a record; a bundle that does not verify never runs,
	// even with --allow-untrusted.
	var verifier *trust.Verifier
	var projectCheck func(string, []byte) error
	skip := skippedLayers(layers)
	for i, layer := range layers {
		if skip[layer.Name] {
			continue // left out by the managed layer: reported by the load
		}
		path, how, err := openLayer(layer, r.uid)
		if err != nil {
			fmt.Fprintf(stderr, "hookctl: %v; no hook ran\n", err)
			msg := fmt.Sprintf("hookctl: %v; no hook ran, so the action is blocked", err)
			if layer.Name == LayerManaged {
				// Refusing the organisation's policy must not switch
				// it off: no mode turns this into a go-ahead.
				return p.Block(ev, msg)
			}
			return guard(msg, untrustedWarn)
		}
		if how != trustStore {
			continue
		}
		// A file checked against its trust record is no signed
		// directory: what openSigned would find out with a system call
		// of its own on every call. A bundle, a directory, and a check
		// that failed go the signed way first, as before.
		var v *trust.Verifier
		var verr error
		verified := !untrusted && filepath.Ext(path) != ".bundle"
		if verified {
			v, verr = r.trust.Verify(path)
			if verr == nil {
				if _, fi := v.Opened(); fi != nil {
					verifier = v
					continue
				}
			}
		}
		signed, serr := r.openSigned(ctx, path, getenv)
		if serr != nil && signed == nil && bundle.IsBundle(path) {
			fmt.Fprintln(stderr, signedError(path, serr))
			return guard(signedError(path, serr), untrustedWarn)
		}
		if signed != nil {
			layers[i].Path = signed.Path
			projectCheck = signed.Check
			continue
		}
		if untrusted {
			continue
		}
		if !verified {
			v, verr = r.trust.Verify(path)
		}
		if verifier, err = v, verr; err != nil {
			if serr != nil { // a signed directory that did not verify, nor is trusted by record
				err = fmt.Errorf("%w (its signature: %v)", err, serr)
			}
			fmt.Fprintf(stderr, "hookctl: %v; its hooks did not run\n", err)
			fmt.Fprintf(stderr, "hookctl: to run it without trust, use %s --allow-untrusted or set %s=1\n", req.Command, trust.AllowUntrustedEnv)
			return guard(fmt.Sprintf("hookctl: %v; its hooks did not run", err), untrustedWarn)
		}
	}
	req.mark("trust")
	// A host's reply shows no trace but the failures
	// (protocol.HookFailures): hooks that ran cleanly are counted, not
	// traced (an Observer, a tracer or an audit log still gets them all).
	if verifier != nil {
		projectCheck = verifier.Check
	}
	l := &loader{layers: layers, logLevel: req.LogLevel, projectDir: ProjectDir(req.Cwd, getenv), timer: req.Timer,
		engOpts: append([]engine.Option{engine.WithQuietRuns()}, r.engOpts...), projectCheck: projectCheck}
	if verifier != nil {
		if path, fi := verifier.Opened(); fi != nil {
			l.known = filestamp.Set{path: filestamp.OfInfo(path, fi)}
		}
	}
	// The state (settings.state or state_file) is known once the
	// configuration is loaded; it opens on first use.
	if r.newState != nil {
		l.state = r.newState(req.Command)
		l.aopts = append(l.aopts, assemble.WithStore(l.state))
		l.engOpts = append(l.engOpts, l.state.EngineOptions()...)
	}
	if r.source.oneCall() {
		// One event fires: no script runtime is made for events that
		// have no script hooks (a cached engine fires them all).
		l.aopts = append(l.aopts, assemble.WithEvents(ev.Name))
	}
	if r.source.oneCall() && r.tracer != nil {
		// An engine that outlives the call is not traced per call.
		var traced []engine.Option
		var done func()
		ctx, traced, done = r.tracer(ctx, stderr)
		l.engOpts = append(l.engOpts, traced...)
		defer done()
	}
	// The diagnostics go to stderr, and into the reply, because hosts
	// show a hook's stderr in their debug logs only.
	var diag bytes.Buffer
	l.stderr = io.MultiWriter(stderr, &diag)
	eng, release, err := r.source.acquire(l)
	l.stderr = stderr
	if err != nil {
		var le *LoadError
		if errors.As(err, &le) && !le.Rendered {
			fmt.Fprintf(stderr, "hookctl: %v\n", le.Err)
			diag.WriteString(le.Err.Error())
		}
		if l.state != nil {
			l.state.Close()
		}
		return guard(configErrorText(diag.String()), configWarn)
	}
	released := false
	defer func() {
		if !released { // a panic while firing: the engine is still let go
			release()
		}
	}()
	reply, ferr := r.handle(ctx, eng, ev, opts)
	req.mark("fire")
	released = true
	release()
	req.mark("close")
	if se, ok := Stopped(ctx); ok {
		return p.Block(ev, "hookctl: "+se.Error()+"; the action is blocked")
	}
	if ferr != nil {
		return p.Block(ev, fmt.Sprintf("hookctl: %v; the hooks did not finish, so the action is blocked", ferr))
	}
	return reply
}

// fire fires ev through eng, answering fail-closed when the hooks did not
// finish or a stop signal ended ctx.
func (r *Runtime) fire(ctx context.Context, p Protocol, ev *Event, eng *engine.Engine, opts Options) Reply {
	reply, ferr := r.handle(ctx, eng, ev, opts)
	if se, ok := Stopped(ctx); ok {
		return p.Block(ev, "hookctl: "+se.Error()+"; the action is blocked")
	}
	if ferr != nil {
		r := p.Block(ev, fmt.Sprintf("hookctl: %v; the hooks did not finish, so the action is blocked", ferr))
		r.Outcome = reply.Outcome
		return r
	}
	return reply
}
