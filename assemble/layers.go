package assemble

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
)

// The layer names of a layered configuration.
const (
	LayerManaged = "managed"
	LayerUser    = "user"
	LayerProject = "project"
)

// Part is one configuration of a layered load (LoadLayers): a managed
// directory or drop-in, the user's configuration or the project's.
type Part struct {
	// Layer is LayerManaged, LayerUser or LayerProject.
	Layer string
	// Path is the configuration's file or directory.
	Path string
	// Options are options for this part alone (its file check).
	Options []Option
}

// rank orders the layers in a chain: the hooks of a lower rank run first.
// The managed layer runs last, so that its hooks see the input every
// other hook left, and no hook of a lower layer runs after them.
func rank(layer string) int {
	switch layer {
	case LayerManaged:
		return 2
	case LayerProject:
		return 1
	}
	return 0
}

// loaded is one part, assembled.
type loaded struct {
	Part
	cfg *Config
}

// LoadLayers assembles the parts of a layered configuration into one
// Config whose engine view holds the hooks of every part, each tagged with
// its layer (engine.Hook.Layer) and ordered by it (engine.Hook.Rank:
// managed hooks run last in a chain, whatever their priority). The managed
// parts are assembled first: their settings.managed_only or allow_layers
// leave out the user or project layer (a "Layer skipped" warning each,
// never silently). A lower layer cannot switch a managed hook off: a hook
// whose id a managed hook has is an error naming both; its settings
// (default_timeout, stop_block_cap, max_concurrency, audit_log, state)
// never apply to managed hooks; settings.required of any part may name a
// hook of any part and only makes it fail closed. Each part keeps its own
// script runtimes, roots and http_allow. Warnings of every part are in
// the result's Warnings; any error is *hcl.Diagnostics and nothing is
// left open.
//
// A single project part with no other is assembled as Load does, its
// hooks untagged.
func LoadLayers(parts []Part, opts ...Option) (*Config, error) {
	if len(parts) == 1 && parts[0].Layer == LayerProject {
		return Load(parts[0].Path, append(slices.Clone(opts), parts[0].Options...)...)
	}
	order := slices.Clone(parts)
	slices.SortStableFunc(order, func(a, b Part) int { return rank(b.Layer) - rank(a.Layer) })
	var done []*loaded
	var failed *hcl.Diagnostics
	closeAll := func() {
		for _, d := range done {
			d.cfg.Close()
		}
	}
	allow := map[string]bool{LayerManaged: true, LayerUser: true, LayerProject: true}
	var limiter *loaded // the managed part whose setting limits the layers
	var skipped []Part
	for _, p := range order {
		if !allow[p.Layer] {
			skipped = append(skipped, p)
			continue
		}
		o := append(slices.Clone(opts), p.Options...)
		o = append(o, func(o *Options) { o.deferRequired = true })
		cfg, err := Load(p.Path, o...)
		if err != nil {
			d, ok := err.(*hcl.Diagnostics)
			if !ok {
				closeAll()
				return nil, fmt.Errorf("%s layer: %w", p.Layer, err)
			}
			failed = failed.Join(d)
			continue
		}
		l := &loaded{Part: p, cfg: cfg}
		done = append(done, l)
		s := cfg.Settings
		if p.Layer != LayerManaged {
			if cfg.parsed.LayersRange.Filename != "" {
				cfg.parsed.Warnf(cfg.parsed.LayersRange, "Setting only for the managed layer",
					"managed_only and allow_layers say which layers run; only the managed layer may say it, so in the %s layer they are ignored.", p.Layer)
			}
			continue
		}
		if s.ManagedOnly || s.AllowLayers != nil {
			if limiter == nil {
				limiter = l
			}
			for _, n := range []string{LayerUser, LayerProject} {
				if s.ManagedOnly || !slices.Contains(s.AllowLayers, n) {
					allow[n] = false
				}
			}
		}
	}
	if failed.HasErrors() {
		closeAll()
		return nil, failed
	}
	for _, p := range skipped {
		why := "managed_only = true"
		if !limiter.cfg.Settings.ManagedOnly {
			why = fmt.Sprintf("allow_layers = [%s]", quoteList(limiter.cfg.Settings.AllowLayers))
		}
		limiter.cfg.parsed.Warnf(limiter.cfg.parsed.LayersRange, "Layer skipped",
			"The %s layer (%s) is not loaded and none of its hooks run: the managed layer says %s.", p.Layer, p.Path, why)
	}
	merged := mergeLayers(done)
	var diags *hcl.Diagnostics
	for _, d := range done {
		diags = diags.Join(d.cfg.parsed.Diagnostics())
	}
	if diags.HasErrors() {
		closeAll()
		return nil, diags
	}
	merged.Warnings = diags.OnlyWarnings()
	return merged, nil
}

