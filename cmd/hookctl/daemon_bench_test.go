package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
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
	cache := &engineCache{}
	defer cache.closeAll()
	args := []string{"claude", "--config", cfg}
	for b.Loop() {
		out.Reset()
		errb.Reset()
		if code := runWith(context.Background(), args, bytes.NewReader(payload), &out, &errb, cache); code != 0 {
			b.Fatal(errb.String())
		}
	}
}
