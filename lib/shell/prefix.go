package shell

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxPrefixTries bounds the cuts RunnablePrefix tries from the end before
// it searches by halves.
const maxPrefixTries = 16

// RunnablePrefix returns, for a line that is not valid bash, the part that
// bash runs anyway: bash reads a script line by line and runs each
// complete command, so in "rm -rf ~\n echo 'x" it runs rm before it meets
// the unterminated quote. The prefix is the longest run of whole lines
// before the one where parsing fails that parses (when the statement that
// fails began lines earlier, the lines before it). It returns "" when the
// line parses or when no such prefix is found.
func RunnablePrefix(cmdline string) string {
	_, err := parseBash(cmdline)
	if err == nil {
		return ""
	}
	end := len(cmdline)
	var perr syntax.ParseError
	if errors.As(err, &perr) && perr.Pos.IsValid() {
		end = min(int(perr.Pos.Offset()), len(cmdline))
	}
	var cuts []int // newlines before the error, last first
	for i := end - 1; i >= 0; i-- {
		if cmdline[i] == '\n' {
			cuts = append(cuts, i)
		}
	}
	parses := func(i int) bool {
		p := cmdline[:cuts[i]]
		if strings.TrimSpace(p) == "" {
			return false
		}
		_, err := parseBash(p)
		return err == nil
	}
	for i := range min(len(cuts), maxPrefixTries) {
		if parses(i) {
			return cmdline[:cuts[i]]
		}
	}
	// Further back, search by halves for some prefix that parses.
	lo, hi := maxPrefixTries, len(cuts)-1
	for lo <= hi {
		mid := (lo + hi) / 2
		if parses(mid) {
			return cmdline[:cuts[mid]]
		}
		lo = mid + 1
	}
	return ""
}
