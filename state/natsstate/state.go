package natsstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/hookctl/hookctl/state/kv"
)

// Defaults of the options.
const (
	DefaultBucket         = "hookctl"
	DefaultAuditStream    = "HOOKCTL_AUDIT"
	DefaultAuditSubject   = "hookctl.audit"
	DefaultConnectTimeout = 5 * time.Second
	DefaultTimeout        = 5 * time.Second
)

// markerTTL is how long the bucket keeps the marker JetStream leaves
// where a key was removed by its server-side TTL. Setting it is what
// enables per-message TTLs on a KV bucket.
const markerTTL = time.Minute

// Option configures Open.
type Option func(*options)

type options struct {
	bucket         string
	auditStream    string
	auditSubject   string
	replicas       int
	auditMaxAge    time.Duration
	connectTimeout time.Duration
	timeout        time.Duration
	natsOpts       []nats.Option
	now            func() time.Time
	gcGrace        time.Duration
}

// WithBucket names the JetStream KV bucket of the kv store and the loop
// guard (default "hookctl"; the stream behind it is "KV_<name>").
func WithBucket(name string) Option { return func(o *options) { o.bucket = name } }

// WithAuditStream names the stream of audit records and the subject
// prefix they are published under (default "HOOKCTL_AUDIT" and
// "hookctl.audit": a record of event E goes to "hookctl.audit.E").
func WithAuditStream(name, subjectPrefix string) Option {
	return func(o *options) { o.auditStream, o.auditSubject = name, subjectPrefix }
}

// WithReplicas sets how many servers of a cluster keep the bucket and the
// audit stream when Open creates them (1 or 3 usually; default 1). It
// does not change a bucket or stream that already exists.
func WithReplicas(n int) Option { return func(o *options) { o.replicas = n } }

// WithAuditMaxAge bounds how long the audit stream keeps records when
// Open creates it (default 0: for ever, within the server's limits).
func WithAuditMaxAge(d time.Duration) Option { return func(o *options) { o.auditMaxAge = d } }

// WithConnectTimeout bounds connecting to a server (default 5s; the
// context given to Open bounds it too).
func WithConnectTimeout(d time.Duration) Option {
	return func(o *options) { o.connectTimeout = d }
}

// WithTimeout bounds every operation, retries included, on top of its
// context (default 5s; 0 leaves only the context). Audit writes, which
// take no context, are bounded by it alone.
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithNATSOptions passes options to the NATS connection: credentials
// (nats.UserCredentials, nats.Token), TLS (nats.Secure, nats.RootCAs,
// nats.ClientCert), a name, reconnect settings. They are applied after
// the package's own defaults (reconnect for ever, every 250ms, no
// reconnect buffer), so they override them; connection handlers given
// here still run.
func WithNATSOptions(opts ...nats.Option) Option {
	return func(o *options) { o.natsOpts = append(o.natsOpts, opts...) }
}

// WithClock makes the kv store read the time from now instead of
// time.Now. Expiry is decided with this clock. It is meant for tests.
func WithClock(now func() time.Time) Option {
	return func(o *options) {
		if now != nil {
			o.now = now
		}
	}
}

var (
	validBucket = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
	validToken  = regexp.MustCompile(`^[a-zA-Z0-9_=-]+$`)
)

func (o *options) check() error {
	if !validBucket.MatchString(o.bucket) {
		return fmt.Errorf("natsstate: bad bucket name %q: letters, digits, - and _ only", o.bucket)
	}
	if !validBucket.MatchString(o.auditStream) {
		return fmt.Errorf("natsstate: bad audit stream name %q: letters, digits, - and _ only", o.auditStream)
	}
	for _, tok := range strings.Split(o.auditSubject, ".") {
		if !validToken.MatchString(tok) {
			return fmt.Errorf("natsstate: bad audit subject prefix %q", o.auditSubject)
		}
	}
	if o.replicas < 1 || o.replicas > 5 {
		return fmt.Errorf("natsstate: replicas must be 1 to 5, not %d", o.replicas)
	}
	if o.connectTimeout <= 0 || o.timeout < 0 || o.auditMaxAge < 0 {
		return errors.New("natsstate: timeouts and ages must not be negative")
	}
	return nil
}

