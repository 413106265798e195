package hooktest

import (
	"slices"
	"sort"

	"github.com/hookctl/hookctl/engine"
)

// HookCoverage is what the tests did with one hook of the configuration.
type HookCoverage struct {
	ID string `json:"id"`
	// Source is where the hook is declared (file:line).
	Source string `json:"source,omitempty"`
	// Events are the events it is on, canonical names.
	Events []string `json:"events"`
	// Reached is true when the hook ran in some test: a status other
	// than skipped (decided, ran, error, timeout, queued).
	Reached bool `json:"reached"`
	// Decided is true when its status was decided in some test.
	Decided bool `json:"decided"`
	// CanDecide is false for a hook whose result nothing reads: a
	// background or observe hook, or one on void events only.
	CanDecide bool `json:"can_decide"`
	// Disabled is true for a hook with enabled = false.
	Disabled bool `json:"disabled,omitempty"`
	// Tests counts the tests that reached it.
	Tests int `json:"tests"`
}

// Coverage is the coverage of the configuration's hooks by the tests run,
// in the order the configuration declares them.
type Coverage struct {
	Hooks []*HookCoverage `json:"hooks"`
	byID  map[string]*HookCoverage
}

// newCoverage lists the engine's hooks in the order of decl (the
// configuration's hooks), with the events and phases the engine gives
// them.
func newCoverage(eng *engine.Engine, decl []engine.Hook) *Coverage {
	c := &Coverage{byID: map[string]*HookCoverage{}}
	for _, h := range decl {
		if _, dup := c.byID[h.ID]; dup {
			continue
		}
		hc := &HookCoverage{ID: h.ID, Source: h.Source, Disabled: h.Disabled}
		c.byID[h.ID] = hc
		c.Hooks = append(c.Hooks, hc)
	}
	defer func() {
		// In the order they are written: built-ins come last from the
		// assembly, though declared anywhere.
		sort.SliceStable(c.Hooks, func(i, j int) bool {
			a, b := c.Hooks[i].Source, c.Hooks[j].Source
			if a == "" || b == "" {
				return a != ""
			}
			return atLess(a, b)
		})
	}()
	for _, ev := range eng.EventsWithHooks() {
		infos, err := eng.Hooks(ev)
		if err != nil {
			continue
		}
		for _, info := range infos {
			hc, ok := c.byID[info.ID]
			if !ok { // registered from Go, not declared in the files
				hc = &HookCoverage{ID: info.ID, Source: info.Source, Disabled: info.Disabled}
				c.byID[info.ID] = hc
				c.Hooks = append(c.Hooks, hc)
			}
			if !slices.Contains(hc.Events, ev) {
				hc.Events = append(hc.Events, ev)
			}
			if info.Phase == engine.PhaseChain {
				hc.CanDecide = true
			}
		}
	}
	return c
}

// add counts one test's outcome.
func (c *Coverage) add(out *engine.Outcome) {
	if out == nil {
		return
	}
	for _, tr := range out.Hooks {
		hc, ok := c.byID[tr.ID]
		if !ok || tr.Status == engine.StatusSkipped {
			continue
		}
		hc.Reached = true
		hc.Tests++
		if tr.Status == engine.StatusDecided {
			hc.Decided = true
		}
	}
}

// NotReached lists the hooks no test ran.
func (c *Coverage) NotReached() []*HookCoverage {
	var out []*HookCoverage
	for _, h := range c.Hooks {
		if !h.Reached {
			out = append(out, h)
		}
	}
	return out
}

// NeverDecided lists the hooks that can decide, were reached, and decided
// in no test.
func (c *Coverage) NeverDecided() []*HookCoverage {
	var out []*HookCoverage
	for _, h := range c.Hooks {
		if h.Reached && h.CanDecide && !h.Decided {
			out = append(out, h)
		}
	}
	return out
}

// counts returns how many hooks were reached of all, and how many decided
// of those that can.
func (c *Coverage) counts() (reached, all, decided, canDecide int) {
	for _, h := range c.Hooks {
		all++
		if h.Reached {
			reached++
		}
		if h.CanDecide {
			canDecide++
			if h.Decided {
				decided++
			}
		}
	}
	return
}
