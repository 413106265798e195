package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// InstallWith is Installer.Install for a host whose configuration file is
// a JSON object with a "hooks" object of event names to lists of entries:
// entry writes one registration in the host's shape, and defaults are
// top-level fields set when the file has none (Cursor's version). Entries
// an earlier install made (their command runs hookctl) are replaced, so
// installing twice changes nothing; everything else in the file is kept.
// Each entry gets its timeout (timeout, else the host's default for the
// event) rounded up to the host's unit: entry writes it in the host's
// field (EntryTimeout), and the command gets it as --host-timeout, so the
// deadline hookctl answers by derives from what the host was told.
func (t *Table) InstallWith(path string, existing []byte, events []string, command string, timeout time.Duration, entry func(event, command string, timeout time.Duration) any, defaults map[string]any) ([]byte, []string, error) {
	doc := map[string]any{}
	if len(bytes.TrimSpace(existing)) > 0 {
		if err := json.Unmarshal(existing, &doc); err != nil {
			return nil, nil, fmt.Errorf("%s is not a JSON object: %w", path, err)
		}
	}
	hooks, _ := doc["hooks"].(map[string]any)
	if hooks == nil {
		hooks = map[string]any{}
	}
	// Remove what an earlier install wrote.
	for name, v := range hooks {
		list, _ := v.([]any)
		var kept []any
		for _, e := range list {
			if !ours(e) {
				kept = append(kept, e)
			}
		}
		if len(kept) == 0 {
			delete(hooks, name)
		} else {
			hooks[name] = kept
		}
	}
	var notes []string
	for _, ev := range events {
		names := t.HostEvents(ev)
		if len(names) == 0 {
			notes = append(notes, fmt.Sprintf("%s has no event for %s: its hooks never run there", t.HostTitle, ev))
			continue
		}
		for _, name := range names {
			d := timeout
			if d <= 0 {
				d = t.HookTimeout(name)
			}
			d = t.RoundTimeout(d)
			list, _ := hooks[name].([]any)
			hooks[name] = append(list, entry(name, command+" --host-timeout "+FormatTimeout(d), d))
		}
	}
	doc["hooks"] = hooks
	for k, v := range defaults {
		if _, ok := doc[k]; !ok {
			doc[k] = v
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), notes, nil
}

// HookCommand is the command of a host that runs hookctl hook --host.
func (t *Table) HookCommand(prog string) string { return prog + " hook --host " + t.HostName }

// ours reports whether a registration runs hookctl (an earlier install's).
func ours(e any) bool {
	m, _ := e.(map[string]any)
	for _, k := range []string{"command", "bash"} {
		if s, _ := m[k].(string); isHookctl(s) {
			return true
		}
	}
	inner, _ := m["hooks"].([]any)
	if len(inner) == 0 {
		return false
	}
	for _, h := range inner {
		hm, _ := h.(map[string]any)
		if s, _ := hm["command"].(string); !isHookctl(s) {
			return false
		}
	}
	return true
}

// installedPrograms and installedCommands are what an install registers:
// hookctl's programs and their subcommands that answer a host.
var (
	installedPrograms = map[string]bool{"hookctl": true, "hookctl-client": true}
	installedCommands = map[string]bool{"hook": true, "claude": true}
)

func isHookctl(cmd string) bool {
	f := strings.Fields(cmd)
	if len(f) < 2 {
		return false
	}
	base := f[0][strings.LastIndex(f[0], "/")+1:]
	return installedPrograms[base] && installedCommands[f[1]]
}

// RoundTimeout rounds d up to a whole number of the host's timeout unit
// (at least one).
func (t *Table) RoundTimeout(d time.Duration) time.Duration {
	u := t.Unit()
	n := max(int64(math.Ceil(float64(d)/float64(u))), 1)
	return time.Duration(n) * u
}

// EntryTimeout is d in the host's timeout unit, for its configuration
// file.
func (t *Table) EntryTimeout(d time.Duration) int64 { return int64(t.RoundTimeout(d) / t.Unit()) }

// FormatTimeout writes d as --host-timeout takes it: whole seconds as
// "60s", else milliseconds ("1500ms").
func FormatTimeout(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return fmt.Sprintf("%dms", d.Milliseconds())
}

// ConfigFiles lists the host's hook configuration files that exist: the
// project's (ProjectFiles, else ConfigPath, under project) and the user's
// (UserFiles under home); the names are glob patterns.
func (t *Table) ConfigFiles(project, home string) []string {
	var out []string
	add := func(dir string, patterns []string) {
		if dir == "" {
			return
		}
		for _, p := range patterns {
			matches, _ := filepath.Glob(filepath.Join(dir, p))
			for _, m := range matches {
				if fi, err := os.Stat(m); err == nil && fi.Mode().IsRegular() {
					out = append(out, m)
				}
			}
		}
	}
	add(project, t.ProjectFiles)
	add(home, t.UserFiles)
	return out
}

// Entries reads the command hooks of a configuration file shaped as every
// host but Codex's config.toml has it: a "hooks" object of event names to
// lists of entries, each a group ({matcher, hooks: [...]}) or a handler
// ({command} or {bash}, with timeout or timeoutSec in the host's unit).
func (t *Table) Entries(data []byte) ([]Entry, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var doc struct {
		Hooks map[string][]map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a hook configuration: %w", err)
	}
	var out []Entry
	handler := func(event string, h map[string]any) {
		cmd, _ := h["command"].(string)
		if cmd == "" {
			cmd, _ = h["bash"].(string)
		}
		if cmd == "" {
			return
		}
		e := Entry{Event: event, Command: cmd}
		for _, k := range []string{"timeout", "timeoutSec"} {
			if n, ok := h[k].(float64); ok && n > 0 {
				u := t.Unit()
				if k == "timeoutSec" {
					u = time.Second
				}
				e.Timeout = time.Duration(n * float64(u))
			}
		}
		out = append(out, e)
	}
	events := make([]string, 0, len(doc.Hooks))
	for event := range doc.Hooks {
		events = append(events, event)
	}
	slices.Sort(events)
	for _, event := range events {
		for _, e := range doc.Hooks[event] {
			inner, ok := e["hooks"].([]any)
			if !ok {
				handler(event, e)
				continue
			}
			for _, h := range inner {
				if hm, ok := h.(map[string]any); ok {
					handler(event, hm)
				}
			}
		}
	}
	return out, nil
}
