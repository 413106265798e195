package state_test

// What a Shared adds to its backend, for every backend where it applies:
// it opens on first use, takes its backend from the configuration before
// that, fails every use (kv calls, the loop guard's count) while NATS
// cannot be reached, and queues the audit records so that a stalled NATS
// delays nothing, Shutdown bounding the wait for them.

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/syncbuf"
	"github.com/hookctl/hookctl/state"
	"github.com/hookctl/hookctl/state/kv"
	"github.com/hookctl/hookctl/state/natsbackend"
	"github.com/hookctl/hookctl/state/natsstate"
	"github.com/hookctl/hookctl/state/natsstate/natstest"
)

// TestSharedOpensOnFirstUse: a Shared touches nothing until it is used
// (no directory made, no NATS connection), and is ready after.
func TestSharedOpensOnFirstUse(t *testing.T) {
	srv := natstest.Start(t)
	ctx := context.Background()
	for _, c := range conformanceCases(func(*testing.T) string { return srv.URL() }) {
		t.Run(string(c.kind), func(t *testing.T) {
			url, opts := c.fresh(t)
			s := openShared(t, url, time.Now, opts...)
			opened := func() bool {
				switch c.kind {
				case state.KindFile:
					_, err := os.Stat(filepath.Dir(s.BackendInUse().File))
					return err == nil
				case state.KindNATS:
					return srv.Running().NumClients() > 0
				}
				return s.Ready() == nil
			}
			if err := s.Ready(); err == nil || opened() {
				t.Fatalf("open before the first use (ready: %v)", err)
			}
			if _, _, err := s.Get(ctx, "k"); err != nil {
				t.Fatal(err)
			}
			if err := s.Ready(); err != nil || !opened() {
				t.Fatalf("not open after the first use: %v", err)
			}
			if err := s.Check(ctx); err != nil {
				t.Fatal(err)
			}
			if st := s.Status(); st["backend"] != string(c.kind) || st["ready"] != true {
				t.Fatalf("status %v", st)
			}
		})
	}
}

// load loads a configuration from src with s as its store, as the
// commands do, and configures s from it.
func load(t *testing.T, s *state.Shared, src string) (*engine.Engine, *assemble.Config) {
	t.Helper()
	eng, err := assemble.NewEngine(append(s.EngineOptions(), engine.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))...)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg, err := assemble.LoadSource(filepath.Join(dir, "hooks.hcl"), []byte(src), dir, assemble.WithEngine(eng), assemble.WithStore(s))
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		eng.Close(context.Background())
		cfg.Close()
	})
	s.Configure(cfg)
	s.Attach(eng)
	return eng, cfg
}

// TestSharedConfigureBeforeFirstUse: the backend is the last one chosen
// before the first use (Use, or Configure from settings.state_file or
// settings.state); once open, the state stays where it is.
func TestSharedConfigureBeforeFirstUse(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "a", "kv.json")
	s := openShared(t, "memory:", time.Now)
	load(t, s, "settings {\n  state_file = \"a/kv.json\"\n}\n")
	if b := s.BackendInUse(); b.Kind() != state.KindFile || !strings.HasSuffix(b.File, filepath.Join("a", "kv.json")) {
		t.Fatalf("configured %v", b)
	}
	s.Use(state.Backend{File: file})
	if err := s.Set(ctx, "k", "v", 0); err != nil {
		t.Fatal(err)
	}
	// Chosen after the first use: ignored.
	s.Use(state.Backend{Memory: true})
	load(t, s, "settings {\n  state_file = \"b.json\"\n}\n")
	if b := s.BackendInUse(); b.File != file {
		t.Fatalf("moved to %v", b)
	}
	f, err := kv.OpenFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok, err := f.Get(ctx, "k"); err != nil || !ok || v != "v" {
		t.Fatalf("the file holds %v, %v, %v", v, ok, err)
	}

	// settings.state names NATS: where it is written is the source.
	n := openShared(t, "memory:", time.Now)
	load(t, n, "settings {\n  state = \"nats://127.0.0.1:1\"\n}\n")
	if b := n.BackendInUse(); b.Kind() != state.KindNATS || b.NATS != "nats://127.0.0.1:1" || !strings.Contains(b.Source, "settings.state at ") || !strings.HasSuffix(b.Source, "hooks.hcl:2:11") {
		t.Fatalf("configured %#v", b)
	}
}

