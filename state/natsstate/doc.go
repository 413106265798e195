// Package natsstate keeps hookctl's shared state in NATS JetStream, so
// that several `hookctl serve` replicas behind a load balancer share one
// kv store, one Stop loop guard and one audit log instead of each keeping
// its own.
//
//	st, err := natsstate.Open(ctx, "nats://nats-1:4222,nats://nats-2:4222",
//		natsstate.WithReplicas(3),
//		natsstate.WithNATSOptions(nats.UserCredentials("hookctl.creds")))
//	...
//	defer st.Close()
//	st.KV()    // a kv.Store: the hookctl/kv module's store
//	st.Loops() // an engine.LoopStore: the Stop/SubagentStop loop guard
//	st.Audit() // an io.Writer for engine.WithAuditLog
//
// # Layout
//
// Open binds to, or creates, a KV bucket (default "hookctl", stream
// "KV_hookctl", history 1) and a stream for the audit log (default
// "HOOKCTL_AUDIT" on "hookctl.audit.>"), with the replicas WithReplicas
// asks for (R1 or R3). The loop guard keeps its counts in the bucket
// under "stopguard/<event>/<session>", through kv.LoopStore.
//
// # Keys
//
// kv keys are arbitrary strings; JetStream KV keys are NATS subjects with
// a restricted alphabet. A key is split at "/" and each segment becomes
// one subject token: letters, digits, "-" and "_" stay, every other byte
// becomes "=XX" (hex), and an empty segment becomes "=". So
// "session/abc/seen.files" is stored as "session.abc.seen=2Efiles". The
// mapping is reversible and keeps prefixes: the keys of a scope,
// Keys("session/abc/"), are exactly the subjects matching
// "$KV.hookctl.session.abc.>", and Keys reads only those. A prefix that
// ends in the middle of a segment is filtered on the segments before it
// and checked in full on the client.
//
// # Atomicity
//
// Incr and CompareAndSwap read the key's last message and its sequence
// (the revision) from the stream leader, then publish the new value with
// Nats-Expected-Last-Subject-Sequence set to that revision (0 for a key
// that never existed). JetStream refuses the write if the key changed in
// between; the operation then reads again and retries, after a random
// pause that grows with the attempts, until it wins or its context ends.
// No update is lost, whatever the number of replicas writing. Set
// publishes unconditionally; Delete purges the key's subject.
//
// # Expiry
//
// A key's expiry is stored with its value, in the Hookctl-Expires header
// (RFC 3339, UTC), and decided by the reading client's clock: an expired
// key reads as missing, at the exact instant, and Incr keeps an existing
// key's expiry, as the kv package requires. JetStream's own per-message
// TTL (servers 2.11 and later; the bucket is created with a limit marker
// TTL, which enables it) only collects the garbage: every expiring write
// also carries Nats-TTL, its remaining time rounded up to the second plus
// one minute, after which the server removes the message. Per-message TTL
// alone could not keep the semantics: it has one-second granularity, and
// keeping an existing expiry on Incr would need the remaining time
// anyway. On an older server, or a bucket created without TTL support,
// expired keys are hidden but stay in the bucket until overwritten or
// deleted. Replicas must have reasonably synchronized clocks (NTP), as
// with any expiry shared between machines; the minute of grace covers
// differences between them and the server.
//
// # Failures
//
// Every operation is bounded by its context and by WithTimeout (default
// 5s). When the client is not connected (the server is down, the client
// is reconnecting) an operation fails at once with an *Error matching
// ErrUnavailable; a request in flight when the connection drops fails as
// soon as the drop is noticed. A write that was sent but not acknowledged
// also matches ErrOutcomeUnknown: it may have been applied. Requests that
// JetStream certainly did not carry out (no responders while a stream
// leader is elected, "unavailable" replies) are retried within the same
// bounds, and a read (Get, the read of Incr and CompareAndSwap, Keys'
// consumer) that gets no reply within 2s is asked again: after the node
// leading a stream died, the others drop its requests unanswered until
// they notice (4 to 9s), so a cluster losing a node keeps serving, reads
// included. The client reconnects
// on its own, for ever, and operations succeed again once it has. The
// engine treats these errors as it treats any failing hook: the kv module
// throws, and the hook's on_error policy decides. State.Ready reports,
// without I/O, whether the client is connected, for readiness checks.
//
// # Audit
//
// Each audit record is published, and acknowledged, before Write returns;
// see AuditWriter. Consumers read the stream with any JetStream client,
// per event with a subject filter ("hookctl.audit.PreToolUse").
package natsstate
