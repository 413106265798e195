package builtin

import "github.com/hookctl/hookctl/lib/paths"

// WithSystem returns cfg with the path rules sys: the builtins read
// commands' arguments as sys does (Windows' on Linux in tests).
func WithSystem(cfg Config, sys paths.System) Config {
	cfg.system = sys
	return cfg
}