// TestSharedRefusesABadSetting: a configuration made by hand whose
// settings.state does not parse fails every use, naming the setting: the
// state is not kept in the default file instead.
func TestSharedRefusesABadSetting(t *testing.T) {
	ctx := context.Background()
	s := openShared(t, "memory:", time.Now)
	cfg := &assemble.Config{}
	cfg.Settings.State = "redis://cache:6379"
	s.Configure(cfg)
	_, err := s.Incr(ctx, "k", 1, 0)
	var ue interface{ Unwrap() error }
	if err == nil || !strings.Contains(err.Error(), `settings.state: "redis://cache:6379": unknown state URL scheme "redis"`) || !errors.As(err, &ue) {
		t.Fatalf("Incr: %v", err)
	}
	if _, err := kv.LoopStore(s).LoopCount(ctx, "Stop/s1"); err == nil {
		t.Fatal("the loop guard counted")
	}
	if err := s.Ready(); err == nil {
		t.Fatal("ready")
	}
	// Nor does a later Use move it.
	s.Use(state.Backend{Memory: true})
	if _, _, err := s.Get(ctx, "k"); err == nil {
		t.Fatal("a later Use opened it")
	}
}

// silentServer accepts TCP connections on 127.0.0.1 and never says a
// word: a NATS address whose connections hang rather than fail.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return "nats://" + ln.Addr().String()
}

// freeURL is a nats:// URL nothing listens on.
func freeURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	return "nats://" + ln.Addr().String()
}

// TestSharedUnreachableNATSFailsClosed: with NATS that cannot be reached
// (nothing listens; an address that accepts and never answers; no NATS
// opener given) every kv call fails, the loop guard cannot count and a
// Stop block stands with the outcome saying so, and the audit record is
// logged as lost. Nothing is kept anywhere else.
func TestSharedUnreachableNATSFailsClosed(t *testing.T) {
	ctx := context.Background()
	nats := state.WithNATS(natsbackend.Opener())
	for _, tc := range []struct {
		name string
		url  string
		opts []state.Option
		want error
	}{
		{"nothing listens", freeURL(t), []state.Option{nats}, natsstate.ErrUnavailable},
		{"silent server", silentServer(t), []state.Option{nats, state.WithConnectTimeout(300 * time.Millisecond)}, natsstate.ErrUnavailable},
		{"no opener", "nats://127.0.0.1:4222", nil, state.ErrNoNATS},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := state.New("hookctl state test", tc.opts...)
			var log syncbuf.Buffer
			eng, err := assemble.NewEngine(append(s.EngineOptions(), engine.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))...)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			src := "settings {\n  state = \"" + tc.url + "\"\n}\n" + `
hook "tests-first" {
  event    = "Stop"
  decision = "block"
  reason   = "the tests are failing"
}
`
			cfg, err := assemble.LoadSource(filepath.Join(dir, "hooks.hcl"), []byte(src), dir, assemble.WithEngine(eng), assemble.WithStore(s))
			if err != nil {
				t.Fatal(err)
			}
			if err := eng.Load(cfg.Engine); err != nil {
				t.Fatal(err)
			}
			s.Configure(cfg)
			s.Attach(eng)
			check := func(op string, err error) {
				t.Helper()
				if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), "shared state on NATS nats://127.0.0.1:") {
					t.Errorf("%s: %v, want %v", op, err, tc.want)
				}
			}
			_, _, err = s.Get(ctx, "k")
			check("Get", err)
			check("Set", s.Set(ctx, "k", 1, 0))
			_, err = s.Incr(ctx, "k", 1, 0)
			check("Incr", err)
			_, err = s.CompareAndSwap(ctx, "k", nil, 1, 0)
			check("CompareAndSwap", err)
			_, err = s.Keys(ctx, "")
			check("Keys", err)
			check("Delete", s.Delete(ctx, "k"))
			_, err = kv.LoopStore(s).LoopCount(ctx, "Stop/s1")
			check("LoopCount", err)

			out, err := eng.Fire(ctx, engine.Event{Name: "Stop", Payload: map[string]any{"hook_event_name": "Stop", "session_id": "s1"}})
			if err != nil {
				t.Fatal(err)
			}
			if out.Decision != engine.DecisionBlock || out.StopGuard == nil || !strings.Contains(out.StopGuard.Error, "shared state on NATS") {
				t.Fatalf("outcome %s, stop guard %+v", out.Decision, out.StopGuard)
			}
			eng.Close(ctx)
			cfg.Close()
			err = s.Close()
			if err == nil || !strings.Contains(err.Error(), "audit: 1 record lost since start") {
				t.Errorf("Close: %v", err)
			}
			if !strings.Contains(log.String(), "audit record not written") {
				t.Errorf("log: %s", log.String())
			}
		})
	}
}

