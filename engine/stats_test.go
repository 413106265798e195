package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/hookctl/hookctl/engine"
)

// BackgroundPending counts the background hooks queued or running, and
// BackgroundCapacity is the queue's size.
func TestStatsBackgroundPending(t *testing.T) {
	eng, err := engine.New(engine.WithBackgroundQueue(16, 0))
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	_ = eng.Register(engine.Hook{ID: "bg", Event: "PostToolUse", Background: true,
		Handler: engine.HandlerFunc(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
			<-release
			return nil, nil
		})})
	for range 3 {
		if _, err := eng.Fire(context.Background(), engine.Event{Name: "PostToolUse"}); err != nil {
			t.Fatal(err)
		}
	}
	if st := eng.Stats(); st.BackgroundPending != 3 || st.BackgroundCapacity != 16 {
		t.Fatalf("pending %d of %d, want 3 of 16", st.BackgroundPending, st.BackgroundCapacity)
	}
	close(release)
	if eng.Closed() {
		t.Fatal("closed before Close")
	}
	if err := eng.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := eng.Stats(); st.BackgroundPending != 0 || st.BackgroundDone != 3 || !eng.Closed() {
		t.Fatalf("%+v closed=%v", st, eng.Closed())
	}
}

// A hook that panics is an error whose trace says it was a panic.
func TestTraceMarksPanics(t *testing.T) {
	eng, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	_ = eng.Register(engine.Hook{ID: "panics", Event: "Stop", Handler: engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) {
		panic("bad")
	})})
	_ = eng.Register(engine.Hook{ID: "fails", Event: "Stop", Handler: engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) {
		return nil, errors.New("panic: not really")
	})})
	out, err := eng.Fire(context.Background(), engine.Event{Name: "Stop"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range out.Hooks {
		if tr.Status != engine.StatusError || tr.Panic != (tr.ID == "panics") {
			t.Errorf("%s: status %s panic %v", tr.ID, tr.Status, tr.Panic)
		}
	}
}
