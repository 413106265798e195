package kv_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/state/kv"
	"github.com/hookctl/hookctl/state/kv/kvtest"
)

// The adapter satisfies the engine's LoopStore, restated by kvtest.
var _ kvtest.LoopStore = kv.LoopStore(nil)

// TestLoopStore runs the loop store suite over Memory, File and a scoped
// view.
func TestLoopStore(t *testing.T) {
	for _, im := range []struct {
		name string
		open kvtest.Open
	}{
		{"Memory", openMemory},
		{"File", openFile},
		{"Scoped", func(t *testing.T, clock func() time.Time) kv.Store {
			return kv.Scoped(kv.NewMemory(kv.WithClock(clock)), kv.SessionScope("s1"))
		}},
	} {
		t.Run(im.name, func(t *testing.T) {
			kvtest.RunLoopStore(t, func(t *testing.T, clock func() time.Time) (kvtest.LoopStore, kv.Store) {
				s := im.open(t, clock)
				return kv.LoopStore(s), s
			})
		})
	}
}

// TestLoopStoreAcrossOpens is what `hookctl claude` relies on: one
// process records a block, the next process spawned for the following
// Stop event sees it.
func TestLoopStoreAcrossOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kv.json")
	ctx := context.Background()
	for want := range 4 {
		f, err := kv.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ls := kv.LoopStore(f)
		n, err := ls.LoopCount(ctx, "Stop/s")
		if err != nil || n != want {
			t.Fatalf("process %d: LoopCount = %d, %v", want, n, err)
		}
		if err := ls.SetLoopCount(ctx, "Stop/s", n+1); err != nil {
			t.Fatal(err)
		}
	}
}
