package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/hookctl/hookctl/lib/proc"
	"github.com/hookctl/hookctl/runtime"
)

// stopSignals are the signals a host sends a hook it gives up on: they
// end the run's context, so that every command hook's processes are
// killed, and the reply still owed is the host's block.
var stopSignals = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP}

// runsHooks reports whether the subcommand runs hooks in this process.
func runsHooks(sub string) bool {
	switch sub {
	case "claude", "hook", "fire", "serve", "daemon":
		return true
	}
	return false
}

// withStopSignals returns ctx ended, with a *runtime.StopError cause, by the
// first stop signal, and makes the process the subreaper of its hooks'
// orphans (Linux). stop undoes the signal handling.
func withStopSignals(ctx context.Context) (_ context.Context, stop func()) {
	_ = proc.BecomeSubreaper()
	ctx, cancel := context.WithCancelCause(ctx)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			cancel(&runtime.StopError{Signal: sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// stoppedBySignal returns the signal that ended ctx, if one did.
func stoppedBySignal(ctx context.Context) (*runtime.StopError, bool) {
	return runtime.Stopped(ctx)
}

// stoppedCode is the exit status of the subcommand sub stopped by a
// signal after it would have exited with code: the host's block
// (exitBlocked) for a one-shot hook call (claude, hook, fire) whatever
// code was, since 0 is an allow and 1 a non-blocking error to the hosts
// (on Windows Ctrl+C and Ctrl+Break reach every process of the console,
// hookctl.exe run by hookctl-client included); for serve and the daemon,
// 0 becomes exitBlocked as before and other codes stay.
func stoppedCode(sub string, code int) int {
	switch sub {
	case "claude", "hook", "fire":
		return exitBlocked
	}
	if code == 0 {
		return exitBlocked
	}
	return code
}
