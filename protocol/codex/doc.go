// Package codex is Codex's hook protocol: Claude-shaped payloads and
// replies, but PreToolUse rejects allow without updatedInput, any ask and
// continue:false (the hook is marked failed and the tool runs), so those
// are written as what Codex reads.
package codex
