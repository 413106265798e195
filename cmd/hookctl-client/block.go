package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/hookctl/hookctl/internal/daemon"
)

//go:generate go test -run TestBlockTableIsCurrent -update .

// blockReply is a host's answer for hooks that could not run
// (protocol.Protocol.Block with no event), with messageMark where the
// message goes: JSON-escaped in stdout, as it is on stderr.
type blockReply struct {
	stdout, stderr string
	code           int
}

// messageMark stands for the message in blockReplies.
const messageMark = "@@HOOKCTL-CLIENT-MESSAGE@@"

// hostOf is the host a hook call answers: the claude command's, else
// --host ("" when it is to be detected, which only hookctl can do).
func hostOf(hook daemon.Hook) string {
	if hook.Command != "hook" {
		return hook.Command // "hookctl claude" is Claude Code's command
	}
	return hook.Host
}

// block writes the host's block with msg and returns its exit status: a
// deny reply where no exit status blocks (Copilot CLI), never an empty
// reply a host reads as a go-ahead. A host the table does not name (not
// given, or not one) gets the registry's default host's block.
func block(host, msg string) int {
	r, ok := blockReplies[host]
	if !ok {
		r = blockReplies[defaultHost]
	}
	if r.stdout != "" {
		os.Stdout.WriteString(strings.ReplaceAll(r.stdout, messageMark, jsonEscape(msg)))
	}
	if r.stderr != "" {
		fmt.Fprintln(os.Stderr, strings.ReplaceAll(r.stderr, messageMark, msg))
	}
	return r.code
}

// blockCode is the exit status of host's block.
func blockCode(host string) int {
	r, ok := blockReplies[host]
	if !ok {
		r = blockReplies[defaultHost]
	}
	return r.code
}

// jsonEscape is s as the inside of a JSON string (this program does not
// link encoding/json).
func jsonEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
