package kv_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/state/kv"
)

// Environment of a child process started by the cross-process tests: the
// test binary re-executed with KV_CHILD set runs child instead of the
// tests.
const (
	envChild = "KV_CHILD" // the child's index
	envPath  = "KV_PATH"  // the state file
	envOps   = "KV_OPS"   // how many rounds the child runs
	envMode  = "KV_MODE"  // what the child does: "" (child), "hammer" or "churn"
)

func TestMain(m *testing.M) {
	if os.Getenv(envChild) != "" {
		run := child
		switch os.Getenv(envMode) {
		case "hammer":
			run = hammer
		case "churn":
			run = churn
		}
		if err := run(); err != nil {
			fmt.Fprintln(os.Stderr, "kv child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// child waits until its stdin is closed, so that all children start
// together, then runs its rounds against the shared state file. Each
// round does one of each read-modify-write: Incr on a shared counter
// (printing the value it got), Set of a key of its own, and a
// CompareAndSwap retry loop incrementing a second shared counter.
func child() error {
	id := os.Getenv(envChild)
	ops, err := strconv.Atoi(os.Getenv(envOps))
	if err != nil {
		return err
	}
	s, err := kv.OpenFile(os.Getenv(envPath))
	if err != nil {
		return err
	}
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for i := range ops {
		n, err := s.Incr(ctx, "counter", 1, 0)
		if err != nil {
			return err
		}
		fmt.Println(n)
		if err := s.Set(ctx, fmt.Sprintf("child/%s/%03d", id, i), i, 0); err != nil {
			return err
		}
		for {
			v, ok, err := s.Get(ctx, "cas")
			if err != nil {
				return err
			}
			var old any
			var cur int64
			if ok {
				old, cur = v, v.(int64)
			}
			swapped, err := s.CompareAndSwap(ctx, "cas", old, cur+1, 0)
			if err != nil {
				return err
			}
			if swapped {
				break
			}
		}
	}
	return nil
}

// opDeadline is the deadline of each operation of a hammer child, as a
// hook's would be.
const opDeadline = 20 * time.Second

// hammer waits for its stdin to close, then increments the shared counter
// KV_OPS times, each Incr under a deadline of its own as a hook's call
// would be, and prints the slowest Incr's duration in nanoseconds.
func hammer() error {
	ops, err := strconv.Atoi(os.Getenv(envOps))
	if err != nil {
		return err
	}
	s, err := kv.OpenFile(os.Getenv(envPath))
	if err != nil {
		return err
	}
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		return err
	}
	var slowest time.Duration
	for range ops {
		ctx, cancel := context.WithTimeout(context.Background(), opDeadline)
		start := time.Now()
		_, err := s.Incr(ctx, "counter", 1, 0)
		cancel()
		if err != nil {
			return err
		}
		slowest = max(slowest, time.Since(start))
	}
	fmt.Println(int64(slowest))
	return nil
}

// churn rewrites keys of its own as fast as it can until it is killed,
// printing "ready" once it has started.
func churn() error {
	s, err := kv.OpenFile(os.Getenv(envPath))
	if err != nil {
		return err
	}
	id := os.Getenv(envChild)
	ctx := context.Background()
	for i := 0; ; i++ {
		if err := s.Set(ctx, fmt.Sprintf("churn/%s/%d", id, i%10), map[string]any{"i": i, "pad": strings.Repeat("x", 4096)}, 0); err != nil {
			return err
		}
		if i == 0 {
			fmt.Println("ready")
		}
	}
}
