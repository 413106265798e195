// Package runtime is the one request path of a host hook, shared by every
// transport: `hookctl claude` and `hookctl hook` (stdio), the daemon behind
// hookctl-client, `hookctl serve`'s /claude and /hook/{host} routes, and
// `hookctl fire` (Runtime.Outcome).
//
// A Runtime is built once with functional options (where engines come
// from: OneShot, a Cache, or Watched; the state of a call; tracing) and
// answers one Request at a time, concurrently:
//
//	decode the payload (one decoder: integers exact) → the protocol's event
//	→ refuse a nested call → discover the configuration → check its trust
//	→ load it through the Source → fire → the protocol's reply
//
// Every step that fails answers fail-closed in the protocol's format (its
// block, or a warning where the Modes say so), as does a stop signal that
// ended the call's context and a panic: no path ends in an unseen allow.
//
// The runtime reads no process environment: the caller's working directory
// and environment come in the Request, as values.
package runtime
