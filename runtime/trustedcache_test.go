package runtime_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/trust"
)

// allowRm is denyRm's size with another decision.
var allowRm = strings.Replace(strings.Replace(denyRm, `"deny"`, `"allow"`, 1), "is not allowed", "is allowed!!!", 1)

// writeBack writes src to p and sets its times back, as an edit within a
// clock tick leaves them.
func writeBack(t *testing.T, p, src string) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// TestCacheTrustedEditSameSize: the daemon's path with a trusted
// one-file configuration, whose stamp the cache takes from the trust
// check's own fstat of the file. A cached engine that allowed rm -rf is
// not kept once the file, rewritten with a deny of the same size and its
// times set back, is trusted again: the next call denies; and back. The
// trust check refuses the edit before it is trusted.
func TestCacheTrustedEditSameSize(t *testing.T) {
	if len(allowRm) != len(denyRm) {
		t.Fatalf("the two configurations differ in size: %d, %d", len(allowRm), len(denyRm))
	}
	cfg, tf, rt, req := trustedThroughCache(t, allowRm)
	answer := func() runtime.Reply { return rt.Answer(context.Background(), req) }
	for range 2 {
		if r := answer(); blocked(r) {
			t.Fatalf("trusted allow: %s %s", r.Stdout, r.Stderr)
		}
	}
	writeBack(t, cfg, denyRm)
	if r := answer(); !blocked(r) || !strings.Contains(string(r.Stdout), "did not run") {
		t.Fatalf("an edit not yet trusted must be refused: %s %s", r.Stdout, r.Stderr)
	}
	if _, err := trust.Trust(tf, cfg); err != nil {
		t.Fatal(err)
	}
	if r := answer(); !blocked(r) || !strings.Contains(string(r.Stdout), "rm -rf is not allowed") {
		t.Fatalf("the trusted deny did not run: %s %s", r.Stdout, r.Stderr)
	}
	writeBack(t, cfg, allowRm)
	if _, err := trust.Trust(tf, cfg); err != nil {
		t.Fatal(err)
	}
	if r := answer(); blocked(r) {
		t.Fatalf("the trusted allow again: %s %s", r.Stdout, r.Stderr)
	}
}

// TestCacheConcurrentChanges: calls through the cache while the trusted
// configuration changes under them answer with one of its versions (each
// trusted in turn) and never fail to fire (an engine closed while a call
// held it). The cache's clock calls every file settled, so that engines
// are kept and let go under the calls; it also lets an engine loaded
// just before a change keep the changed file's stamp (what the settle
// rule is for), so the last version checked is written once the calls
// have stopped, and is the one answered.
func TestCacheConcurrentChanges(t *testing.T) {
	cfg, tf, rt, req := trustedThroughCache(t, denyRm)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				r := rt.Answer(context.Background(), req)
				out := string(r.Stdout) + string(r.Stderr)
				if !strings.Contains(out, "rm -rf is") && !strings.Contains(out, "did not run") {
					t.Errorf("an answer from no version: %s", out)
					return
				}
			}
		})
	}
	srcs := []string{allowRm, denyRm}
	for i := range 40 {
		writeBack(t, cfg, srcs[i%2])
		if _, err := trust.Trust(tf, cfg); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	writeBack(t, cfg, denyRm+"# the last version\n")
	if _, err := trust.Trust(tf, cfg); err != nil {
		t.Fatal(err)
	}
	if r := rt.Answer(context.Background(), req); !blocked(r) || !strings.Contains(string(r.Stdout), "rm -rf is not allowed") {
		t.Fatalf("after the last change (deny): %s %s", r.Stdout, r.Stderr)
	}
}

// trustedThroughCache is a one-file configuration of src, trusted, and a
// runtime answering through an engine cache whose clock calls every file
// settled, with a request of rm for it.
func trustedThroughCache(t *testing.T, src string) (cfg, tf string, rt *runtime.Runtime, req runtime.Request) {
	t.Helper()
	cfg = config(t, src)
	tf = filepath.Join(filepath.Dir(cfg), "trust.json")
	if _, err := trust.Trust(tf, cfg); err != nil {
		t.Fatal(err)
	}
	cache := runtime.NewCache(settledClock())
	t.Cleanup(cache.Close)
	rt = runtime.New(runtime.WithSource(cache))
	return cfg, tf, rt, runtime.Request{Protocol: claudeProtocol(t), Payload: []byte(rm), Config: cfg}
}
