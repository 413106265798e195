// Package builtin is hookctl's opt-in pack of built-in hooks: guards and
// loggers that almost every user of coding-agent hooks writes by hand,
// written once in Go, fast and tested. A config enables one with
//
//	builtin "dangerous-commands" {
//	  priority = 1000
//	  mode     = "ask"
//	  allow    = ["^git push --force origin scratch/"]
//	}
//
// and a Go program with New, which turns a builtin's name and options into
// engine hooks ready for engine.Register.
//
// The builtins are:
//
//   - dangerous-commands (PreToolUse and PermissionRequest on Bash, priority 1000): denies (or
//     asks about) destructive shell commands found by parsing the command
//     line with lib/shell: recursive rm of /, ~, home or system
//     directories, --no-preserve-root, mkfs, dd or redirections onto disk
//     devices, fork bombs, curl or wget piped into a shell or interpreter,
//     chmod 777 and chown -R of system directories, git force pushes, and
//     git reset --hard / git clean -f.
//   - secret-files (PreToolUse and PermissionRequest on Read, Edit, Write, MultiEdit,
//     NotebookEdit, Grep, Glob and Bash, priority 900): denies (or asks
//     about) touching .env files, private keys, cloud and package-manager
//     credentials, by tool path or by a Bash command that reads, copies,
//     uploads, sources or redirects them; .env.example, *.pub and the like
//     stay allowed.
//   - read-only-approver (PermissionRequest, optionally PreToolUse,
//     priority -50): allows read-only tools and Bash lines in which every
//     command is read-only and nothing is redirected into a file.
//   - prompt-length (UserPromptSubmit, priority 500): blocks prompts
//     longer than max_chars characters.
//   - compaction-guard (PreCompact, priority 500): blocks a compaction that
//     comes less than min_interval after the session's previous one.
//   - session-log (SessionStart, SessionEnd, SubagentStart, SubagentStop,
//     Stop; background, priority -100): appends one JSONL record per event.
//   - tool-log (PostToolUse, PostToolUseFailure; background, priority
//     -100): appends one JSONL record per tool call.
//   - notification-router (Notification; background, priority -100): logs
//     notifications, appends them to a JSONL file and hands them to a
//     command.
//
// Specs and Lookup describe the builtins and their options for
// documentation, validation and `hookctl list`. The spec table is
// immutable; New keeps no global state, and the hooks it returns are safe
// for concurrent use.
package builtin
