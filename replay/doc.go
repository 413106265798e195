// Package replay feeds a recorded Claude Code session through hook
// configurations: a what-if for a policy. It reads the session's transcript
// (the JSONL file Claude Code writes and names in every hook's
// transcript_path), rebuilds the hook events the session fired, with
// payloads of the shape Claude Code sends, fires them through one engine
// per configuration, and reports what each configuration would have
// blocked, asked about, rewritten or given context on, and where two
// configurations differ.
//
// # Reading a transcript
//
// A Reader streams a transcript line by line. Each line is a JSON object
// with a "type". The events come from two types:
//
//   - "user" lines: a prompt (string content, or text blocks) is a
//     UserPromptSubmit; tool_result blocks close tool calls;
//   - "assistant" lines: tool_use blocks {id, name, input} are tool calls
//     (PreToolUse); a text answer whose stop_reason ends the turn is a Stop.
//
// Every other line type (attachment, system, summary,
// file-history-snapshot, queue-operation, last-prompt, api-request,
// cost-state, ..., and types not known today) fires nothing and is counted
// in Stats.Skipped by type. So are, among user and assistant lines: meta
// messages (isMeta: caveats and injected context), subagent messages
// (isSidechain: their hooks fire inside the subagent, with agent fields
// the transcript line does not carry; the Agent tool call itself is
// replayed), slash-command and shell-mode messages (<command-name>,
// <local-command-stdout>, <bash-input>, ...), compaction summaries,
// interruption markers ("[Request interrupted by user]") and API error
// messages. A line that is not a JSON object, is invalid JSON, has no
// type, or is a user or assistant line without a well-formed message is
// a Problem with its line number: it is skipped and the replay goes on.
// Lines longer than WithMaxLine (DefaultMaxLine) are skipped: no more of
// them than the limit is held in memory. Only an input in which not one
// line is a JSON object with a type is an error (*FormatError).
//
// # The events, in order
//
//   - SessionStart, once, before the first event, with source "startup":
//     the transcript does not record how the session began.
//   - UserPromptSubmit for each prompt; prompts number the turns.
//   - PreToolUse for each tool_use, in transcript order.
//   - PostToolUse when the call's tool_result succeeded, with the line's
//     toolUseResult (the tool's structured output, what Claude Code gives
//     hooks as tool_response) or else the result's text;
//     PostToolUseFailure when it is an error, with the text as error.
//     Results that say the call never ran fire neither, as in Claude Code:
//     the user's rejection or interruption ("The user doesn't want to
//     proceed ..."), a permission denial ("Permission to use ... has been
//     denied"), a PreToolUse hook's block ("PreToolUse:Bash hook error:
//     ..."), and Claude Code's own refusal (<tool_use_error>). The call's
//     Record says which (Recorded).
//   - Stop after each assistant message whose stop_reason is end_turn or
//     stop_sequence, with its text as last_assistant_message. Transcripts
//     of versions that record no stop_reason get a Stop at the end of a
//     turn (the next prompt, or the end of the transcript) when the last
//     thing the assistant did was a text answer. An interrupted turn, or
//     one that ended in an API error, fires no Stop.
//
// SessionEnd is not fired: the transcript does not say whether or how the
// session ended, and SessionEnd hooks cannot change anything. Payloads
// carry session_id, transcript_path, cwd, prompt_id, permission_mode and
// effort from the transcript lines; duration_ms is not recorded and is
// left out.
//
// # Replaying
//
// Run fires every event through each configuration, in order, with one
// engine per configuration for the whole replay and a payload of its own
// for each. The recorded session is what it is: when a configuration
// denies a call the session ran, the call's post event is still replayed
// as recorded, and its Verdict says so (AfterDeny); a rewritten input is
// not carried into the post event, which keeps the recorded input.
//
// A Verdict sums an engine.Outcome up in one Action, strongest first:
// stop, deny/block/cancel, ask/defer, rewritten, context, allow, none; with
// the hooks behind it and the reason. Report.Diff compares two
// configurations by Effect: what the agent would have seen (action,
// decision, reason, rewrites, context), not which hook said it.
//
// Reports print as a table (WriteTable, WriteSummary), as JSON lines
// (WriteJSON), and as a diff of two configurations (WriteDiffTable,
// WriteDiffJSON).
package replay
