package command

import (
	"context"
	"time"

	"github.com/hookctl/hookctl/lib/proc"
)

// runResult is what one run of a command hook produced.
type runResult struct {
	// code is the hook process's exit status (-1: killed by a signal).
	code           int
	stdout, stderr []byte
}

// runCommand runs argv in its own process group with stdin written to it
// (proc.Run). The hook's own process decides: when it exits before
// deadline (none when zero) and before ctx ends, its exit status and what
// it printed are the result, even if a child it left holds its stdout.
// When the deadline passes first the group is killed and the error is
// context.DeadlineExceeded; when ctx ends first, ctx's error; a program
// that could not start is a *proc.StartError.
func runCommand(ctx context.Context, deadline time.Time, argv []string, dir string, env []string, stdin []byte) (runResult, error) {
	res, err := proc.Run(ctx, proc.Spec{Argv: argv, Dir: dir, Env: env, Stdin: stdin, Deadline: deadline, MaxOutput: MaxOutput})
	if err != nil {
		return runResult{code: -1}, err
	}
	return runResult{code: res.ExitCode, stdout: res.Stdout, stderr: res.Stderr}, nil
}