// quoteList writes names as an HCL list's items.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// mergeLayers builds the merged view of parts assembled in order
// (managed first), recording the problems in the parts' diagnostics.
func mergeLayers(parts []*loaded) *Config {
	out := &Config{Engine: &engine.Config{}, Layers: make([]*Config, 0, len(parts))}
	var names []string
	hasManaged := false
	for _, p := range parts {
		hasManaged = hasManaged || p.Layer == LayerManaged
	}
	// Settings the engine applies to every hook: the managed layer's
	// value holds, else the project's, else the user's. A lower layer's
	// default_timeout is given to its own hooks instead.
	var held *loaded // the first part setting each value
	pick := func(set func(*loaded) bool, name string) *loaded {
		held = nil
		for _, p := range bySettingsPrecedence(parts) {
			if !set(p) {
				continue
			}
			if held == nil {
				held = p
				continue
			}
			if held.Layer == LayerManaged && p.Layer != LayerManaged {
				p.cfg.parsed.Warnf(settingRange(p.cfg), "Setting held by the managed layer",
					"%s is set by the managed layer (%s); this %s layer's value is ignored.", name, held.Path, p.Layer)
			}
		}
		return held
	}
	es := &out.Engine.Settings
	if p := pick(func(p *loaded) bool { return p.cfg.Settings.MaxConcurrency != 0 }, "max_concurrency"); p != nil {
		es.MaxConcurrency = p.cfg.Settings.MaxConcurrency
	}
	if p := pick(func(p *loaded) bool { return p.cfg.Settings.StopBlockCap != nil }, "stop_block_cap"); p != nil {
		es.StopBlockCap = p.cfg.Settings.StopBlockCap
	}
	if p := pick(func(p *loaded) bool { return p.cfg.Settings.AuditLog != "" }, "audit_log"); p != nil {
		es.AuditLog = p.cfg.Settings.AuditLog
	}
	if p := pick(func(p *loaded) bool { return p.cfg.Settings.State != "" || p.cfg.Settings.StateFile != "" }, "state"); p != nil {
		out.Settings.State, out.Settings.StateFile = p.cfg.Settings.State, p.cfg.Settings.StateFile
	}
	for _, p := range parts {
		if hasManaged && p.Layer == LayerManaged && es.DefaultTimeout == 0 {
			es.DefaultTimeout = p.cfg.Settings.DefaultTimeout
		}
	}
	if !hasManaged {
		if p := pick(func(p *loaded) bool { return p.cfg.Settings.DefaultTimeout != 0 }, "default_timeout"); p != nil {
			es.DefaultTimeout = p.cfg.Settings.DefaultTimeout
		}
	}
	out.Settings.Settings = *es

	type decl struct {
		part *loaded
		at   string
	}
	ids := map[string]decl{}
	for _, p := range parts {
		pc := p.cfg
		names = append(names, pc.Engine.Name)
		out.Layers = append(out.Layers, pc)
		out.Files = append(out.Files, pc.Files...)
		if out.parsed == nil || p.Layer == LayerProject {
			// The project's, when there is one: what Decoded returns.
			out.Dir, out.parsed = pc.Dir, pc.parsed
		}
		out.Engine.Events = append(out.Engine.Events, pc.Engine.Events...)
		for _, h := range pc.Engine.Hooks {
			at := hookRange(pc.parsed, h)
			if prev, ok := ids[h.ID]; ok {
				if prev.part.Layer == LayerManaged && p.Layer != LayerManaged {
					pc.parsed.Errorf(at, "Managed hook id reused",
						"Hook %q is the managed layer's, declared at %s; a %s hook cannot replace, disable or reorder it. Give this hook another id.", h.ID, prev.at, p.Layer)
				} else {
					pc.parsed.Errorf(at, "Hook id in two layers",
						"Hook %q is declared by the %s layer at %s too; ids are unique across the layers. Give one of them another id.", h.ID, prev.part.Layer, prev.at)
				}
				continue
			}
			ids[h.ID] = decl{p, fmt.Sprintf("%s:%d", at.Filename, at.Start.Line)}
			h.Layer, h.Rank = p.Layer, rank(p.Layer)
			if d := p.cfg.Settings.DefaultTimeout; h.Timeout == 0 && d != 0 && d != es.DefaultTimeout {
				h.Timeout = d // this layer's default, for its hooks alone
			}
			out.Engine.Hooks = append(out.Engine.Hooks, h)
		}
	}
	// settings.required of any part: present, enabled, failing closed.
	for _, p := range parts {
		for _, id := range p.cfg.Settings.Required {
			i := slices.IndexFunc(out.Engine.Hooks, func(h engine.Hook) bool { return h.ID == id })
			if i < 0 {
				p.cfg.parsed.Errorf(p.cfg.parsed.RequiredRange, "Required hook missing", "settings.required lists %q, but no hook of any layer has that id.", id)
				continue
			}
			h := &out.Engine.Hooks[i]
			if h.OnError.Policy == engine.ErrorDefault || h.OnError.Policy == engine.ErrorIgnore {
				h.OnError.Policy = engine.ErrorBlock
			}
			if h.Disabled {
				p.cfg.parsed.Errorf(p.cfg.parsed.RequiredRange, "Required hook disabled", "Hook %q is listed in settings.required but has enabled = false.", id)
			}
		}
	}
	out.Engine.Name = strings.Join(names, " + ")
	return out
}

