// Package transcript reads Claude Code session transcripts: the JSONL files
// whose path Claude Code passes to every hook as transcript_path. Hooks call
// it to see what happened in a session: a Stop hook reads the last thing the
// assistant said (LastAssistantText) to decide whether the work is done, a
// PreCompact or SessionEnd hook summarises tool use and token usage, a
// guard hook looks at the last tool calls and their errors.
//
// Each line of a transcript is one JSON object. The lines that matter have
// type "user" or "assistant" and a message in the Anthropic Messages API
// shape: a user message's content is a string or a list of text and
// tool_result blocks; an assistant message carries the model, text,
// tool_use and thinking blocks, and usage. Claude Code writes one line per
// content block of an assistant response, all with the same message id and
// usage; Read counts such lines as one message and their usage once. Other
// line types (summary, system, file-history-snapshot ...) are skipped, and
// a line that is not a JSON object, or a user or assistant line without a
// well-formed message, is skipped and counted in Summary.Skipped: a
// transcript being written while it is read ends in a partial line, and
// that must never make a hook fail.
//
// Transcripts grow to hundreds of megabytes in long sessions, so Read looks
// only at the last Options.MaxBytes of its input (8 MiB by default),
// dropping the partial line the cut leaves at the front, and keeps the last
// Options.MaxToolCalls tool calls (200 by default). With a file, or any
// io.Seeker, it seeks to the tail instead of reading what it would drop.
//
// Lines of subagent conversations (isSidechain) count toward the message
// totals, tool calls and usage, but not toward Model, LastAssistantText or
// LastUserText, which describe the main conversation; nor do meta lines
// (isMeta, such as the caveat Claude Code adds before local command output)
// count as user text.
//
// DecodeLine and LineReader are the one reader of transcript lines: Read
// uses them, and so does package replay, which turns a transcript into the
// hook events the session fired. The package is plain Go (no JavaScript
// runtime); the hookctl/transcript JS module is a binding of Read and
// LastAssistantText.
package transcript
