package runtime

import (
	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/state/kv"
)

// State is the shared state of one call or one server: the kv store hooks
// use, the Stop loop guard's counts and the audit log, on the backend the
// loaded configuration asks for.
type State interface {
	kv.Store                        // given to assemble.WithStore before the load
	Configure(cfg *assemble.Config) // after the load: settings.state / state_file
	EngineOptions() []engine.Option // the loop store (engine.WithLoopStore)
	Attach(eng *engine.Engine)      // on NATS: the engine's audit log goes there
	Close() error
}

// NewState makes the State of one call (name: "hookctl claude", ...).
type NewState func(name string) State
