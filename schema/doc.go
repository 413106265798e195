// Package schema is the one description of the payloads hookctl's hooks
// read: the fields of each event of the catalog whose payload is known
// (Claude Code's, recorded from the real CLI and its documentation, plus
// the fields hookctl adds such as tool and loop_count) and the tool_input
// of each tool (Bash's command, Write's file_path, ...), with the other
// hosts' tool names mapped onto Claude Code's by the canonical vocabulary.
//
// validate checks the payload paths conditions and scripts read against
// it (Resolve), the language server completes them from it, and
// stdlib/hookctl.d.ts's event interfaces are generated from it.
//
// Objects are closed (every member is listed) or Open (hosts add members,
// MCP tools take anything): an unknown member of a closed object is an
// error of Resolve; of an open one only when its name is close to a known
// one (a misspelling).
package schema
