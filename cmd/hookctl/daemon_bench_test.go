package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/internal/daemon/daemonserver"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/trust"
)

// BenchmarkDaemonCall is what the daemon does for one hook call of the
// 10-hook benchmark configuration, with its engine cached: the call as
// hookctl claude runs it, trust check included, with 6 and with 1,000
// configurations in the trust file (a call must not cost more with
// unrelated trusted configurations).
func BenchmarkDaemonCall(b *testing.B) {
	cfg, _ := filepath.Abs("../../tests/bench/testdata/peers/hooks.hcl")
	payload, err := os.ReadFile("../../tests/bench/testdata/peers/payload.json")
	if err != nil {
		b.Fatal(err)
	}
	cwd, _ := os.Getwd()
	type setup struct {
		name string
		rt   *runtime.Runtime
		req  *daemon.Request
	}
	var setups []setup
	for _, n := range []int{6, 1000} {
		dir := b.TempDir()
		tf := filepath.Join(dir, "trust.json")
		env := append(os.Environ(), "HOOKCTL_TRUST_FILE="+tf, "HOOKCTL_STATE_DIR="+dir)
		b.Setenv("HOOKCTL_TRUST_FILE", tf)
		var out, errb bytes.Buffer
		if code := run([]string{"trust", "--config", cfg}, nil, &out, &errb); code != 0 {
			b.Fatal(errb.String())
		}
		addTrustRecords(b, tf, n-1)
		cache := settledCache()
		b.Cleanup(func() { cache.Close() })
		rt := newHookRuntime(runtime.Hosts(), cache, nil)
		setups = append(setups, setup{fmt.Sprintf("trusted=%d", n), rt,
			&daemon.Request{Hook: daemon.Hook{Command: "claude", Config: cfg}, Stdin: payload, Cwd: cwd, Env: env}})
	}
	// A trust file written within the file system clock's tick is read
	// on every call until it settles (trust.Index).
	time.Sleep(3500 * time.Millisecond)
	for _, s := range setups {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for _, kv := range s.req.Env {
				if k, v, _ := strings.Cut(kv, "="); k == "HOOKCTL_TRUST_FILE" {
					b.Setenv(k, v)
				}
			}
			for b.Loop() {
				if resp := runCall(context.Background(), s.req, s.rt); resp.Code != 0 {
					b.Fatal(string(resp.Stderr))
				}
			}
		})
	}
}

// addTrustRecords adds n records of other configurations to the trust
// file tf.
func addTrustRecords(b *testing.B, tf string, n int) {
	st, err := trust.ReadStore(tf)
	if err != nil {
		b.Fatal(err)
	}
	var rec *trust.Record
	for _, r := range st.Configs {
		rec = r
	}
	for i := range n {
		st.Configs[fmt.Sprintf("/home/user/project-%d/.claude/hooks.hcl", i)] = rec
	}
	if err := trust.WriteStore(tf, st); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkDaemonCallBig is a daemon call of the 10-hook configuration
// with a 10 MB Write payload, its engine cached: what the daemon adds to
// the payload's one decoding.
func BenchmarkDaemonCallBig(b *testing.B) {
	rt, req := bigCall(b)
	b.ReportAllocs()
	for b.Loop() {
		if resp := runCall(context.Background(), req, rt); resp.Code != 0 {
			b.Fatal(string(resp.Stderr))
		}
	}
}

// bigCall is a daemon request with a 10 MB Write payload for the trusted
// 10-hook configuration, and the daemon's runtime.
func bigCall(tb testing.TB) (*runtime.Runtime, *daemon.Request) {
	cfg, _ := filepath.Abs("../../tests/bench/testdata/peers/hooks.hcl")
	dir := tb.TempDir()
	tf := filepath.Join(dir, "trust.json")
	tb.Setenv("HOOKCTL_TRUST_FILE", tf)
	tb.Setenv("HOOKCTL_STATE_DIR", dir)
	var out, errb bytes.Buffer
	if code := run([]string{"trust", "--config", cfg}, nil, &out, &errb); code != 0 {
		tb.Fatal(errb.String())
	}
	line := "the quick brown fox jumps over the lazy dog; const x = 42; // padding\n"
	content := strings.Repeat(line, 10<<20/len(line))
	payload, err := json.Marshal(map[string]any{"session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/w",
		"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": map[string]any{"file_path": "/w/big.txt", "content": content}})
	if err != nil {
		tb.Fatal(err)
	}
	cache := settledCache()
	tb.Cleanup(func() { cache.Close() })
	rt := newHookRuntime(runtime.Hosts(), cache, nil)
	cwd, _ := os.Getwd()
	return rt, &daemon.Request{Hook: daemon.Hook{Command: "claude", Config: cfg}, Stdin: payload, Cwd: cwd, Env: os.Environ()}
}

// BenchmarkDaemonParallel is the daemon's side of calls from 8 clients at
// once over its socket (the daemon and its clients in this process): for
// profiling the daemon's throughput.
func BenchmarkDaemonParallel(b *testing.B) {
	cfg, _ := filepath.Abs("../../tests/bench/testdata/peers/hooks.hcl")
	payload, err := os.ReadFile("../../tests/bench/testdata/peers/payload.json")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	b.Setenv("HOOKCTL_TRUST_FILE", filepath.Join(dir, "trust.json"))
	b.Setenv("HOOKCTL_STATE_DIR", dir)
	var out, errb bytes.Buffer
	if code := run([]string{"trust", "--config", cfg}, nil, &out, &errb); code != 0 {
		b.Fatal(errb.String())
	}
	time.Sleep(3500 * time.Millisecond) // the trust file settles (trust.Index)
	sock := filepath.Join(dir, "d.sock")
	ctx, cancel := context.WithCancel(context.Background())
	ln, err := daemonserver.Listen(ctx, sock)
	if err != nil {
		b.Fatal(err)
	}
	cache := settledCache()
	defer cache.Close()
	rt := newHookRuntime(runtime.Hosts(), cache, nil)
	h := daemonserver.HandlerFunc(func(ctx context.Context, req *daemon.Request) daemon.Response { return runCall(ctx, req, rt) })
	done := make(chan error, 1)
	go func() { done <- daemonserver.Serve(ctx, ln, h, daemonserver.WithIdentity("bench")) }()
	defer func() { cancel(); <-done }()
	cwd, _ := os.Getwd()
	req := &daemon.Request{Protocol: daemon.Protocol, Identity: "bench", Hook: daemon.Hook{Command: "claude", Config: cfg},
		Stdin: payload, Cwd: cwd, Env: os.Environ(), Attrs: daemon.ProcessAttrs()}
	b.SetParallelism(4)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := daemon.Call(sock, req)
			if err != nil || resp.Refused != "" || resp.Code != 0 {
				b.Errorf("%v %q %d %s", err, resp.Refused, resp.Code, resp.Stderr)
				return
			}
		}
	})
}
