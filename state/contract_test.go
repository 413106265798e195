package state_test

import (
	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/state"
	"github.com/hookctl/hookctl/state/kv"
)

// runtimeState is the runtime's State (the contract between the state
// and the runtime), restated: Shared implements it without importing the
// runtime.
type runtimeState interface {
	kv.Store
	Configure(cfg *assemble.Config)
	EngineOptions() []engine.Option
	Attach(eng *engine.Engine)
	Close() error
}

var _ runtimeState = (*state.Shared)(nil)
