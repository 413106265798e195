package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/runtime"
)

// BenchmarkDaemonCall is what the daemon does for one hook call of the
// 10-hook benchmark configuration, with its engine cached: the call as
// hookctl claude runs it, trust check included.
func BenchmarkDaemonCall(b *testing.B) {
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
	cache := runtime.NewCache()
	defer cache.Close()
	rt := newHookRuntime(runtime.Hosts(), cache, nil)
	cwd, _ := os.Getwd()
	req := &daemon.Request{Hook: daemon.Hook{Command: "claude", Config: cfg}, Stdin: payload, Cwd: cwd, Env: os.Environ()}
	for b.Loop() {
		if resp := runCall(context.Background(), req, rt); resp.Code != 0 {
			b.Fatal(string(resp.Stderr))
		}
	}
}
