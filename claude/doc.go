// Package claude is hookctl's compatibility with Claude Code's hook
// protocol, the de facto standard of agent hooks (Cursor, Codex, Copilot,
// Gemini CLI and Kiro copy it).
//
// It runs existing hooks unchanged: command hooks (the payload as JSON on
// stdin; exit 0, 2 or other with Claude Code's meaning; stdout in every
// JSON dialect real hooks use) and http hooks (the payload POSTed as JSON,
// the reply read like stdout). And it plugs hookctl into Claude Code: the
// adapter turns Claude's hook input into an engine fire and the outcome
// into the JSON and exit status Claude expects for each event.
//
// Server is the same over HTTP (hookctl serve), with everything a client
// can make it hold bounded (ServerLimits): each input's bytes, nesting and
// values before it is decoded, the requests firing and queued, the memory
// of the inputs held, the connections and the time each phase may take.
package claude
