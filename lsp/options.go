package lsp

import (
	"log/slog"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
)

type options struct {
	// layers returns the configurations above the one checked (the
	// managed and user layers): it is checked merged with them.
	layers        func(dir string) []assemble.Part
	logger        *slog.Logger
	check         Checker
	engineOptions []engine.Option
	projectDir    string
	version       string
	schema        PayloadSchema
	events        func() []engine.EventSpec
}

// Option configures a Server.
type Option func(*options)

// WithLogger sets the logger of the server's own messages (a client's
// malformed message, a recovered panic); nothing by default. Never give
// one that writes to the connection's stdout.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithChecker replaces the diagnostics source (by default the checks of
// hookctl validate and hookctl test).
func WithChecker(c Checker) Option { return func(o *options) { o.check = c } }

// WithEngineOptions are given to the engine each check loads the
// configuration into.
func WithEngineOptions(opts ...engine.Option) Option {
	return func(o *options) { o.engineOptions = append(o.engineOptions, opts...) }
}

// WithProjectDir names the project directory the configuration's scripts
// may read, as hookctl validate does.
func WithProjectDir(dir string) Option { return func(o *options) { o.projectDir = dir } }

// WithLayers checks each configuration merged with the layers above it
// (assemble.LoadLayers): layers returns them for the directory checked,
// so that a hook reusing a managed hook's id is reported as the editor
// types it.
func WithLayers(layers func(dir string) []assemble.Part) Option {
	return func(o *options) { o.layers = layers }
}

// WithVersion sets the version the server reports in initialize.
func WithVersion(v string) Option { return func(o *options) { o.version = v } }

// WithSchema sets the payload schema completion and hover read.
func WithSchema(s PayloadSchema) Option { return func(o *options) { o.schema = s } }
