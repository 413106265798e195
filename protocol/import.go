package protocol

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/engine"
)

// ImportWith is Protocol.ToClaudeSettings for a host whose configuration
// file holds a "hooks" object of the host's event names to lists of
// entries: handlers turns one entry into Claude Code command handlers
// (each with "protocol" set to the host), reporting false for an entry
// without a command. The events are mapped to the catalog's; events with
// no catalog event are reported and left out.
func (t *Table) ImportWith(data []byte, handlers func(e map[string]any) ([]any, bool)) ([]byte, []string, error) {
	var doc struct {
		Hooks map[string][]map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("%s configuration: %w", t.HostTitle, err)
	}
	if len(doc.Hooks) == 0 {
		return nil, nil, fmt.Errorf("%s configuration: no \"hooks\" object", t.HostTitle)
	}
	var warnings []string
	out := map[string][]any{}
	events := make([]string, 0, len(doc.Hooks))
	for ev := range doc.Hooks {
		events = append(events, ev)
	}
	slices.Sort(events)
	for _, hostEv := range events {
		m, ok := t.EventMap[hostEv]
		if !ok && len(t.EventMap) > 0 {
			warnings = append(warnings, fmt.Sprintf("%s event %q has no hookctl event; its hooks were not imported", t.HostTitle, hostEv))
			continue
		}
		if !ok {
			m = Mapping{Event: hostEv}
		}
		if !KnownEvent(m.Event) {
			warnings = append(warnings, fmt.Sprintf("%s event %q has no hookctl event; its hooks were not imported", t.HostTitle, hostEv))
			continue
		}
		for _, e := range doc.Hooks[hostEv] {
			s, _ := e["matcher"].(string)
			matcher := CanonicalMatcher(s)
			if matcher == "" && m.Tool != "" {
				matcher = engine.CanonicalTool(m.Tool)
			}
			hs, ok := handlers(e)
			if !ok {
				warnings = append(warnings, fmt.Sprintf("%s: a %s hook without a command was not imported", hostEv, t.HostTitle))
				continue
			}
			if len(hs) > 0 {
				out[m.Event] = append(out[m.Event], map[string]any{"matcher": matcher, "hooks": hs})
			}
		}
	}
	if len(out) == 0 {
		return nil, warnings, fmt.Errorf("%s configuration: no hook could be imported", t.HostTitle)
	}
	b, err := json.Marshal(map[string]any{"hooks": out})
	return b, warnings, err
}

// CanonicalMatcher extends a host's tool matcher with the canonical names
// of the host tools it matches ("^(bash|edit)$" also matches Bash and
// Edit), so that an imported hook guards the same tools under every host:
// a matcher is a case-sensitive name, so crush's "bash" alone would not
// match Claude Code's Bash.
func CanonicalMatcher(src string) string {
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