// TestSharedAuditOnNATS: the engine's audit records reach the audit
// stream through the Shared's queue, all of them by Shutdown.
func TestSharedAuditOnNATS(t *testing.T) {
	srv := natstest.Start(t)
	ctx := context.Background()
	s := openShared(t, srv.URL(), time.Now, state.WithNATS(natsbackend.Opener(natsstate.WithAuditStream("AUDITT", "auditt"))))
	if !s.OnNATS() {
		t.Fatal("not on NATS")
	}
	w := s.AuditLog(slog.New(slog.NewTextHandler(io.Discard, nil)))
	for range 3 {
		if _, err := w.Write([]byte(`{"event":"Stop"}` + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := s.Shutdown(sctx); err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(sctx, "AUDITT")
	if err != nil {
		t.Fatal(err)
	}
	if info, err := st.Info(sctx); err != nil || info.State.Msgs != 3 {
		t.Fatalf("stream: %v, %v", info, err)
	}
	if _, _, err := s.Get(ctx, "k"); !errors.Is(err, state.ErrClosed) {
		t.Fatalf("Get after Shutdown: %v", err)
	}
}

// stalled is a Remote whose audit publish hangs until the connection
// closes (a stopped NATS server), or for ever with ignoreClose, until
// the test ends.
type stalled struct {
	publishing  chan struct{} // closed when the first publish starts
	once        sync.Once
	closed      chan struct{}
	ignoreClose bool
	release     chan struct{} // closed when the test ends
}

func newStalled(t *testing.T, ignoreClose bool) *stalled {
	r := &stalled{publishing: make(chan struct{}), closed: make(chan struct{}), ignoreClose: ignoreClose, release: make(chan struct{})}
	t.Cleanup(func() { close(r.release) })
	return r
}

func (r *stalled) KV() kv.Store               { return kv.NewMemory() }
func (r *stalled) Ready() error               { return nil }
func (r *stalled) Ping(context.Context) error { return nil }
func (r *stalled) Audit() io.Writer           { return r }
func (r *stalled) Close() error               { close(r.closed); return nil }
func (r *stalled) opener() state.Option {
	return state.WithNATS(func(context.Context, string, state.Dial) (state.Remote, error) { return r, nil })
}

func (r *stalled) Write(p []byte) (int, error) {
	r.once.Do(func() { close(r.publishing) })
	if r.ignoreClose {
		<-r.release
	} else {
		select {
		case <-r.closed:
		case <-r.release:
		}
	}
	return 0, errors.New("connection closed")
}

// TestSharedAuditQueueAndShutdown: while NATS stalls, audit records are
// queued and Write returns at once; Shutdown gives the queue until its
// context ends, closes the connection (ending the publish in progress)
// and returns having logged every record lost, its error counting them;
// a publish that does not end even then does not hold Shutdown.
func TestSharedAuditQueueAndShutdown(t *testing.T) {
	for _, ignoreClose := range []bool{false, true} {
		name := "publish ends on close"
		if ignoreClose {
			name = "publish never ends"
		}
		t.Run(name, func(t *testing.T) {
			r := newStalled(t, ignoreClose)
			s := state.New("hookctl state test", r.opener())
			s.Use(state.Backend{NATS: "nats://127.0.0.1:4222", Source: "test"})
			var log syncbuf.Buffer
			w := s.AuditLog(slog.New(slog.NewTextHandler(&log, nil)))
			if _, err := w.Write([]byte("one\n")); err != nil {
				t.Fatal(err)
			}
			<-r.publishing // the queue's goroutine is stuck in the publish
			for _, rec := range []string{"two\n", "three\n"} {
				if _, err := w.Write([]byte(rec)); err != nil {
					t.Fatal(err)
				}
			}
			if st := s.Status(); st["audit_records_queued"] != 3 {
				t.Fatalf("status %v", st)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // shutdown's time is up at once
			err := s.Shutdown(ctx)
			if err == nil || !strings.Contains(err.Error(), "audit: 2 records not written before shutdown") {
				t.Fatalf("Shutdown: %v", err)
			}
			if !ignoreClose && !strings.Contains(log.String(), "audit record not written") {
				t.Fatalf("the publish cut short is not logged before Shutdown returned: %q", log.String())
			}
			if err := s.Shutdown(context.Background()); err != nil {
				t.Fatalf("second Shutdown: %v", err)
			}
		})
	}
}

// TestSharedWithoutMemory: a Shared that refuses the memory backend (a
// one-shot command's) fails every use on it, kv calls and the loop
// guard's count alike, saying why; the other backends are unaffected.
func TestSharedWithoutMemory(t *testing.T) {
	ctx := context.Background()
	s := openShared(t, "memory:", time.Now, state.WithoutMemory("it ends after each call"))
	_, err := s.Incr(ctx, "calls", 1, 0)
	if !errors.Is(err, state.ErrMemoryRefused) || !strings.Contains(err.Error(), "shared state on memory (settings.state): the memory state is refused here: it ends after each call") {
		t.Fatalf("Incr: %v", err)
	}
	if _, err := kv.LoopStore(s).LoopCount(ctx, "Stop/s1"); !errors.Is(err, state.ErrMemoryRefused) {
		t.Fatalf("LoopCount: %v", err)
	}
	if err := s.Ready(); !errors.Is(err, state.ErrMemoryRefused) {
		t.Fatalf("ready: %v", err)
	}
	f := openShared(t, state.Backend{File: filepath.Join(t.TempDir(), "kv.json")}.URL(), time.Now, state.WithoutMemory("x"))
	if _, err := f.Incr(ctx, "calls", 1, 0); err != nil {
		t.Fatal(err)
	}
}
