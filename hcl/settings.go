package hcl

import (
	"path/filepath"
	"slices"

	hcl2 "github.com/hashicorp/hcl/v2"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/urlallow"
	"github.com/hookctl/hookctl/state/stateurl"
)

// Settings is the settings block.
type Settings struct {
	engine.Settings
	// HTTPAllow lists the URLs http handlers and hookctl/http may reach:
	// each entry a scheme, host, optional port and path prefix, matched as
	// parsed URLs (package urlallow). An invalid entry fails the load.
	HTTPAllow []string
	// Roots are extra directories scripts may read.
	Roots []string
	// Required lists hook ids that must be present and must not fail open.
	Required []string
	// StateFile is the file-backed kv store (default: the user's state
	// directory).
	StateFile string
	// State, when set, is where the shared state (the kv store, the Stop
	// loop guard and, on NATS, the audit log) is kept, as a state URL
	// (package stateurl): "memory:", "file:///PATH", or the
	// comma-separated nats:// or tls:// URLs of NATS JetStream servers.
	// It is stored as stateurl.Backend.URL writes it. It excludes
	// StateFile; `hookctl serve --nats` overrides it.
	State string
	// ScriptPool bounds the warm JavaScript runtimes.
	ScriptPool int
	// ScriptMemoryLimit is how much the heap may grow while scripts run
	// before they are interrupted (nil: script.DefaultMemoryLimit; 0: no
	// limit).
	ScriptMemoryLimit *int64
	// ManagedOnly, in the managed layer, runs the managed layer's hooks
	// only: the user and project layers are reported and not loaded.
	ManagedOnly bool
	// AllowLayers, in the managed layer, lists the layers whose hooks run
	// ("managed", "user", "project"; the managed layer always runs).
	AllowLayers []string
}

// Layer names, as settings.allow_layers lists them.
var layerNames = []string{"managed", "user", "project"}

func (l *loader) decodeSettings(blocks []*hcl2.Block) {
	for i, b := range blocks {
		if i > 0 {
			l.ev.errorf(b.DefRange, "Duplicate settings block",
				"Only one settings block is allowed; the first is at %s.", at(blocks[0].DefRange))
			continue
		}
		content, d := b.Body.Content(settingsSchema)
		l.diags = append(l.diags, d...)
		s := &l.cfg.Settings
		for name, a := range content.Attributes {
			switch name {
			case "max_concurrency":
				if n, ok := l.ev.integer(a); ok {
					if n < 1 {
						l.ev.errorf(a.Expr.Range(), "Invalid setting", "max_concurrency must be at least 1.")
						continue
					}
					s.MaxConcurrency = n
				}
			case "default_timeout":
				s.DefaultTimeout, _ = l.ev.duration(a)
			case "stop_block_cap":
				if n, ok := l.ev.integer(a); ok {
					if n < 0 {
						l.ev.errorf(a.Expr.Range(), "Invalid setting", "stop_block_cap must not be negative (0 turns the guard off).")
						continue
					}
					s.StopBlockCap = &n
				}
			case "audit_log":
				if p, ok := l.ev.str(a); ok && p != "" {
					s.AuditLog = l.path(p)
				}
			case "http_allow":
				s.HTTPAllow, _ = l.ev.strings(a)
				if _, err := urlallow.Parse(s.HTTPAllow); err != nil {
					l.ev.errorf(a.Expr.Range(), "Invalid setting", "%s. Each entry is an http or https URL: scheme, host, optional port and path prefix, such as \"https://api.example.com/v1\".", err)
					s.HTTPAllow = nil
				}
			case "roots":
				roots, _ := l.ev.strings(a)
				for _, r := range roots {
					s.Roots = append(s.Roots, l.path(r))
				}
			case "required":
				s.Required, _ = l.ev.strings(a)
				l.cfg.RequiredRange = a.Expr.Range()
			case "state_file":
				if p, ok := l.ev.str(a); ok && p != "" {
					s.StateFile = l.path(p)
				}
			case "state":
				if v, ok := l.ev.str(a); ok {
					b, err := stateurl.Parse("settings.state", v)
					if err != nil {
						l.ev.errorf(a.Expr.Range(), "Invalid setting", "%s. It says where the shared state is kept: \"memory:\" (the process's memory), \"file:///PATH\" (a file) or NATS JetStream, nats:// or tls:// URLs separated by commas such as \"nats://nats-0:4222,nats://nats-1:4222\"; without it, state is kept in state_file.", err)
						continue
					}
					s.State = b.URL()
					l.cfg.StateRange = a.Expr.Range()
				}
			case "managed_only":
				if v, ok := l.ev.boolean(a); ok {
					s.ManagedOnly = v
					l.cfg.LayersRange = a.Range
				}
			case "allow_layers":
				names, ok := l.ev.strings(a)
				if !ok {
					continue
				}
				l.cfg.LayersRange = a.Range
				s.AllowLayers = []string{}
				for _, n := range names {
					if !slices.Contains(layerNames, n) {
						l.ev.errorf(a.Expr.Range(), "Invalid setting", "allow_layers lists layers: managed, user and project, not %q.", n)
						continue
					}
					s.AllowLayers = append(s.AllowLayers, n)
				}
			case "script_pool":
				s.ScriptPool, _ = l.ev.integer(a)
			case "script_memory_limit":
				if n, ok := l.ev.size(a); ok {
					s.ScriptMemoryLimit = &n
				}
			}
		}
		if mo, al := content.Attributes["managed_only"], content.Attributes["allow_layers"]; mo != nil && al != nil {
			l.ev.errorf(al.Range, "Conflicting settings",
				"managed_only (set at %s) and allow_layers both say which layers run: set one of them.", at(mo.Range))
		}
		if st, sf := content.Attributes["state"], content.Attributes["state_file"]; st != nil && sf != nil {
			l.ev.errorf(st.Range, "Conflicting settings",
				"state and state_file (set at %s) both say where the shared state is kept: set one of them.", at(sf.Range))
			s.State = ""
		}
	}
}

// path resolves a path relative to the configuration directory.
func (l *loader) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(l.dir, p)
}
