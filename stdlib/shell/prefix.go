package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// RunnablePrefix returns, for a line that is not valid bash, the part that
// bash runs anyway: bash reads a script one complete command at a time, so
// in "rm -rf ~\n echo 'x" it runs rm before it meets the unterminated
// quote. The prefix ends with the last complete command before the
// syntax error, at the end of its line. It returns "" when the line parses
// or when no command is complete before the error.
func RunnablePrefix(cmdline string) string {
	end := -1
	err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Stmts(strings.NewReader(cmdline), func(st *syntax.Stmt) bool {
		if e := st.End(); e.IsValid() {
			end = int(e.Offset())
		}
		return true
	})
	if err == nil || end <= 0 || end > len(cmdline) {
		return ""
	}
	// bash runs a line once it is read whole: cut at the last newline
	// before the error that ends a complete command.
	prefix := cmdline[:end]
	if _, perr := parseBash(prefix); perr != nil {
		return ""
	}
	return prefix
}
