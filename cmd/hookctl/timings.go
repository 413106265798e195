package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// timingsEnv, set to 1, makes the one-shot host commands (claude, hook)
// print where their time went on stderr, one line:
//
//	hookctl: timings: main_unix_ns=... command=0.2ms decode=0.1ms ... total=7.9ms
//
// main_unix_ns is when main started (the time before it, process start
// and package initialisation, is what a caller that noted when it
// started the process can subtract); the phases follow in order, each
// the wall time since the previous one; runtime is the time spent making
// and locking down script runtimes, in the background while the hooks
// compile.
const timingsEnv = "HOOKCTL_TIMINGS"

// mainStartKey is the context key of the time main started.
type mainStartKey struct{}

// withMainStart records in ctx when main started.
func withMainStart(ctx context.Context, t time.Time) context.Context {
	return context.WithValue(ctx, mainStartKey{}, t)
}

// timings records the phases of one command; a nil *timings records
// nothing.
type timings struct {
	main, last time.Time
	b          strings.Builder
}

// newTimings returns a recorder when timingsEnv asks for one, starting
// at main's start (or now, without one in ctx).
func newTimings(ctx context.Context) *timings {
	if os.Getenv(timingsEnv) != "1" {
		return nil
	}
	t := &timings{main: time.Now()}
	if s, ok := ctx.Value(mainStartKey{}).(time.Time); ok {
		t.main = s
	}
	t.last = t.main
	fmt.Fprintf(&t.b, "main_unix_ns=%d", t.main.UnixNano())
	return t
}

// Mark ends the phase named name.
func (t *timings) Mark(name string) {
	if t == nil {
		return
	}
	now := time.Now()
	t.Add(name, now.Sub(t.last))
	t.last = now
}

// Add records a duration that is not a phase of the sequence.
func (t *timings) Add(name string, d time.Duration) {
	if t == nil {
		return
	}
	fmt.Fprintf(&t.b, " %s=%.3fms", name, float64(d.Nanoseconds())/1e6)
}

// Phase returns a function that records the phases assemble.Load reports
// (parse, build) as phases of the sequence.
func (t *timings) Phase() func(string, time.Duration) {
	if t == nil {
		return nil
	}
	return func(name string, d time.Duration) {
		t.Add(name, d)
		t.last = t.last.Add(d)
	}
}

// write prints the line, with the total since main started.
func (t *timings) write(w io.Writer) {
	if t == nil {
		return
	}
	t.Add("total", time.Since(t.main))
	fmt.Fprintf(w, "hookctl: timings: %s\n", t.b.String())
}