// State is a connection to NATS JetStream holding hookctl's shared state:
// a kv store, the Stop loop guard's counts (kept in the same bucket) and
// the audit log. It is safe for concurrent use. Close it when done.
type State struct {
	nc *nats.Conn
	js jetstream.JetStream
	o  options

	kvStream  string // the bucket's stream, "KV_<bucket>"
	kvSubject string // "$KV.<bucket>."
	msgGet    string // the stream's (leader-answered) message get API
	purge     string // the stream's purge API
	serverTTL bool   // the bucket takes per-message TTLs

	store *Store
	audit *AuditWriter

	mu     sync.Mutex
	closed bool
	link   context.Context // canceled when the connection it was made on drops
	unlink context.CancelCauseFunc
	epoch  uint64 // the connection's reconnect count when link was made
}

// Open connects to the NATS server(s) at url (comma-separated URLs for a
// cluster, e.g. "nats://10.0.0.1:4222,nats://10.0.0.2:4222"), makes sure
// the kv bucket and the audit stream exist, creating them if they do not,
// and returns the State. It fails with an error matching ErrUnavailable
// when no server can be reached before ctx ends or the connect timeout
// passes.
func Open(ctx context.Context, url string, opts ...Option) (*State, error) {
	o := options{
		bucket:         DefaultBucket,
		auditStream:    DefaultAuditStream,
		auditSubject:   DefaultAuditSubject,
		replicas:       1,
		connectTimeout: DefaultConnectTimeout,
		timeout:        DefaultTimeout,
		now:            time.Now,
		gcGrace:        gcGrace,
	}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	s := &State{
		o:         o,
		kvStream:  "KV_" + o.bucket,
		kvSubject: "$KV." + o.bucket + ".",
	}
	s.msgGet = "$JS.API.STREAM.MSG.GET." + s.kvStream
	s.purge = "$JS.API.STREAM.PURGE." + s.kvStream
	nc, err := s.connect(ctx, url)
	if err != nil {
		return nil, &Error{Op: "open", Err: err}
	}
	s.nc = nc
	if err := s.setup(ctx); err != nil {
		nc.Close()
		return nil, err
	}
	s.store = &Store{s: s}
	s.audit = &AuditWriter{s: s}
	return s, nil
}

