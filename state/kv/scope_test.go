package kv_test

import (
	"context"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"testing"
	"time"

	"github.com/hookctl/hookctl/state/kv"
)

func TestScoped(t *testing.T) {
	ctx := context.Background()
	base := kv.NewMemory()
	s1 := kv.Scoped(base, kv.SessionScope("s1"))
	s2 := kv.Scoped(base, kv.SessionScope("s2"))
	nested := kv.Scoped(s1, "tool")

	s1.Set(ctx, "edits", 1, 0)
	s2.Set(ctx, "edits", 2, 0)
	nested.Incr(ctx, "calls", 5, 0)
	s1.CompareAndSwap(ctx, "flag", nil, true, 0)
	base.Set(ctx, "session/s1x/edits", 9, 0) // must not leak into s1

	tests := []struct {
		name   string
		s      kv.Store
		prefix string
		keys   []string
	}{
		{"base", base, "", []string{"session/s1/edits", "session/s1/flag", "session/s1/tool/calls", "session/s1x/edits", "session/s2/edits"}},
		{"s1", s1, "", []string{"edits", "flag", "tool/calls"}},
		{"s1 prefix", s1, "e", []string{"edits"}},
		{"s2", s2, "", []string{"edits"}},
		{"nested", nested, "", []string{"calls"}},
		{"empty scope is the store", kv.Scoped(base, ""), "session/s2", []string{"session/s2/edits"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.s.Keys(ctx, tt.prefix)
			if err != nil || !reflect.DeepEqual(got, tt.keys) {
				t.Errorf("Keys(%q) = %q, %v; want %q", tt.prefix, got, err, tt.keys)
			}
		})
	}
	if v, _, _ := s2.Get(ctx, "edits"); v != int64(2) {
		t.Errorf("s2 edits = %v", v)
	}
	if v, _, _ := base.Get(ctx, "session/s1/tool/calls"); v != int64(5) {
		t.Errorf("nested key in base = %v", v)
	}
	s1.Delete(ctx, "edits")
	if _, ok, _ := base.Get(ctx, "session/s1/edits"); ok {
		t.Error("scoped Delete missed")
	}
	if _, _, err := s1.Get(ctx, ""); err == nil {
		t.Error("empty key accepted through a scope")
	}
}

func TestScopes(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	tests := []struct {
		name, got, want string
	}{
		{"global", kv.GlobalScope, "global"},
		{"session", kv.SessionScope("abc-123"), "session/abc-123"},
		{"project relative == absolute", kv.ProjectScope("."), kv.ProjectScope(dir)},
		{"project unclean == clean", kv.ProjectScope(dir + "/sub/../"), kv.ProjectScope(dir)},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	p := kv.ProjectScope(dir)
	if !regexp.MustCompile(`^project/[0-9a-f]{16}$`).MatchString(p) {
		t.Errorf("ProjectScope = %q, want project/<16 hex digits>", p)
	}
	if p == kv.ProjectScope(filepath.Join(dir, "other")) {
		t.Error("two directories share a project scope")
	}
}

func TestDefaultPath(t *testing.T) {
	home, srv, xdg := t.TempDir(), t.TempDir(), t.TempDir()
	// The platform's own state directory under home (internal/dirs).
	own := filepath.Join(home, ".local", "state", "hookctl", "kv.json")
	switch runtime.GOOS {
	case "darwin", "ios":
		own = filepath.Join(home, "Library", "Application Support", "hookctl", "state", "kv.json")
	case "windows":
		own = filepath.Join(home, "hookctl", "state", "kv.json")
	}
	tests := []struct {
		name, stateDir, xdg, want string
	}{
		{"HOOKCTL_STATE_DIR wins", srv, xdg, filepath.Join(srv, "kv.json")},
		{"XDG_STATE_HOME", "", xdg, filepath.Join(xdg, "hookctl", "kv.json")},
		{"relative XDG_STATE_HOME ignored", "", "rel", own},
		{"home", "", "", own},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("HOME", home)
			t.Setenv("USERPROFILE", home)
			t.Setenv("home", home)
			t.Setenv("LocalAppData", home)
			t.Setenv("HOOKCTL_STATE_DIR", tt.stateDir)
			t.Setenv("XDG_STATE_HOME", tt.xdg)
			got, err := kv.DefaultPath()
			if err != nil || got != tt.want {
				t.Errorf("DefaultPath() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestSessionScopesDoNotCollide: session "a" key "b/x" and session "a/b"
// key "x" are two keys, in the memory and the file store alike.
func TestSessionScopesDoNotCollide(t *testing.T) {
	for _, im := range []struct {
		name string
		open func(*testing.T, func() time.Time) kv.Store
	}{{"Memory", openMemory}, {"File", openFile}} {
		t.Run(im.name, func(t *testing.T) {
			ctx := context.Background()
			base := im.open(t, time.Now)
			a, ab, aEsc := kv.Scoped(base, kv.SessionScope("a")), kv.Scoped(base, kv.SessionScope("a/b")), kv.Scoped(base, kv.SessionScope("a%2Fb"))
			if err := a.Set(ctx, "b/x", "session a", 0); err != nil {
				t.Fatal(err)
			}
			if v, ok, err := ab.Get(ctx, "x"); ok || err != nil {
				t.Fatalf("session a/b reads session a's b/x as its x: %v %v", v, err)
			}
			if err := ab.Set(ctx, "x", "session a/b", 0); err != nil {
				t.Fatal(err)
			}
			if v, _, _ := a.Get(ctx, "b/x"); v != "session a" {
				t.Errorf("session a's b/x = %v after session a/b set its x", v)
			}
			if v, ok, _ := aEsc.Get(ctx, "x"); ok {
				t.Errorf("session a%%2Fb reads session a/b's x: %v", v)
			}
			if ks, _ := ab.Keys(ctx, ""); !reflect.DeepEqual(ks, []string{"x"}) {
				t.Errorf("session a/b keys %q", ks)
			}
			if ks, _ := a.Keys(ctx, ""); !reflect.DeepEqual(ks, []string{"b/x"}) {
				t.Errorf("session a keys %q", ks)
			}
		})
	}
}
