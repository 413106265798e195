package assemble_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/assemble"
)

// TestWatchReloadsUnsettledFiles: a load that read a file written within
// a tick of the file system's clock is followed by one more load once the
// tick has passed, with nothing changed: a change within that tick may
// have left the file's stamp as it was, and would never be loaded. A load
// of settled files is not repeated.
func TestWatchReloadsUnsettledFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.hcl")
	newFileWriter(t).write(path, "hook \"h\" {\n  event    = \"PreToolUse\"\n  decision = \"deny\"\n  reason   = \"v1\"\n}\n")
	reloads := make(chan error, 8)
	w, err := assemble.Watch(newEngine(t), path, assemble.WithInterval(10*time.Millisecond),
		assemble.WithSettleTick(300*time.Millisecond),
		assemble.OnReload(func(_ *assemble.Config, err error) { reloads <- err }))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	<-reloads // the first load, in Watch
	select {
	case err := <-reloads:
		if err != nil {
			t.Fatalf("the load after the tick: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no load after the tick of a load that read a file written within it")
	}
	// Now settled: no more loads while nothing changes.
	select {
	case err := <-reloads:
		t.Fatalf("a settled configuration was loaded again (%v)", err)
	case <-time.After(time.Second):
	}
}
