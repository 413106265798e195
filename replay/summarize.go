package replay

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// summaryMax bounds Event.Input; tables cut it shorter.
const summaryMax = 200

// inputKeys are the tool_input fields that say best what a call does, most
// telling first: a shell command, a file, a search, a URL, a subagent's task.
var inputKeys = []string{
	"command", "file_path", "notebook_path", "pattern", "path", "url", "query",
	"description", "subagent_type", "prompt", "skill",
}

// Summarize returns a one-line summary of a tool call: its command, file
// path, pattern, URL or query, else its input as compact JSON, at most a
// few hundred characters, control characters removed.
func Summarize(tool string, input map[string]any) string {
	if tool == "TodoWrite" {
		if todos, ok := input["todos"].([]any); ok {
			return fmt.Sprintf("%d todos", len(todos))
		}
	}
	for _, k := range inputKeys {
		if s, ok := input[k].(string); ok && strings.TrimSpace(s) != "" {
			if p, ok := input["path"].(string); ok && k == "pattern" && p != "" {
				s += " in " + p // Grep and Glob: the pattern, and where
			}
			return oneLine(s, summaryMax)
		}
	}
	if len(input) == 0 {
		return ""
	}
	b, err := json.Marshal(input)
	if err != nil {
		return ""
	}
	return oneLine(string(b), summaryMax)
}

// oneLine makes s printable on one line of a terminal: whitespace runs
// become one space, control and format characters (escape sequences,
// bidirectional overrides) are dropped, invalid UTF-8 becomes U+FFFD, and
// the result is cut to max runes with an ellipsis.
func oneLine(s string, max int) string {
	var b strings.Builder
	n := 0
	space := false
	for _, r := range s { // an invalid byte comes as U+FFFD
		switch {
		case unicode.IsSpace(r):
			space = n > 0
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r):
			continue
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
		if n > max {
			return cut(b.String(), max)
		}
	}
	return b.String()
}

// cut shortens s to max runes, the last one an ellipsis, when it is longer.
func cut(s string, max int) string {
	if max <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	rs := []rune(s)
	return strings.TrimRight(string(rs[:max-1]), " ") + "…"
}
