package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/filestamp"
)

// LoadError is a configuration that could not be built or loaded. When
// Rendered is set its diagnostics were written to the call's stderr
// already (Err says only that there were errors).
type LoadError struct {
	Err      error
	Rendered bool
}

func (e *LoadError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *LoadError) Unwrap() error { return e.Err }

// Timer records where a call's time goes (HOOKCTL_TIMINGS); every method
// of a nil Timer in a Request is skipped.
type Timer interface {
	// Mark ends the phase named name.
	Mark(name string)
	// Add records a duration that is not a phase of the sequence.
	Add(name string, d time.Duration)
	// Phase records the phases assemble.Load reports.
	Phase() func(string, time.Duration)
}

// loader is what loading one call's configuration needs.
type loader struct {
	// layers are the configuration's layers; projectCheck, when set,
	// must accept every file the project layer loads (its trust record).
	layers       []Layer
	projectCheck func(path string, content []byte) error
	stderr       io.Writer
	logLevel     string
	projectDir   string
	timer        Timer
	engOpts      []engine.Option
	aopts        []assemble.Option
	state        State
	// known are stamps of the configuration's files taken during this
	// call (the trust check's fstat of the project file): the engine
	// cache compares them instead of stamping those files again.
	known filestamp.Set
}

func (l *loader) mark(name string) {
	if l.timer != nil {
		l.timer.Mark(name)
	}
}

// logger is the engine's logger: text on the call's stderr at its level.
func logger(w io.Writer, level string) *slog.Logger {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(level)); err != nil {
		lvl = slog.LevelWarn
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lvl}))
}

// load builds an engine with the standard condition functions, assembles
// the configuration's layers for it (assemble.LoadLayers) and loads them,
// printing their errors and warnings on l.stderr. A failure is a
// *LoadError.
func (l *loader) load(aopts ...assemble.Option) (*engine.Engine, *assemble.Config, error) {
	eng, err := assemble.NewEngine(append([]engine.Option{engine.WithLogger(logger(l.stderr, l.logLevel))}, l.engOpts...)...)
	if err != nil {
		return nil, nil, &LoadError{Err: err}
	}
	l.mark("engine")
	var phase func(string, time.Duration)
	if l.timer != nil {
		phase = l.timer.Phase()
	}
	opts := append([]assemble.Option{assemble.WithEngine(eng), assemble.WithProjectDir(l.projectDir), assemble.WithPhaseTimer(phase)}, l.aopts...)
	parts := layerParts(l.layers)
	for i := range parts {
		if parts[i].Layer == LayerProject && l.projectCheck != nil {
			parts[i].Options = []assemble.Option{assemble.WithFileCheck(l.projectCheck)}
		}
	}
	cfg, err := assemble.LoadLayers(parts, append(opts, aopts...)...)
	if err != nil {
		eng.Close(context.Background())
		var d *hcl.Diagnostics
		if errors.As(err, &d) {
			d.Render(l.stderr)
			return nil, nil, &LoadError{Err: err, Rendered: true}
		}
		return nil, nil, &LoadError{Err: err}
	}
	if len(cfg.Warnings.List) > 0 {
		cfg.Warnings.Render(l.stderr)
	}
	if err := eng.Load(cfg.Engine); err != nil {
		eng.Close(context.Background())
		cfg.Close()
		return nil, nil, &LoadError{Err: fmt.Errorf("loading %s: %w", cfg.Engine.Name, err)}
	}
	l.mark("load")
	return eng, cfg, nil
}

// useState points the call's state at what cfg asks for and, on NATS,
// sends the engine's audit records there.
func (l *loader) useState(eng *engine.Engine, cfg *assemble.Config) {
	if l.state != nil {
		l.state.Configure(cfg)
		l.state.Attach(eng)
	}
}