// bySettingsPrecedence orders parts as their settings hold: managed, then
// project, then user.
func bySettingsPrecedence(parts []*loaded) []*loaded {
	out := slices.Clone(parts)
	slices.SortStableFunc(out, func(a, b *loaded) int {
		pa, pb := map[string]int{LayerManaged: 0, LayerProject: 1, LayerUser: 2}[a.Layer], map[string]int{LayerManaged: 0, LayerProject: 1, LayerUser: 2}[b.Layer]
		return pa - pb
	})
	return out
}

// settingRange is where a part's settings are (its first file when it
// has no settings block the decoder recorded a range of).
func settingRange(c *Config) hcl.Range {
	return fileStart(c.parsed)
}

// fileStart is the first position of a configuration's first file.
func fileStart(c *hcl.Config) hcl.Range {
	if len(c.Files) == 0 {
		return hcl.Range{}
	}
	return hcl.Range{Filename: c.Files[0], Start: hcl.Pos{Line: 1, Column: 1}, End: hcl.Pos{Line: 1, Column: 1}}
}

// hookRange is where hook h of a configuration is declared.
func hookRange(c *hcl.Config, h engine.Hook) hcl.Range {
	for _, hb := range c.Hooks {
		if hb.Hook.ID == h.ID {
			return hb.Range
		}
	}
	if i := strings.LastIndexByte(h.Source, ':'); i > 0 {
		if n, err := strconv.Atoi(h.Source[i+1:]); err == nil {
			p := hcl.Pos{Line: n, Column: 1}
			return hcl.Range{Filename: h.Source[:i], Start: p, End: p}
		}
	}
	return fileStart(c)
}
