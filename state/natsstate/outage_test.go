package natsstate_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/state/natsstate"
)

// ops are one of each operation, returning only the error.
func ops(st *natsstate.State) map[string]func(ctx context.Context) error {
	s := st.KV()
	return map[string]func(ctx context.Context) error{
		"Get":    func(ctx context.Context) error { _, _, err := s.Get(ctx, "k"); return err },
		"Set":    func(ctx context.Context) error { return s.Set(ctx, "k2", 1, time.Minute) },
		"Delete": func(ctx context.Context) error { return s.Delete(ctx, "k2") },
		"Incr":   func(ctx context.Context) error { _, err := s.Incr(ctx, "n", 1, 0); return err },
		"CAS": func(ctx context.Context) error {
			_, err := s.CompareAndSwap(ctx, "k", "before", "before", 0)
			return err
		},
		"Keys":         func(ctx context.Context) error { _, err := s.Keys(ctx, ""); return err },
		"LoopCount":    func(ctx context.Context) error { _, err := st.Loops().LoopCount(ctx, "Stop/s"); return err },
		"SetLoopCount": func(ctx context.Context) error { return st.Loops().SetLoopCount(ctx, "Stop/s", 1) },
		"Audit":        func(context.Context) error { _, err := st.Audit().Write([]byte(`{"event":"Stop"}` + "\n")); return err },
	}
}

// TestServerOutage stops the server under a connected State: every
// operation fails at once with ErrUnavailable (the per-operation timeout
// is a minute, so failing fast is not the timeout), and once the server
// is back every operation succeeds again and the data is still there.
func TestServerOutage(t *testing.T) {
	ts := startServer(t)
	st := open(t, ts.URL(), natsstate.WithTimeout(time.Minute))
	if err := st.Ready(); err != nil {
		t.Fatalf("Ready, connected: %v", err)
	}
	ctx := context.Background()
	s := st.KV()
	if err := s.Set(ctx, "k", "before", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Incr(ctx, "n", 1, 0); err != nil {
		t.Fatal(err)
	}

	ts.Stop()
	// The client notices the drop (the socket closes) at once.
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, _, err := s.Get(ctx, "k"); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("reads still succeed with the server stopped")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := st.Ready(); !errors.Is(err, natsstate.ErrUnavailable) {
		t.Errorf("Ready with the server down: %v, want ErrUnavailable", err)
	}
	for name, op := range ops(st) {
		start := time.Now()
		err := op(ctx)
		took := time.Since(start)
		var e *natsstate.Error
		if !errors.Is(err, natsstate.ErrUnavailable) || !errors.As(err, &e) {
			t.Errorf("%s with the server down: %v, want an *Error matching ErrUnavailable", name, err)
		} else if e.Unknown {
			t.Errorf("%s: not connected, yet the outcome is reported unknown: %v", name, err)
		}
		if took > 2*time.Second {
			t.Errorf("%s took %v to fail", name, took)
		}
	}
	if got := st.Audit().Stats().Failed; got != 1 {
		t.Errorf("audit failures counted: %d, want 1", got)
	}

	ts.Start()
	deadline = time.Now().Add(30 * time.Second)
	for {
		_, _, err := s.Get(ctx, "k")
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still failing 30s after the server came back: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := st.Ready(); err != nil {
		t.Errorf("Ready after the server came back: %v", err)
	}
	for name, op := range ops(st) {
		if err := op(ctx); err != nil {
			t.Errorf("%s after the server came back: %v", name, err)
		}
	}
	if v, _, err := s.Get(ctx, "k"); v != "before" || err != nil {
		t.Errorf("k = %v, %v after the restart", v, err)
	}
	if n, err := s.Incr(ctx, "n", 1, 0); n != 3 || err != nil { // 1 before, 1 by ops
		t.Errorf("Incr after the restart = %d, %v; want 3", n, err)
	}
}

// TestOutageInFlight stops the server while goroutines hammer it: every
// one of them gets its error within seconds, none hangs, and each error
// is an *Error matching ErrUnavailable.
func TestOutageInFlight(t *testing.T) {
	ts := startServer(t)
	st := open(t, ts.URL(), natsstate.WithTimeout(time.Minute))
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	started := make(chan struct{}, 16)
	for g := range 16 {
		wg.Go(func() {
			ctx := context.Background()
			key := fmt.Sprintf("n/%d", g%4)
			for i := 0; ; i++ {
				if _, err := st.KV().Incr(ctx, key, 1, 0); err != nil {
					errs <- err
					return
				}
				if i == 0 {
					started <- struct{}{}
				}
			}
		})
	}
	for range 16 {
		<-started
	}
	stopped := time.Now()
	ts.Stop()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("operations still running 20s after the server stopped")
	}
	t.Logf("all 16 failed within %v of the stop", time.Since(stopped))
	close(errs)
	for err := range errs {
		if !errors.Is(err, natsstate.ErrUnavailable) {
			t.Errorf("error %v, want ErrUnavailable", err)
		}
	}
}

// TestOpenUnreachable: Open with nothing listening fails promptly with
// ErrUnavailable; a context that ends first ends it sooner.
func TestOpenUnreachable(t *testing.T) {
	url := fmt.Sprintf("nats://127.0.0.1:%d", freePorts(t, 1)[0])
	start := time.Now()
	_, err := natsstate.Open(context.Background(), url, natsstate.WithConnectTimeout(2*time.Second))
	if !errors.Is(err, natsstate.ErrUnavailable) {
		t.Errorf("Open = %v, want ErrUnavailable", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Open took %v", took)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := natsstate.Open(ctx, url); !errors.Is(err, context.Canceled) {
		t.Errorf("Open with a canceled context = %v", err)
	}
	if _, err := natsstate.Open(context.Background(), url, natsstate.WithBucket("no.dots")); err == nil {
		t.Error("bad bucket name accepted")
	}
}

// TestClosed: after Close every operation returns ErrClosed.
func TestClosed(t *testing.T) {
	st := openShared(t)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := st.Ready(); !errors.Is(err, natsstate.ErrClosed) {
		t.Errorf("Ready after Close: %v, want ErrClosed", err)
	}
	for name, op := range ops(st) {
		if err := op(context.Background()); !errors.Is(err, natsstate.ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", name, err)
		}
	}
}
