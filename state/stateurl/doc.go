// Package stateurl parses where hookctl keeps its shared state (the kv
// store, the Stop loop guard's counts and, on NATS, the audit log): the
// value of settings.state, of settings.state_file and of
// `hookctl serve --nats`.
//
// A state URL is one of
//
//	memory:                     the process's memory, for as long as it runs
//	file:///abs/path/kv.json    a file store (file:/abs/path also reads)
//	nats://host[:port],...      NATS JetStream: one or more nats:// or tls://
//	                            URLs, comma-separated (package natsurl)
//
// settings.state_file is a plain path; no state setting at all is the
// default file store (kv.DefaultPath). The package depends on no backend:
// the HCL loader checks settings.state with it, and package state opens
// what it names.
package stateurl
