// Package state is hookctl's shared state: the kv store hooks use
// (hookctl/kv and the stateful built-ins), the Stop loop guard's counts
// and, on NATS, the audit log, kept on the backend a URL names.
//
// A Shared is made before the configuration is loaded (it is the
// kv.Store given to assemble.WithStore and, through EngineOptions, the
// engine's loop store), told where the state lives once it is loaded
// (Configure: settings.state, else settings.state_file), and opens its
// backend on first use. The backends (package stateurl):
//
//	memory:                  the process's memory (kv.Memory)
//	file:///abs/kv.json      a file store (kv.File); settings.state_file
//	                         is a plain path; no setting: kv.DefaultPath
//	nats://h1:4222,tls://h2  NATS JetStream (package natsstate)
//
// NATS comes in as an option, WithNATS with an Opener (package
// state/natsbackend has natsstate's), so that a program keeping its state
// in memory or a file links no NATS client; without it, a NATS backend
// fails every use.
//
// A Shared never fails open: while its backend cannot be opened or
// reached, a kv call fails (the hookctl/kv module throws and the hook's
// on_error decides), the loop guard cannot count (the outcome's
// stop_guard.error says so, and a block stands), and an audit record that
// cannot be published is an error the engine logs with the count of
// records lost so far.
//
// Every backend passes one conformance suite: state/kv/kvtest's Run and
// RunLoopStore, run by this package's tests against memory, a file and a
// real NATS server, directly and through a Shared.
package state
