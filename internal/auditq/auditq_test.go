package auditq

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// gate is a writer that holds every Write until released, as a publish to
// a stalled NATS server does.
type gate struct {
	entered chan struct{}
	release chan struct{}
	mu      sync.Mutex
	got     []string
	fail    error
}

func newGate() *gate { return &gate{entered: make(chan struct{}, 100), release: make(chan struct{})} }

func (g *gate) Write(p []byte) (int, error) {
	g.entered <- struct{}{}
	<-g.release
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fail != nil {
		return 0, g.fail
	}
	g.got = append(g.got, string(p))
	return len(p), nil
}

// TestWriteNeverWaits: with the writer stalled, Write returns at once;
// past the bound it drops, counts and says so; once the writer moves the
// queued records are written in order, and Close flushes them.
func TestWriteNeverWaits(t *testing.T) {
	g := newGate()
	q := New(g, WithBounds(2, 0))
	if _, err := q.Write([]byte("r0\n")); err != nil {
		t.Fatal(err)
	}
	<-g.entered // r0 is being written, and stays there
	for _, r := range []string{"r1\n", "r2\n"} {
		if n, err := q.Write([]byte(r)); err != nil || n != len(r) {
			t.Fatalf("Write(%q) = %d, %v", r, n, err)
		}
	}
	var de *DroppedError
	for i := range 2 {
		_, err := q.Write([]byte("r3\n"))
		if !errors.As(err, &de) || de.Total != uint64(i+1) || !strings.Contains(err.Error(), "2 audit records are waiting") {
			t.Fatalf("Write on a full queue: %v", err)
		}
	}
	close(g.release)
	if err := q.Close(context.Background()); err == nil || !strings.Contains(err.Error(), "2 records lost since start") {
		t.Fatalf("Close: %v", err)
	}
	if got := strings.Join(g.got, ""); got != "r0\nr1\nr2\n" {
		t.Fatalf("written %q", got)
	}
	if st := q.Stats(); st.Written != 3 || st.Lost != 2 || st.Queued != 0 {
		t.Fatalf("stats %+v", st)
	}
	if _, err := q.Write([]byte("late\n")); !errors.As(err, &de) || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("Write after Close: %v", err)
	}
}

// TestByteBound: records past the byte bound are dropped too.
func TestByteBound(t *testing.T) {
	g := newGate()
	q := New(g, WithBounds(100, 10))
	q.Write([]byte("0123456789"))
	<-g.entered
	if _, err := q.Write(bytes.Repeat([]byte("x"), 11)); err == nil || !strings.Contains(err.Error(), "10 bytes") {
		t.Fatalf("an 11-byte record with a 10-byte bound: %v", err)
	}
	close(g.release)
	q.Close(context.Background())
}

// TestCloseGivesUp: Close with a stalled writer returns when its context
// ends, saying how many records were not written; the goroutine ends
// once the writer returns.
func TestCloseGivesUp(t *testing.T) {
	g := newGate()
	q := New(g)
	q.Write([]byte("a\n"))
	<-g.entered
	q.Write([]byte("b\n"))
	q.Write([]byte("c\n"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := q.Close(ctx)
	if err == nil || !strings.Contains(err.Error(), "2 records not written before shutdown") {
		t.Fatalf("Close: %v", err)
	}
	close(g.release) // the connection closes: the write in progress ends
	if err := q.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := q.Stats(); st.Written != 1 || st.Lost != 2 {
		t.Fatalf("stats %+v", st)
	}
}

// TestWriterErrors: a record the writer fails is counted and reported.
func TestWriterErrors(t *testing.T) {
	g := newGate()
	g.fail = errors.New("nats: timeout")
	var mu sync.Mutex
	var errs []error
	q := New(g, OnError(func(err error, lost uint64) { mu.Lock(); errs = append(errs, err); mu.Unlock() }))
	q.Write([]byte("a\n"))
	close(g.release)
	if err := q.Close(context.Background()); err == nil || !strings.Contains(err.Error(), "1 record lost") {
		t.Fatalf("Close: %v", err)
	}
	if len(errs) != 1 || errs[0] != g.fail {
		t.Fatalf("errors %v", errs)
	}
}