// connect dials, honouring ctx: if ctx ends first, Open returns and the
// connection, should it still come up, is closed.
func (s *State) connect(ctx context.Context, url string) (*nats.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	no := nats.GetDefaultOptions()
	for _, u := range strings.Split(url, ",") {
		if u = strings.TrimSpace(u); u != "" {
			no.Servers = append(no.Servers, u)
		}
	}
	if len(no.Servers) == 0 {
		return nil, errors.New("no server URL")
	}
	no.Name = "hookctl"
	no.MaxReconnect = -1
	no.ReconnectWait = 250 * time.Millisecond
	no.ReconnectBufSize = -1 // fail a publish at once while reconnecting
	no.Timeout = s.o.connectTimeout
	for _, opt := range s.o.natsOpts {
		if err := opt(&no); err != nil {
			return nil, err
		}
	}
	if dl, ok := ctx.Deadline(); ok {
		no.Timeout = max(min(no.Timeout, time.Until(dl)), time.Millisecond)
	}
	userDisc, userDiscOld, userClosed := no.DisconnectedErrCB, no.DisconnectedCB, no.ClosedCB
	no.DisconnectedErrCB = func(nc *nats.Conn, err error) {
		s.linkDown(nc)
		if userDisc != nil {
			userDisc(nc, err)
		} else if userDiscOld != nil {
			userDiscOld(nc)
		}
	}
	no.ClosedCB = func(nc *nats.Conn) {
		s.linkDown(nc)
		if userClosed != nil {
			userClosed(nc)
		}
	}
	type result struct {
		nc  *nats.Conn
		err error
	}
	ch := make(chan result, 1)
	go func() {
		nc, err := no.Connect()
		ch <- result{nc, err}
	}()
	select {
	case r := <-ch:
		return r.nc, r.err
	case <-ctx.Done():
		go func() {
			if r := <-ch; r.nc != nil {
				r.nc.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// setup binds to the bucket and the audit stream, creating them if they
// are missing.
func (s *State) setup(ctx context.Context) error {
	js, err := jetstream.New(s.nc)
	if err != nil {
		return err
	}
	s.js = js
	if s.o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, max(s.o.timeout, 10*time.Second))
		defer cancel()
	}
	info, err := s.bucketInfo(ctx)
	if err != nil {
		return s.setupErr(fmt.Sprintf("bucket %s", s.o.bucket), err)
	}
	s.serverTTL = info.Config.AllowMsgTTL
	if err := s.auditSetup(ctx); err != nil {
		return s.setupErr(fmt.Sprintf("audit stream %s", s.o.auditStream), err)
	}
	return nil
}

func (s *State) bucketInfo(ctx context.Context) (*jetstream.StreamInfo, error) {
	for range 3 {
		st, err := s.js.Stream(ctx, s.kvStream)
		if err == nil {
			return st.CachedInfo(), nil
		}
		if !errors.Is(err, jetstream.ErrStreamNotFound) {
			return nil, err
		}
		cfg := jetstream.KeyValueConfig{
			Bucket:         s.o.bucket,
			Description:    "hookctl shared state: kv store and Stop loop guard",
			History:        1,
			Replicas:       s.o.replicas,
			Storage:        jetstream.FileStorage,
			LimitMarkerTTL: markerTTL,
		}
		_, err = s.js.CreateKeyValue(ctx, cfg)
		if errors.Is(err, jetstream.ErrLimitMarkerTTLNotSupported) {
			// A server older than 2.11: no per-message TTL, so expired
			// keys are only hidden, never removed (see doc.go).
			cfg.LimitMarkerTTL = 0
			_, err = s.js.CreateKeyValue(ctx, cfg)
		}
		if err != nil && !errors.Is(err, jetstream.ErrBucketExists) {
			return nil, err
		}
		// Created, or created by another replica meanwhile: bind.
	}
	return nil, errors.New("bucket vanished while being created")
}

func (s *State) auditSetup(ctx context.Context) error {
	_, err := s.js.Stream(ctx, s.o.auditStream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		_, err = s.js.CreateStream(ctx, jetstream.StreamConfig{
			Name:        s.o.auditStream,
			Description: "hookctl audit log: one JSON record per fire",
			Subjects:    []string{s.o.auditSubject + ".>"},
			Storage:     jetstream.FileStorage,
			Replicas:    s.o.replicas,
			MaxAge:      s.o.auditMaxAge,
			Duplicates:  2 * time.Minute,
			Discard:     jetstream.DiscardOld,
		})
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			err = nil
		}
	}
	if err != nil {
		return err
	}
	// The records must land in this stream and no other.
	name, err := s.js.StreamNameBySubject(ctx, s.o.auditSubject+".Stop")
	if err != nil {
		return err
	}
	if name != s.o.auditStream {
		return fmt.Errorf("subject %s.> belongs to stream %s", s.o.auditSubject, name)
	}
	return nil
}

// setupErr marks an error of reaching NATS during Open as ErrUnavailable.
func (s *State) setupErr(what string, err error) error {
	if unreachable(err) {
		return &Error{Op: "open", Key: what, Err: err}
	}
	return fmt.Errorf("natsstate: open: %s: %w", what, err)
}

// unreachable reports whether err says NATS could not be reached, rather
// than that it refused the request.
func unreachable(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) ||
		errors.Is(err, nats.ErrTimeout) || errors.Is(err, nats.ErrNoResponders) ||
		errors.Is(err, nats.ErrConnectionClosed) || errors.Is(err, nats.ErrConnectionReconnecting) ||
		errors.Is(err, nats.ErrReconnectBufExceeded) || errors.Is(err, nats.ErrDisconnected) ||
		errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, jetstream.ErrJetStreamNotEnabled) ||
		errors.Is(err, errNotConnected) || errors.Is(err, errDisconnected) || errors.Is(err, errNotAnswering)
}

// KV returns the kv store. It implements kv.Store.
func (s *State) KV() *Store { return s.store }

