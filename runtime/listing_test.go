//go:build unix

package runtime_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/dirlist"
	"github.com/hookctl/hookctl/internal/filestamp"
	"github.com/hookctl/hookctl/runtime"
)

// TestCacheSeesAUserFileAddedWithinATick: the daemon's path (a Cache)
// lists the user's configuration directory once per settled version of
// it. On a file system whose clock is coarse (played here: the user
// directory's times are the test's, its size a block's), a file that
// denies rm -rf added to the user's directory right after a call, within
// the same second, leaves the directory's stamp as it was: the next call
// still loads it and denies. Once the directory has settled, its listing
// is kept, and a file added later (a new stamp) is seen on the next call.
func TestCacheSeesAUserFileAddedWithinATick(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "xdg", "hookctl")
	if err := os.MkdirAll(user, 0o700); err != nil {
		t.Fatal(err)
	}
	// The user's directory holds the trust file, no configuration.
	if err := os.WriteFile(filepath.Join(user, "trusted.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	project := config(t, `
hook "no-sudo" {
  event    = "PreToolUse"
  when     = "tool_input.command contains 'sudo'"
  decision = "deny"
  reason   = "no sudo"
}
`)
	t0 := time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC)
	fsTime, now := t0, t0.Add(500*time.Millisecond)
	stamps := 0
	stamp := func(d string) filestamp.Stamp {
		st := filestamp.Of(d)
		if d != user || !st.Exists {
			return st
		}
		stamps++
		st.ModTime, st.Size = fsTime, 4096
		st.ID.CtimeSec, st.ID.Ctime = fsTime.Unix(), int64(fsTime.Nanosecond())
		return st
	}
	cache := runtime.NewCache(runtime.WithListing(dirlist.New(dirlist.WithStamp(stamp), dirlist.WithClock(func() time.Time { return now }))))
	defer cache.Close()
	rt := runtime.New(runtime.WithSource(cache))
	req := runtime.Request{Protocol: claudeProtocol(t), Payload: []byte(rm), Config: project, Cwd: dir,
		Env:   []string{"XDG_CONFIG_HOME=" + filepath.Join(dir, "xdg"), "HOOKCTL_MANAGED_DIR=" + filepath.Join(dir, "managed")},
		Modes: runtime.Modes{AllowUntrusted: true}}
	call := func(want bool, when string) {
		t.Helper()
		if r := rt.Answer(context.Background(), req); blocked(r) != want {
			t.Fatalf("%s: blocked %v, want %v: %s%s", when, blocked(r), want, r.Stdout, r.Stderr)
		}
	}
	deny := filepath.Join(user, "deny.hcl")

	call(false, "no user configuration")
	if err := os.WriteFile(deny, []byte(denyRm), 0o600); err != nil {
		t.Fatal(err)
	}
	call(true, "a user file added within the tick of the last call")

	// The file goes, a second later; the directory then settles.
	if err := os.Remove(deny); err != nil {
		t.Fatal(err)
	}
	fsTime, now = t0.Add(time.Second), t0.Add(10*time.Second)
	call(false, "the user file removed")
	stamps = 0
	call(false, "a settled directory")
	if stamps != 1 {
		t.Fatalf("a settled directory was stamped %d times in a call, want once (its listing kept)", stamps)
	}
	if err := os.WriteFile(deny, []byte(denyRm), 0o600); err != nil {
		t.Fatal(err)
	}
	fsTime, now = now, now.Add(200*time.Millisecond)
	call(true, "a user file added to a settled directory")
}

// TestUnlistableDropInIsRefused: a managed drop-in directory that cannot
// be listed is refused (the events are blocked), never taken as a drop-in
// with no files: the policy in it would not run. (Root lists any
// directory, so the listing is made to fail.)
func TestUnlistableDropInIsRefused(t *testing.T) {
	dir := t.TempDir()
	managed := filepath.Join(dir, "managed")
	dropIn := filepath.Join(managed, "policy.d")
	if err := os.MkdirAll(dropIn, 0o755); err != nil {
		t.Fatal(err)
	}
	project := config(t, "# nothing\n")
	failing := false
	read := failingListing(&failing, dropIn)
	// A clock an hour behind: no listing ever settles, each call lists.
	cache := runtime.NewCache(runtime.WithListing(dirlist.New(dirlist.WithReadDir(read),
		dirlist.WithClock(func() time.Time { return time.Now().Add(-time.Hour) }))))
	defer cache.Close()
	rt := runtime.New(runtime.WithSource(cache))
	req := runtime.Request{Protocol: claudeProtocol(t), Payload: []byte(rm), Config: project, Cwd: dir,
		Env:   []string{"XDG_CONFIG_HOME=" + filepath.Join(dir, "xdg"), "HOOKCTL_MANAGED_DIR=" + managed},
		Modes: runtime.Modes{AllowUntrusted: true}}
	if r := rt.Answer(context.Background(), req); blocked(r) {
		t.Fatalf("an empty drop-in blocked: %s%s", r.Stdout, r.Stderr)
	}
	failing = true
	if r := rt.Answer(context.Background(), req); !blocked(r) {
		t.Fatalf("a drop-in that cannot be listed was taken as empty: %s%s", r.Stdout, r.Stderr)
	}
}

// TestUnlistableUserDirIsRefused: the same for the user's configuration
// directory: one that exists and cannot be listed is refused; one that
// does not exist has no layer.
func TestUnlistableUserDirIsRefused(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "xdg", "hookctl")
	project := config(t, "# nothing\n")
	failing := false
	read := failingListing(&failing, user)
	cache := runtime.NewCache(runtime.WithListing(dirlist.New(dirlist.WithReadDir(read),
		dirlist.WithClock(func() time.Time { return time.Now().Add(-time.Hour) }))))
	defer cache.Close()
	rt := runtime.New(runtime.WithSource(cache))
	req := runtime.Request{Protocol: claudeProtocol(t), Payload: []byte(rm), Config: project, Cwd: dir,
		Env:   []string{"XDG_CONFIG_HOME=" + filepath.Join(dir, "xdg"), "HOOKCTL_MANAGED_DIR=" + filepath.Join(dir, "managed")},
		Modes: runtime.Modes{AllowUntrusted: true}}
	if r := rt.Answer(context.Background(), req); blocked(r) {
		t.Fatalf("no user directory blocked: %s%s", r.Stdout, r.Stderr)
	}
	if err := os.MkdirAll(user, 0o700); err != nil {
		t.Fatal(err)
	}
	failing = true
	if r := rt.Answer(context.Background(), req); !blocked(r) {
		t.Fatalf("a user directory that cannot be listed was taken as empty: %s%s", r.Stdout, r.Stderr)
	}
}

// failingListing lists directories as os.ReadDir does, but fails for dir
// with a permission error while *failing is set.
func failingListing(failing *bool, dir string) func(string) ([]string, error) {
	return func(d string) ([]string, error) {
		if *failing && d == dir {
			return nil, os.ErrPermission
		}
		entries, err := os.ReadDir(d)
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = e.Name()
		}
		return names, err
	}
}
