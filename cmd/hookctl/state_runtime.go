package main

import (
	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
)

// cliState is a sharedState as the runtime's State: configured by the
// loaded configuration (settings.state, else state_file), its loop store
// given to the engine, and on NATS the engine's audit log.
type cliState struct{ *sharedState }

func (s cliState) Configure(cfg *assemble.Config) { s.configure(backendOf(cfg)) }

func (s cliState) EngineOptions() []engine.Option { return []engine.Option{s.loops()} }

func (s cliState) Attach(eng *engine.Engine) {
	if s.onNATS() {
		eng.SetAuditLog(s.auditLog(eng.Logger()))
	}
}