// LoopStore is the engine's LoopStore (the Stop loop guard's count of
// consecutive blocks), restated so that this package does not depend on
// the engine.
type LoopStore interface {
	LoopCount(ctx context.Context, key string) (int, error)
	SetLoopCount(ctx context.Context, key string, n int) error
	// SwapLoopCount sets key's count to new if it is old (0: no count),
	// and reports whether it did (the engine's LoopSwapper).
	SwapLoopCount(ctx context.Context, key string, old, new int) (bool, error)
}

// Loops returns the Stop loop guard's store: kv.LoopStore over the kv
// store, so the counts live in the same bucket under "stopguard/" and
// every replica sees the same streak.
func (s *State) Loops() LoopStore { return kv.LoopStore(s.store) }

// Audit returns the audit log writer, to pass to engine.WithAuditLog.
func (s *State) Audit() *AuditWriter { return s.audit }

// Ready reports whether the State can carry out operations now: nil while
// its client is connected to a server, else an *Error matching
// ErrUnavailable that says what the connection is doing (reconnecting,
// ...), or ErrClosed after Close. It does no I/O, so a readiness check
// may call it as often as it likes. It is a view of the connection only:
// a connected client's operation may still fail, for instance while a
// clustered stream has no leader.
func (s *State) Ready() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if st := s.nc.Status(); st != nats.CONNECTED {
		return &Error{Op: "ready", Err: fmt.Errorf("%w (%s)", errNotConnected, strings.ToLower(st.String()))}
	}
	return nil
}

// Ping checks that the server answers now: a round trip (PING, PONG)
// within ctx and the State's operation timeout. A server that keeps the
// TCP connection open but does not answer (stopped, wedged) fails it,
// where Ready, which looks only at the connection, passes. It returns an
// *Error matching ErrUnavailable, or ErrClosed after Close.
func (s *State) Ping(ctx context.Context) error {
	if err := s.Ready(); err != nil {
		return err
	}
	ctx, cancel := s.opCtx(ctx)
	defer cancel()
	if err := s.nc.FlushWithContext(ctx); err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			err = fmt.Errorf("no answer to a ping within the deadline: %w", err)
		}
		return &Error{Op: "ping", Err: fmt.Errorf("%w: %w", errNotAnswering, err)}
	}
	return nil
}

// Close closes the connection. Operations in progress fail; later ones
// return ErrClosed. Close is idempotent.
func (s *State) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.nc.Close()
	return nil
}

// Errors of the connection, as causes inside an *Error.
var (
	errNotConnected = errors.New("not connected")
	errNotAnswering = errors.New("server not answering")
	errDisconnected = errors.New("connection lost while waiting for the reply")
	errNoReply      = fmt.Errorf("no reply within %s, asked again", readAttempt)
)

// linkCtx returns a context that is canceled when the current connection
// drops, or errNotConnected at once when there is none.
func (s *State) linkCtx() (context.Context, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	if st := s.nc.Status(); st != nats.CONNECTED {
		return nil, fmt.Errorf("%w (%s)", errNotConnected, strings.ToLower(st.String()))
	}
	epoch := s.nc.Stats().Reconnects
	if s.link == nil || s.link.Err() != nil || s.epoch != epoch {
		if s.unlink != nil {
			s.unlink(errDisconnected)
		}
		s.link, s.unlink = context.WithCancelCause(context.Background())
		s.epoch = epoch
	}
	return s.link, nil
}

// linkDown fails the requests waiting on a connection that dropped. A
// link made after the client reconnected is left alone.
func (s *State) linkDown(nc *nats.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.unlink != nil && (nc.Status() != nats.CONNECTED || s.epoch != nc.Stats().Reconnects) {
		s.unlink(errDisconnected)
		s.link, s.unlink = nil, nil
	}
}

// opCtx bounds an operation by the timeout option.
func (s *State) opCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.o.timeout > 0 {
		return context.WithTimeout(ctx, s.o.timeout)
	}
	return context.WithCancel(ctx)
}

// reply is the part every JetStream API reply shares.
type reply struct {
	Error *apiError `json:"error"`
}

func (r *reply) apiErr() *apiError { return r.Error }

type apiReply interface{ apiErr() *apiError }

