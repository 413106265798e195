package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// InstallWith is Installer.Install for a host whose configuration file is
// a JSON object with a "hooks" object of event names to lists of entries:
// entry writes one registration in the host's shape, and defaults are
// top-level fields set when the file has none (Cursor's version). Entries
// an earlier install made (their command runs hookctl) are replaced, so
// installing twice changes nothing; everything else in the file is kept.
func (t *Table) InstallWith(path string, existing []byte, events []string, command string, entry func(event, command string) any, defaults map[string]any) ([]byte, []string, error) {
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
			list, _ := hooks[name].([]any)
			hooks[name] = append(list, entry(name, command))
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
