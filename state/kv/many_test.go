package kv_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/filelock"
	"github.com/hookctl/hookctl/state/kv"
)

// TestManyProcessesOneFile: 200 hookctl processes on one state file timed
// out at their 60 s deadline waiting for the lock, every operation
// rewriting the whole file. Here procs real processes (copies of the test
// binary) released together increment one counter on a store that already
// holds thousands of keys, each Incr under its own deadline; every
// increment must be counted and none may come near the deadline.
func TestManyProcessesOneFile(t *testing.T) {
	procs, ops, keys := 200, 3, 2000
	if testing.Short() {
		procs, ops, keys = 20, 5, 300
	}
	path := filepath.Join(t.TempDir(), "kv.json")
	s, err := kv.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range keys {
		if err := s.Set(ctx, fmt.Sprintf("session/s%d/state", i), map[string]any{"n": i, "note": "some state"}, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	outs := startChildren(t, procs, ops, path, "hammer")
	var slowest time.Duration
	for i, out := range outs {
		ns, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
		if err != nil {
			t.Fatalf("child %d printed %q", i, out)
		}
		slowest = max(slowest, time.Duration(ns))
	}
	t.Logf("%d processes x %d Incr on a store of %d keys: %v in all, slowest Incr %v", procs, ops, keys, time.Since(start).Round(time.Millisecond), slowest.Round(time.Millisecond))
	if v, _, err := s.Get(ctx, "counter"); err != nil || v != int64(procs*ops) {
		t.Fatalf("counter = %v (%v), want %d", v, err, procs*ops)
	}
	if slowest >= opDeadline {
		t.Errorf("slowest Incr took %v, past the deadline of %v", slowest, opDeadline)
	}
}

// TestOpenFileDoesNotWaitForTheLock: OpenFile took the store's lock with
// no deadline at all, so a process holding it (stopped, or stuck) held
// every hookctl process that opened the store, forever.
func TestOpenFileDoesNotWaitForTheLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kv.json")
	if _, err := kv.OpenFile(path); err != nil {
		t.Fatal(err)
	}
	unlock, err := filelock.Lock(context.Background(), path+".lock", true)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	done := make(chan error, 1)
	go func() {
		s, err := kv.OpenFile(path)
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err = s.Incr(ctx, "n", 1, 0)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("OpenFile waits for a lock held elsewhere")
	}
}

// TestCrashMidWriteKeepsOtherKeys kills processes that are rewriting keys
// as fast as they can, at random points of their writes; afterwards every
// other key is intact, and the store reads and writes normally.
func TestCrashMidWriteKeepsOtherKeys(t *testing.T) {
	if _, ok := os.LookupEnv("KV_NO_KILL"); ok {
		t.Skip()
	}
	path := filepath.Join(t.TempDir(), "kv.json")
	s, err := kv.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 200 {
		if err := s.Set(ctx, fmt.Sprintf("keep/%d", i), i, 0); err != nil {
			t.Fatal(err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for round := range 5 {
		var cmds []*exec.Cmd
		for i := range 4 {
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), envChild+"="+strconv.Itoa(i), envPath+"="+path, envMode+"=churn")
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
				t.Fatalf("child: %q %v", line, err)
			}
			cmds = append(cmds, cmd)
		}
		time.Sleep(time.Duration(20+10*round) * time.Millisecond)
		for _, cmd := range cmds {
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
		}
	}
	for i := range 200 {
		if v, ok, err := s.Get(ctx, fmt.Sprintf("keep/%d", i)); err != nil || !ok || v != int64(i) {
			t.Fatalf("keep/%d = %v, %v, %v after the crashes", i, v, ok, err)
		}
	}
	keys, err := s.Keys(ctx, "churn/")
	if err != nil {
		t.Fatalf("Keys after the crashes: %v", err)
	}
	for _, k := range keys {
		if v, ok, err := s.Get(ctx, k); err != nil || !ok || v.(map[string]any)["pad"] == nil {
			t.Fatalf("%s = %v, %v, %v", k, v, ok, err)
		}
	}
	if n, err := s.Incr(ctx, "after", 1, 0); err != nil || n != 1 {
		t.Fatalf("Incr after the crashes: %d, %v", n, err)
	}
}

// startChildren starts procs children in mode, releases them together by
// closing their stdin, and returns their standard outputs.
func startChildren(t *testing.T, procs, ops int, path, mode string) [][]byte {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	type child struct {
		cmd         *exec.Cmd
		stdout, err bytes.Buffer
	}
	cs := make([]*child, procs)
	var release []func() error
	for i := range cs {
		c := &child{cmd: exec.Command(exe)}
		c.cmd.Env = append(os.Environ(), envChild+"="+strconv.Itoa(i), envPath+"="+path, envOps+"="+strconv.Itoa(ops), envMode+"="+mode)
		c.cmd.Stdout, c.cmd.Stderr = &c.stdout, &c.err
		in, err := c.cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cs[i] = c
		release = append(release, in.Close)
	}
	for _, r := range release {
		r()
	}
	outs := make([][]byte, procs)
	for i, c := range cs {
		if err := c.cmd.Wait(); err != nil {
			t.Errorf("child %d: %v\n%s", i, err, c.err.Bytes())
		}
		outs[i] = c.stdout.Bytes()
	}
	if t.Failed() {
		t.FailNow()
	}
	return outs
}
