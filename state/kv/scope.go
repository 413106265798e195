package kv

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookctl/hookctl/internal/dirs"
	"github.com/hookctl/hookctl/internal/keypart"
)

// GlobalScope is the scope of state shared by every session and project.
const GlobalScope = "global"

// SessionScope returns the scope of one agent session: "session/<id>",
// the id escaped ("%" written "%25", "/" written "%2F"), so that session
// "a" key "b/x" and session "a/b" key "x" are different keys, in every
// store. A session id with neither character (a UUID) is kept as it is.
// No session (an empty id: a payload without a session_id, or with "")
// is "session/%none", which no real id produces: session "none" is a
// session of its own.
func SessionScope(sessionID string) string { return "session/" + keypart.ID(sessionID) }

// ProjectScope returns the scope of one project directory:
// "project/<h>", where h is the first 16 hex digits of the SHA-256 of the
// absolute, cleaned directory path. The same directory always maps to the
// same scope, however it is spelled.
func ProjectScope(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	sum := sha256.Sum256([]byte(abs))
	return "project/" + hex.EncodeToString(sum[:])[:16]
}

// Scoped returns a view of s in which every key is prefixed with
// scope + "/". Keys takes its prefix inside the scope and returns keys
// with the scope stripped back off. Scoping a scoped view nests the
// scopes; an empty scope returns s itself.
func Scoped(s Store, scope string) Store {
	if scope == "" {
		return s
	}
	if in, ok := s.(*scoped); ok {
		return &scoped{s: in.s, prefix: in.prefix + scope + "/"}
	}
	return &scoped{s: s, prefix: scope + "/"}
}

type scoped struct {
	s      Store
	prefix string
}

func (v *scoped) key(key string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	return v.prefix + key, nil
}

func (v *scoped) Get(ctx context.Context, key string) (any, bool, error) {
	k, err := v.key(key)
	if err != nil {
		return nil, false, err
	}
	return v.s.Get(ctx, k)
}

func (v *scoped) Set(ctx context.Context, key string, value any, ttl time.Duration) error {
	k, err := v.key(key)
	if err != nil {
		return err
	}
	return v.s.Set(ctx, k, value, ttl)
}

func (v *scoped) Delete(ctx context.Context, key string) error {
	k, err := v.key(key)
	if err != nil {
		return err
	}
	return v.s.Delete(ctx, k)
}

func (v *scoped) Incr(ctx context.Context, key string, delta int64, ttl time.Duration) (int64, error) {
	k, err := v.key(key)
	if err != nil {
		return 0, err
	}
	return v.s.Incr(ctx, k, delta, ttl)
}

func (v *scoped) CompareAndSwap(ctx context.Context, key string, old, new any, ttl time.Duration) (bool, error) {
	k, err := v.key(key)
	if err != nil {
		return false, err
	}
	return v.s.CompareAndSwap(ctx, k, old, new, ttl)
}

func (v *scoped) Keys(ctx context.Context, prefix string) ([]string, error) {
	ks, err := v.s.Keys(ctx, v.prefix+prefix)
	if err != nil {
		return nil, err
	}
	for i, k := range ks {
		ks[i] = strings.TrimPrefix(k, v.prefix)
	}
	return ks, nil
}

// DefaultPath returns where hookctl keeps its state file: kv.json in
// the state directory of internal/dirs.State ($HOOKCTL_STATE_DIR if set,
// else $XDG_STATE_HOME/hookctl if XDG_STATE_HOME is set to an absolute
// path (the XDG spec says to ignore a relative one), else
// ~/.local/state/hookctl on Linux and ~/Library/Application
// Support/hookctl/state on macOS).
func DefaultPath() (string, error) {
	dir, err := dirs.State(os.Getenv)
	if err != nil {
		return "", fmt.Errorf("kv: no home directory for the default state file: %w", err)
	}
	return filepath.Join(dir, "kv.json"), nil
}
