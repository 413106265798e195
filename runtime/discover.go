package runtime

import (
	"errors"
	"os"
	"path/filepath"
)

// ErrNoConfig is the error of Discover when no configuration is found.
var ErrNoConfig = errors.New("no configuration found: give --config, $HOOKCTL_CONFIG, ./hooks.hcl, ./.hookctl/, $CLAUDE_PROJECT_DIR/.claude/hooks.hcl or ./.claude/hooks.hcl")

// Discover finds the configuration, the same way for every command:
// config (--config), then $HOOKCTL_CONFIG, then ./hooks.hcl, then
// ./.hookctl/, then $CLAUDE_PROJECT_DIR/.claude/hooks.hcl, then
// ./.claude/hooks.hcl. The environment is getenv's; relative candidates
// are looked for in cwd ("" for the process's), and returned as written.
func Discover(config, cwd string, getenv func(string) string) (string, error) {
	if config != "" {
		return config, nil
	}
	if p := getenv("HOOKCTL_CONFIG"); p != "" {
		return p, nil
	}
	candidates := []string{"hooks.hcl", ".hookctl"}
	if dir := getenv("CLAUDE_PROJECT_DIR"); dir != "" {
		candidates = append(candidates, filepath.Join(dir, ".claude", "hooks.hcl"))
	}
	candidates = append(candidates, filepath.Join(".claude", "hooks.hcl"))
	for _, c := range candidates {
		at := c
		if cwd != "" && !filepath.IsAbs(c) {
			at = filepath.Join(cwd, c)
		}
		if _, err := os.Stat(at); err == nil {
			return c, nil
		}
	}
	return "", ErrNoConfig
}

// ProjectDir is the project the agent works in: $CLAUDE_PROJECT_DIR, else
// cwd.
func ProjectDir(cwd string, getenv func(string) string) string {
	if d := getenv("CLAUDE_PROJECT_DIR"); d != "" {
		return d
	}
	return cwd
}

// Getenv returns the lookup of an environment given as "KEY=value"
// entries (as os.Environ gives it; the first entry of a key wins, as for
// the process's own).
func Getenv(env []string) func(string) string {
	return func(key string) string {
		for _, kv := range env {
			if len(kv) > len(key) && kv[len(key)] == '=' && kv[:len(key)] == key {
				return kv[len(key)+1:]
			}
		}
		return ""
	}
}