// readAttempt bounds how long a read waits for its reply before it asks
// again. After the node leading a stream died, the other nodes go on
// believing in it until their election timeout (4 to 9 s) and drop the
// stream's API requests unanswered meanwhile; a read asked once would
// wait out its whole operation timeout, although a new leader answers a
// few seconds later. Asking a read again changes nothing, so it is asked
// again every readAttempt, and the reply to the last question is the
// answer. A busy server answers in milliseconds; a late reply to an
// earlier question is merely dropped.
const readAttempt = 2 * time.Second

// askRead asks a read question (ask) and waits readAttempt at most for
// its reply: errNoReply when none came in that time while ctx still runs.
func askRead(ctx context.Context, ask func(context.Context) error) error {
	actx, cancel := context.WithTimeout(ctx, readAttempt)
	defer cancel()
	err := ask(actx)
	if err != nil && actx.Err() != nil && ctx.Err() == nil {
		return errNoReply
	}
	return err
}

// call sends m and decodes the JSON reply into out. It retries, with
// backoff and until ctx ends, what was certainly not carried out: no
// responder (the stream has no leader yet) and JetStream's "unavailable"
// replies; a read (write false) is also asked again when no reply came
// within readAttempt. It fails at once when the client is not connected.
// A write whose reply does not come is reported with Unknown set. A
// JetStream error in the reply is returned as *apiError.
func (s *State) call(ctx context.Context, op, key string, m *nats.Msg, out apiReply, write bool) error {
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return &Error{Op: op, Key: key, Err: err}
		}
		link, err := s.linkCtx()
		if err != nil {
			if errors.Is(err, ErrClosed) {
				return err
			}
			return &Error{Op: op, Key: key, Err: err}
		}
		var resp *nats.Msg
		ask := func(c context.Context) (err error) {
			resp, err = s.request(c, link, m)
			return err
		}
		if write {
			err = ask(ctx)
		} else {
			err = askRead(ctx, ask)
		}
		unanswered := errors.Is(err, errNoReply)
		if err == nil {
			if jerr := json.Unmarshal(resp.Data, out); jerr != nil {
				return fmt.Errorf("natsstate: %s %q: bad JetStream reply: %w", op, key, jerr)
			}
			aerr := out.apiErr()
			if aerr == nil {
				return nil
			}
			if !aerr.transient() {
				return aerr
			}
			err = aerr
		} else if errors.Is(err, nats.ErrMaxPayload) || errors.Is(err, nats.ErrBadSubject) {
			// Refused by the client before sending: NATS is fine.
			return err
		} else if !errors.Is(err, nats.ErrNoResponders) && !unanswered {
			// No reply: the request may have been carried out.
			if errors.Is(err, nats.ErrConnectionClosed) && s.isClosed() {
				return ErrClosed
			}
			sent := !errors.Is(err, nats.ErrReconnectBufExceeded) && !errors.Is(err, nats.ErrConnectionReconnecting)
			return &Error{Op: op, Key: key, Err: err, Unknown: write && sent}
		}
		// Not carried out, or a read: try again after a pause.
		if serr := sleep(ctx, attempt); serr != nil {
			return &Error{Op: op, Key: key, Err: fmt.Errorf("%w (last: %w)", serr, err)}
		}
	}
}

// request is one round trip, failed as soon as the connection it went
// out on drops.
func (s *State) request(ctx, link context.Context, m *nats.Msg) (*nats.Msg, error) {
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(link, func() { cancel(errDisconnected) })
	defer stop()
	resp, err := s.nc.RequestMsgWithContext(rctx, m)
	if err != nil && ctx.Err() == nil && errors.Is(context.Cause(rctx), errDisconnected) {
		err = errDisconnected
	}
	return resp, err
}

func (s *State) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// sleep waits before retry attempt+1: a random pause up to 0.5ms doubled
// per attempt, at most 25ms, so that competing writers spread out.
func sleep(ctx context.Context, attempt int) error {
	ceil := 500 * time.Microsecond << min(attempt, 6)
	ceil = min(ceil, 25*time.Millisecond)
	t := time.NewTimer(rand.N(ceil) + 50*time.Microsecond)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
