//go:build !linux

package proc

// BecomeSubreaper does nothing where there is no child subreaper: a
// hook's orphaned descendant goes to init.
func BecomeSubreaper() error { return nil }

func startRun(start func() error, _ func() int) error { return start() }

func endRun(int) {}
