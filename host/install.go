package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// installs says where each host keeps its project hook configuration.
var installs = map[string]string{
	"claude":  ".claude/settings.json",
	"codex":   ".codex/hooks.json",
	"gemini":  ".gemini/settings.json",
	"cursor":  ".cursor/hooks.json",
	"copilot": ".github/hooks/hookctl.json",
	"crush":   "crush.json",
}

// ConfigPath is the host's project hook configuration file, relative to
// the project directory.
func (h *Host) ConfigPath() string { return installs[h.Name] }

// HostEvents returns the host's events that fire the catalog event, for
// install: the mapped names (not the narrower views), or the catalog name
// itself for a host that keeps Claude Code's names.
func (h *Host) HostEvents(event string) []string {
	var out []string
	for name, m := range h.Events {
		if m.Event == event && !m.Narrow && name != "" {
			out = append(out, name)
		}
	}
	if len(h.Events) == 0 {
		out = append(out, event)
	}
	slices.Sort(out)
	return out
}

// Install returns the host's configuration file existing (nil when there
// is none) with command registered as the hook of the events, and notes
// on the events the host does not have. Entries an earlier install made
// (their command runs hookctl) are replaced, so installing twice changes
// nothing; everything else in the file is kept.
func (h *Host) Install(existing []byte, events []string, command string) ([]byte, []string, error) {
	doc := map[string]any{}
	if len(bytes.TrimSpace(existing)) > 0 {
		if err := json.Unmarshal(existing, &doc); err != nil {
			return nil, nil, fmt.Errorf("%s is not a JSON object: %w", h.ConfigPath(), err)
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
		names := h.HostEvents(ev)
		if len(names) == 0 {
			notes = append(notes, fmt.Sprintf("%s has no event for %s: its hooks never run there", h.Title, ev))
			continue
		}
		for _, name := range names {
			list, _ := hooks[name].([]any)
			hooks[name] = append(list, h.entry(name, command))
		}
	}
	doc["hooks"] = hooks
	switch h.Name {
	case "cursor", "copilot":
		if _, ok := doc["version"]; !ok {
			doc["version"] = 1
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

// entry is one hook registration in the host's shape.
func (h *Host) entry(event, command string) any {
	switch h.Name {
	case "cursor":
		return map[string]any{"command": command}
	case "copilot":
		return map[string]any{"type": "command", "bash": command + " --event " + event, "timeoutSec": 30}
	case "crush":
		return map[string]any{"name": "hookctl", "command": command, "timeout": 30}
	case "gemini":
		return map[string]any{"matcher": "", "hooks": []any{map[string]any{"type": "command", "name": "hookctl", "command": command, "timeout": 60000}}}
	}
	return map[string]any{"matcher": "", "hooks": []any{map[string]any{"type": "command", "command": command}}}
}

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

func isHookctl(cmd string) bool {
	f := strings.Fields(cmd)
	if len(f) < 2 {
		return false
	}
	base := f[0][strings.LastIndex(f[0], "/")+1:]
	return (base == "hookctl" || base == "hookctl-client") && (f[1] == "hook" || f[1] == "claude")
}
