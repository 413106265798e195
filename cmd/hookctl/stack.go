package main

import (
	"fmt"
	"io"
	"strings"
)

// writeStack writes a failed script's JavaScript stack under its hook's
// line of an explanation, one frame a line.
func writeStack(w io.Writer, stack string) {
	for _, line := range strings.Split(strings.TrimRight(stack, "\n"), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			fmt.Fprintf(w, "      %s\n", line)
		}
	}
}
