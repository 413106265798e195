package main

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"aead.dev/minisign"
	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/bundle"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/server"
	"github.com/hookctl/hookctl/telemetry"
	"github.com/hookctl/hookctl/trust"
)

func newServeCmd(a *app) *cobra.Command {
	var listen, natsURLs string
	var allowRemote, allowUntrustedFlag bool
	var interval, grace, natsTimeout, drainDelay time.Duration
	var natsReplicas int
	var allowedHosts, allowedOrigins []string
	var tracePayloads bool
	var bundleURL string
	var bundlePubs []string
	var bundlePoll time.Duration
	lim := server.DefaultServerLimits()
	maxBody, maxMemory := byteSize(lim.Input.MaxBytes), byteSize(lim.MaxMemory)
	cmd := &cobra.Command{
		Use:   "serve [--config PATH | --bundle URL --bundle-pub KEY.pub] [--listen ADDR] [--nats URLS]",
		Short: "Serve hooks over HTTP: Claude Code http hooks and POST /v1/fire/{event}",
		Long: `serve runs one engine for every event, with no process start per event:

  POST /claude              a Claude Code http hook ("type": "http", "url": "http://ADDR/claude")
  POST /hook/{host}         any host's hook JSON, answered as hookctl hook --host HOST
                            would on stdout (/hook/{host}/{event} for hosts whose
                            payload does not name its event); a reply that blocks
                            by exit status is {"decision":"block","reason":...}
  POST /v1/fire/{event}     a payload object in, the outcome JSON out (any HTTP client)
  GET  /healthz             status, load, config_hash
  GET  /livez               liveness: 200 unless wedged (see below)
  GET  /readyz              readiness: 200 while serving a configuration, not
                            draining, not wedged and with the shared state
                            reachable; else 503 naming the failing checks
  GET  /metrics             Prometheus metrics (hookctl_*, go_*, process_*)

Fire replies carry a Hookctl-Config-Hash header: the SHA-256 of the
configuration's files (paths relative to its directory, and contents), also
in /healthz, /readyz and the hookctl_config_info metric, so that replicas
serving different configurations show during a rollout.

It listens on loopback unless --allow-remote, reloads the configuration when its
files change (a broken configuration keeps the last good one serving), and on
SIGINT or SIGTERM drains: /readyz answers 503 "draining" at once while requests
are still served for --drain-delay (default 0; set it to a few seconds behind a
load balancer or in Kubernetes, so the replica leaves the endpoints before its
listener closes), then it stops accepting requests, finishes those in flight
and drains background hooks (within --shutdown-timeout).

It answers no web browser, so that a page cannot fire hooks, write kv
or read replies through 127.0.0.1 or a DNS-rebound name: a Host header that
is not a loopback name, the listen address or an --allowed-host, with no port
or the port serve listens on (an --allowed-host name:port: that port), is 403,
as are an empty Host on HTTP/1.1 and a request target in absolute form
(with --allow-remote and no --allowed-host, any Host is answered); a request
with an Origin header is 403 unless --allowed-origin names it; a POST whose
body is not Content-Type application/json is 415.

It serves only a configuration trusted with "hookctl trust" and unchanged since:
an untrusted one is refused at start (exit 1), and a reload whose files changed
since they were trusted is refused while the last good configuration keeps
serving; running "hookctl trust" then makes it reload. --allow-untrusted or
HOOKCTL_ALLOW_UNTRUSTED=1 serves it anyway.

Signed bundles. --bundle URL (file:// or https://) serves a policy bundle
(hookctl bundle build) verified by --bundle-pub KEY.pub (default: the keys
trusted with hookctl trust --pub); --config FILE.bundle is --bundle
file://FILE. It is fetched every --bundle-poll (with If-None-Match over
https), verified whole before it replaces the last good one, then swapped
in. A download that fails, a bad signature, a tampered file or a bundle
that does not load keeps the last good policy serving and makes /readyz
fail its "bundle" check, naming why; until a bundle has loaded, every
guarded event is blocked (/v1/fire answers 503). A bundle signed before
the one in force (its created time: a rollback) and an https:// URL that
redirects to plain http:// are refused the same way. See docs/bundles.md.

Limits. Everything a client can make the server hold is bounded, and /healthz
answers throughout (it takes no request slot):

  a request body     --max-body bytes, --max-depth levels of nesting and
                     --max-values JSON values, counted as it is read and
                     refused before it is decoded (413; 400 for nesting)
  memory             --max-memory: the estimated decoded size of all the bodies
                     held at once (2 bytes per byte plus 128 per value);
                     503 with Retry-After when full (the heap has a 1 GiB
                     soft limit unless GOGC or GOMEMLIMIT is set: set
                     GOMEMLIMIT too when raising --max-memory past 512M)
  requests           --max-inflight fire at once, --max-queue wait behind them
                     for --queue-timeout at most; then 503 with Retry-After
  connections        --max-conns open at once (more than --max-inflight +
                     --max-queue); past it, the connection waiting longest
                     without a request in a handler is closed (a slow or idle
                     client) to make room
  time               --read-header-timeout for the headers, --read-timeout for
                     the body, --write-timeout for the reply once the hooks are
                     done, --idle-timeout between kept-alive requests

/healthz reports the load and is 503 "wedged" when every script runtime has
been busy with one call for longer than --wedged-after.

Shared state. By default the hookctl/kv module and the Stop loop guard keep
their state in a file (settings.state_file, else $HOOKCTL_STATE_DIR/kv.json),
which replicas on other machines do not see. --nats URLS (nats:// or tls://
URLs, comma-separated), or settings { state = "nats://..." } in the
configuration, keeps it in NATS JetStream instead, shared by every replica
behind a load balancer: the kv store (all scopes), the loop guard's count of
consecutive Stop blocks (a session's blocks are counted once across
replicas) and the audit log (one record per fire in the stream HOOKCTL_AUDIT,
subject hookctl.audit.EVENT, besides any audit_log file). --nats wins over
settings.state and state_file. The first replica to connect creates the kv
bucket "hookctl" and the audit stream, kept by --nats-replicas servers.

Connecting and setting up, together, are bounded by --nats-timeout, which
bounds every operation too:
NATS that cannot be reached at start is exit 1. If it goes away later, the
client reconnects on its own; meanwhile a kv call throws into its hook (the
hook's on_error decides, and the trace shows the error), the loop guard
cannot count (stop_guard.error says so and a block stands: the guard never
lets the agent stop on its own account), and an audit record that cannot be
published is logged on stderr with the count lost so far. /healthz reports
where the state is and whether it answers (the round trip /readyz makes);
after a failed one, kv calls fail at once for a few seconds instead of each
waiting its timeout. settings.state is read at
start: a reload that changes it is reported, and applies at the next start.

Tracing. With OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
or OTEL_TRACES_EXPORTER=otlp|console) set, every fire is an OpenTelemetry span
with a child span per hook that ran, exported over OTLP (http/protobuf, or grpc
with OTEL_EXPORTER_OTLP_PROTOCOL=grpc) as service OTEL_SERVICE_NAME (default
hookctl). A request's traceparent header makes its fire part of the caller's
trace. Spans carry no payload contents unless --trace-payloads.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			lim.Input.MaxBytes, lim.MaxMemory = int64(maxBody), int64(maxMemory)
			if err := checkServeLimits(lim); err != nil {
				return err
			}
			if drainDelay < 0 {
				return usageError("--drain-delay must not be negative")
			}
			var path string
			var err error
			if bundleURL == "" {
				if path, err = a.discover(); err != nil {
					return err
				}
			}
			src, err := a.serveBundle(path, bundleURL, bundlePubs, bundlePoll)
			if err != nil {
				return err
			}
			if src != nil {
				path = src.URL
			}
			host, _, err := net.SplitHostPort(listen)
			if err != nil {
				return usageError("--listen %q: %v", listen, err)
			}
			if ip := net.ParseIP(host); !allowRemote && (ip == nil && host != "localhost" || ip != nil && !ip.IsLoopback()) {
				return usageError("--listen %s is not a loopback address; pass --allow-remote to serve other hosts", listen)
			}
			policy, err := requestPolicy(host, allowRemote, allowedHosts, allowedOrigins)
			if err != nil {
				return err
			}
			natsList, err := natsFlag(natsURLs)
			if err != nil {
				return err
			}
			if natsTimeout <= 0 {
				return usageError("--nats-timeout must be positive")
			}
			if natsReplicas < 1 || natsReplicas > 5 {
				return usageError("--nats-replicas must be 1 to 5")
			}
			// The state's backend: --nats, else what the configuration
			// says once loaded. It is opened before serving, so that
			// NATS that cannot be reached is an error at start.
			store := newSharedState("hookctl serve", natsTimeout, natsTimeout)
			store.replicas = natsReplicas
			defer store.Close()
			if natsList != "" {
				store.configure(stateBackend{NATS: natsList, Source: "--nats"})
				if _, err := store.open(cmd.Context()); err != nil {
					return &exitError{code: exitFailure, err: err}
				}
			}
			// Traces go where the OTEL_* environment says; a setting
			// that cannot be honoured stops serve from starting.
			tr, err := a.startTracing(cmd.Context(), tracePayloads)
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			defer tr.shutdown(serveTraceFlush, a.stderr) // after the engine drained: background hooks' spans too
			untrusted := trust.AllowUntrusted(allowUntrustedFlag)
			stateFlag := ""
			if natsList != "" {
				stateFlag = "--nats"
			}
			opts := []server.RunOption{server.WithStderr(a.stderr),
				server.WithEngineOptions(engine.WithLogger(a.logger())),
				server.WithState(store.Shared, stateFlag),
				server.WithServerOptions(server.WithLimits(lim), server.WithRequestPolicy(policy))}
			if tr != nil {
				opts = append(opts, server.WithTracing(func(h http.Handler) http.Handler { return telemetry.Handler(h) }, tr.engineOptions()...))
			}
			// --shutdown-timeout 0 waits for nothing (server.Config: a
			// negative timeout).
			srv, err := server.Start(cmd.Context(), server.Config{Path: path, Listen: listen, ProjectDir: projectDir(),
				AllowUntrusted: untrusted, ReloadInterval: interval, ShutdownTimeout: cmp.Or(grace, -1), DrainDelay: drainDelay, Bundle: src,
				Layers: func() ([]assemble.Part, error) { return upperParts(path) }}, opts...)
			if err != nil {
				return a.serveStartError(err)
			}
			stateNote := ""
			if store.onNATS() {
				stateNote = ", state on " + store.backendInUse().String()
			}
			if src != nil {
				fmt.Fprintf(a.stderr, "hookctl: serving the signed bundle %s on http://%s (checked every %s)%s\n", src.URL, srv.Addr(), src.Poll, stateNote)
			} else if untrusted {
				fmt.Fprintf(a.stderr, "hookctl: serving %s on http://%s (not checked for trust: --allow-untrusted)%s\n", path, srv.Addr(), stateNote)
			} else {
				fmt.Fprintf(a.stderr, "hookctl: serving %s on http://%s%s\n", path, srv.Addr(), stateNote)
			}
			if tr != nil {
				fmt.Fprintln(a.stderr, "hookctl: exporting traces as the OTEL_* environment says")
			}
			if policy.AnyHost {
				fmt.Fprintln(a.stderr, "hookctl: --allow-remote without --allowed-host: answering any Host header; name the hosts clients use with --allowed-host to refuse the others")
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			srv.Wait(ctx)
			return nil
		},
	}
	cmd.Flags().StringVarP(&listen, "listen", "l", "127.0.0.1:8765", "address to listen on")
	cmd.Flags().BoolVar(&allowRemote, "allow-remote", false, "allow a non-loopback listen address")
	cmd.Flags().StringSliceVar(&allowedHosts, "allowed-host", nil, "a Host header to answer besides loopback names and the listen address (name or name:port; repeat or comma-separate)")
	cmd.Flags().StringSliceVar(&allowedOrigins, "allowed-origin", nil, "an Origin header to answer (scheme://host[:port]); requests with any other Origin are refused")
	cmd.Flags().BoolVar(&allowUntrustedFlag, "allow-untrusted", false, "serve the configuration even if it is not trusted (see hookctl trust)")
	cmd.Flags().DurationVar(&interval, "reload-interval", time.Second, "how often to check the configuration's files")
	cmd.Flags().DurationVar(&grace, "shutdown-timeout", 30*time.Second, "how long shutdown waits for requests and background hooks")
	cmd.Flags().DurationVar(&drainDelay, "drain-delay", 0, "on SIGTERM or SIGINT, how long to keep serving with /readyz at 503 before the listener closes")
	cmd.Flags().StringVar(&natsURLs, "nats", "", "keep the shared state (kv, Stop loop guard, audit log) in NATS JetStream at these nats:// or tls:// URLs, comma-separated; wins over settings.state")
	cmd.Flags().DurationVar(&natsTimeout, "nats-timeout", defaultNATSTimeout, "bound on connecting to NATS and setting up at start, and on each NATS operation")
	cmd.Flags().IntVar(&natsReplicas, "nats-replicas", 1, "how many NATS servers keep the kv bucket and the audit stream, when serve creates them (3 on a 3-node cluster)")
	cmd.Flags().BoolVar(&tracePayloads, "trace-payloads", false, "put payloads and reasons (credentials redacted) on trace spans (or HOOKCTL_TRACE_PAYLOADS=1)")
	f := cmd.Flags()
	f.StringVar(&bundleURL, "bundle", "", "serve the signed policy bundle at this file:// or https:// URL (instead of --config), fetched again every --bundle-poll (ETag aware); see docs/bundles.md")
	f.StringArrayVar(&bundlePubs, "bundle-pub", nil, "a public key (KEY.pub) that verifies --bundle (repeat for several; default: the keys trusted with hookctl trust --pub)")
	f.DurationVar(&bundlePoll, "bundle-poll", 30*time.Second, "how often --bundle is fetched again")
	f.Var(&maxBody, "max-body", "largest request body (bytes; K, M, G suffixes are powers of 1024)")
	f.IntVar(&lim.Input.MaxDepth, "max-depth", lim.Input.MaxDepth, "deepest nesting of objects and arrays in a request body")
	f.IntVar(&lim.Input.MaxValues, "max-values", lim.Input.MaxValues, "most JSON values in a request body (object keys not counted)")
	f.Var(&maxMemory, "max-memory", "bound on the estimated decoded size of all request bodies held at once (bytes, K, M, G)")
	f.IntVar(&lim.MaxInFlight, "max-inflight", lim.MaxInFlight, "requests that fire at once")
	f.IntVar(&lim.MaxQueue, "max-queue", lim.MaxQueue, "requests waiting for one in flight to end")
	f.DurationVar(&lim.QueueTimeout, "queue-timeout", lim.QueueTimeout, "how long a request waits in the queue before a 503")
	f.IntVar(&lim.MaxConns, "max-conns", lim.MaxConns, "open connections")
	f.DurationVar(&lim.ReadHeaderTimeout, "read-header-timeout", lim.ReadHeaderTimeout, "time to send the request headers")
	f.DurationVar(&lim.ReadTimeout, "read-timeout", lim.ReadTimeout, "time to send the request body, once admitted")
	f.DurationVar(&lim.WriteTimeout, "write-timeout", lim.WriteTimeout, "time to read the reply, once the hooks are done")
	f.DurationVar(&lim.IdleTimeout, "idle-timeout", lim.IdleTimeout, "how long a kept-alive connection waits for its next request")
	f.DurationVar(&lim.WedgedAfter, "wedged-after", lim.WedgedAfter, "how long every script runtime may be busy before /healthz says wedged")
	return cmd
}

// serveStartError is serve's exit for an error of server.Start: a
// configuration's diagnostics are printed, an untrusted configuration
// says how to serve it anyway; each is exit status 1.
// serveBundle is the bundle serve pulls: --bundle URL with its keys, or
// --config FILE.bundle as file://FILE; nil for any other configuration.
func (a *app) serveBundle(path, rawURL string, pubs []string, poll time.Duration) (*server.BundleSource, error) {
	if rawURL == "" && !bundle.IsBundle(path) {
		if len(pubs) > 0 {
			return nil, usageError("--bundle-pub goes with --bundle (or --config FILE.bundle)")
		}
		return nil, nil
	}
	if rawURL != "" && a.configPath != "" {
		return nil, usageError("--bundle replaces --config: give one")
	}
	if rawURL == "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, &exitError{code: exitFailure, err: err}
		}
		rawURL = (&url.URL{Scheme: "file", Path: abs}).String()
	}
	if poll <= 0 {
		return nil, usageError("--bundle-poll must be positive")
	}
	var keys []minisign.PublicKey
	for _, p := range pubs {
		k, err := bundle.ReadPublicKey(p)
		if err != nil {
			return nil, &exitError{code: exitFailure, err: fmt.Errorf("--bundle-pub: %w", err)}
		}
		keys = append(keys, k)
	}
	if keys == nil {
		var err error
		if keys, err = trust.Keys(); err != nil {
			return nil, &exitError{code: exitFailure, err: err}
		}
		if len(keys) == 0 {
			return nil, usageError("no key to verify the bundle with: give --bundle-pub KEY.pub, or trust the key with hookctl trust --pub KEY.pub")
		}
	}
	cache, err := runtime.BundleCacheDir(os.Getenv)
	if err != nil {
		return nil, &exitError{code: exitFailure, err: err}
	}
	return &server.BundleSource{URL: rawURL, Keys: keys, Poll: poll, CacheDir: cache}, nil
}

func (a *app) serveStartError(err error) error {
	var d *hcl.Diagnostics
	if errors.As(err, &d) {
		d.Render(a.stderr)
		return silent(exitFailure)
	}
	var ue *trust.UntrustedError
	if errors.As(err, &ue) {
		return &exitError{code: exitFailure, err: fmt.Errorf("%w; not serving it (to serve it without trust, use --allow-untrusted or set %s=1)", err, trust.AllowUntrustedEnv)}
	}
	return &exitError{code: exitFailure, err: err}
}

// requestPolicy is what serve answers, against web browsers (see
// server.RequestPolicy): loopback names, the listen address's host and
// --allowed-host in the Host header (any Host with --allow-remote and no
// --allowed-host), and only the --allowed-origin origins.
func requestPolicy(listenHost string, allowRemote bool, hosts, origins []string) (server.RequestPolicy, error) {
	p := server.RequestPolicy{AllowedOrigins: origins}
	for _, h := range hosts {
		if !server.ValidHost(h) {
			return p, usageError("--allowed-host %q: want a host name or address ([IPv6] in brackets), with an optional numeric :port", h)
		}
	}
	for _, o := range origins {
		if u, err := url.Parse(o); err != nil || u.Scheme == "" || u.Host == "" || u.Path != "" {
			return p, usageError("--allowed-origin %q: want scheme://host[:port], as browsers send it", o)
		}
	}
	if ip := net.ParseIP(listenHost); listenHost != "" && (ip == nil || !ip.IsUnspecified()) {
		if strings.Contains(listenHost, ":") {
			listenHost = "[" + listenHost + "]" // as a Host header names it
		}
		p.AllowedHosts = append(p.AllowedHosts, listenHost)
	}
	p.AllowedHosts = append(p.AllowedHosts, hosts...)
	p.AnyHost = allowRemote && len(hosts) == 0
	return p, nil
}

// checkServeLimits refuses limits that are not positive, and a connection
// bound with no room beyond the requests in flight and queued.
func checkServeLimits(l server.ServerLimits) error {
	for _, c := range []struct {
		name string
		v    int64
	}{
		{"max-body", l.Input.MaxBytes}, {"max-depth", int64(l.Input.MaxDepth)}, {"max-values", int64(l.Input.MaxValues)},
		{"max-memory", l.MaxMemory}, {"max-inflight", int64(l.MaxInFlight)}, {"max-queue", int64(l.MaxQueue)},
		{"queue-timeout", int64(l.QueueTimeout)}, {"max-conns", int64(l.MaxConns)},
		{"read-header-timeout", int64(l.ReadHeaderTimeout)}, {"read-timeout", int64(l.ReadTimeout)},
		{"write-timeout", int64(l.WriteTimeout)}, {"idle-timeout", int64(l.IdleTimeout)}, {"wedged-after", int64(l.WedgedAfter)},
	} {
		if c.v <= 0 {
			return usageError("--%s must be positive", c.name)
		}
	}
	// Requests in flight and queued hold their connections: the rest is
	// the headroom that lets /healthz and new clients in.
	if busy := l.MaxInFlight + l.MaxQueue; l.MaxConns <= busy {
		return usageError("--max-conns %d must be more than --max-inflight + --max-queue (%d), so that /healthz always finds a connection", l.MaxConns, busy)
	}
	return nil
}

// byteSize is a flag of a number of bytes, with an optional K, M or G
// suffix (powers of 1024; KB, KiB and the like are accepted too).
type byteSize int64

func (b *byteSize) String() string {
	n := int64(*b)
	for _, u := range []struct {
		suffix string
		shift  uint
	}{{"G", 30}, {"M", 20}, {"K", 10}} {
		if n > 0 && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

func (b *byteSize) Set(s string) error {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	shift := uint(0)
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			shift = 10
		case 'M':
			shift = 20
		case 'G':
			shift = 30
		}
	}
	if shift > 0 {
		t = t[:len(t)-1]
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64>>shift {
		return fmt.Errorf("%q is not a size in bytes (like 65536, 64K, 16M, 1G)", s)
	}
	*b = byteSize(n << shift)
	return nil
}

func (b *byteSize) Type() string { return "size" }

// upperParts are the managed and user layers above the project's
// configuration at path, checked (a managed file the user could write is
// refused: the load fails).
func upperParts(path string) ([]assemble.Part, error) {
	layers, err := runtime.New().OpenLayers(path, "", os.Getenv)
	if err != nil {
		return nil, err
	}
	var out []assemble.Part
	for _, p := range runtime.Parts(layers) {
		if p.Layer == runtime.LayerProject || samePath("", p.Path, mustAbs(path)) {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// mustAbs is path made absolute (as it is when it cannot be).
func mustAbs(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}
