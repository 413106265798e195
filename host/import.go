package host

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/engine"
)

// ToClaudeSettings turns the command hooks of the host's own configuration
// file (crush.json, .gemini/settings.json, .cursor/hooks.json,
// .github/hooks/*.json, .codex/hooks.json) into the hooks of a Claude Code
// settings file, with the catalog's event names and each handler marked
// with the host's protocol, so that claude.Import writes hooks.hcl that
// runs the host's scripts unchanged. Events with no catalog event are
// reported and left out.
func (h *Host) ToClaudeSettings(data []byte) ([]byte, []string, error) {
	if h.Name == "claude" {
		return data, nil, nil
	}
	var doc struct {
		Hooks map[string][]map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("%s configuration: %w", h.Title, err)
	}
	if len(doc.Hooks) == 0 {
		return nil, nil, fmt.Errorf("%s configuration: no \"hooks\" object", h.Title)
	}
	var warnings []string
	out := map[string][]any{}
	events := make([]string, 0, len(doc.Hooks))
	for ev := range doc.Hooks {
		events = append(events, ev)
	}
	slices.Sort(events)
	for _, hostEv := range events {
		m, ok := h.Events[hostEv]
		if !ok && len(h.Events) > 0 {
			warnings = append(warnings, fmt.Sprintf("%s event %q has no hookctl event; its hooks were not imported", h.Title, hostEv))
			continue
		}
		if !ok {
			m = Mapping{Event: hostEv}
		}
		if !knownEvent(m.Event) {
			warnings = append(warnings, fmt.Sprintf("%s event %q has no hookctl event; its hooks were not imported", h.Title, hostEv))
			continue
		}
		for _, e := range doc.Hooks[hostEv] {
			str := func(k string) string { s, _ := e[k].(string); return s }
			matcher := canonicalMatcher(str("matcher"))
			if matcher == "" && m.Tool != "" {
				matcher = engine.CanonicalTool(m.Tool)
			}
			var handlers []any
			switch h.Name {
			case "gemini", "codex":
				// Claude-shaped groups; Gemini's timeouts are milliseconds.
				inner, _ := e["hooks"].([]any)
				for _, x := range inner {
					hm, _ := x.(map[string]any)
					if hm == nil {
						continue
					}
					c := map[string]any{"type": "command", "command": hm["command"], "protocol": h.Name}
					if t, ok := hm["timeout"].(float64); ok && t > 0 {
						if h.Name == "gemini" {
							t /= 1000
						}
						c["timeout"] = t
					}
					handlers = append(handlers, c)
				}
			default:
				cmd := str("command")
				if h.Name == "copilot" {
					cmd = str("bash")
				}
				if cmd == "" {
					warnings = append(warnings, fmt.Sprintf("%s: a %s hook without a command was not imported", hostEv, h.Title))
					continue
				}
				c := map[string]any{"type": "command", "command": cmd, "protocol": h.Name}
				for _, k := range []string{"timeout", "timeoutSec"} {
					if t, ok := e[k].(float64); ok && t > 0 {
						c["timeout"] = t
					}
				}
				handlers = append(handlers, c)
			}
			if len(handlers) > 0 {
				out[m.Event] = append(out[m.Event], map[string]any{"matcher": matcher, "hooks": handlers})
			}
		}
	}
	if len(out) == 0 {
		return nil, warnings, fmt.Errorf("%s configuration: no hook could be imported", h.Title)
	}
	b, err := json.Marshal(map[string]any{"hooks": out})
	return b, warnings, err
}

func knownEvent(name string) bool {
	for _, s := range engine.BuiltinEvents() {
		if s.Name == name || slices.Contains(s.Aliases, name) {
			return true
		}
	}
	return false
}

// canonicalMatcher extends a host's tool matcher with the canonical names
// of the host tools it matches ("^(bash|edit)$" also matches Bash and
// Edit), so that an imported hook guards the same tools under every host:
// a matcher is a case-sensitive name, so crush's "bash" alone would not
// match Claude Code's Bash.
func canonicalMatcher(src string) string {
	m, err := engine.CompileMatcher(src)
	if err != nil || m.MatchesAll() {
		return src
	}
	var add []string
	for _, raw := range engine.HostToolNames() {
		c := engine.CanonicalTool(raw)
		if m.Match(raw) && !m.Match(c) && !slices.Contains(add, c) {
			add = append(add, c)
		}
	}
	if len(add) == 0 {
		return src
	}
	slices.Sort(add)
	if m.IsRegexp() {
		return "(?:" + src + ")|^(?:" + strings.Join(add, "|") + ")$"
	}
	return src + "|" + strings.Join(add, "|")
}
