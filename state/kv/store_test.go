package kv_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/state/kv"
	"github.com/hookctl/hookctl/state/kv/kvtest"
)

func openMemory(t *testing.T, clock func() time.Time) kv.Store {
	return kv.NewMemory(kv.WithClock(clock))
}

func openFile(t *testing.T, clock func() time.Time) kv.Store {
	f, err := kv.OpenFile(filepath.Join(t.TempDir(), "kv.json"), kv.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestStore runs the kv.Store conformance suite against Memory and File.
// File's concurrent goroutines use two File values on the same path, as
// two components of one process would.
func TestStore(t *testing.T) {
	t.Run("Memory", func(t *testing.T) { kvtest.Run(t, openMemory) })
	t.Run("File", func(t *testing.T) {
		kvtest.Run(t, openFile, kvtest.WithReopen(func(t *testing.T, s kv.Store) kv.Store {
			g, err := kv.OpenFile(s.(*kv.File).Path())
			if err != nil {
				t.Fatal(err)
			}
			return g
		}))
	})
}
