package main

import (
	"errors"
	"slices"
	"testing"
)

// TestStartBreakaway: the daemon is started out of the client's job
// (CREATE_BREAKAWAY_FROM_JOB, with no console and its own process group);
// only when the job refuses breakaway is it started again, without it;
// any other failure is not retried.
func TestStartBreakaway(t *testing.T) {
	errDenied := errors.New("access denied")
	errOther := errors.New("file not found")
	refused := func(err error) bool { return errors.Is(err, errDenied) }
	with, without := daemonFlags|createBreakawayFromJob, daemonFlags
	for _, c := range []struct {
		name      string
		results   []error // what each start returns, in order
		tries     []uint32
		brokeAway bool
		err       error
	}{
		{"out of the job", []error{nil}, []uint32{with}, true, nil},
		{"breakaway refused", []error{errDenied, nil}, []uint32{with, without}, false, nil},
		{"refused, then failed", []error{errDenied, errDenied}, []uint32{with, without}, false, errDenied},
		{"another failure", []error{errOther}, []uint32{with}, false, errOther},
	} {
		t.Run(c.name, func(t *testing.T) {
			var tries []uint32
			pid, brokeAway, err := startBreakaway(func(flags uint32) (int, error) {
				tries = append(tries, flags)
				if err := c.results[len(tries)-1]; err != nil {
					return 0, err
				}
				return 42, nil
			}, refused)
			if !slices.Equal(tries, c.tries) {
				t.Errorf("started with flags %#x; want %#x", tries, c.tries)
			}
			if brokeAway != c.brokeAway || !errors.Is(err, c.err) || (err == nil) != (pid == 42) {
				t.Errorf("got pid %d, broke away %v, %v; want broke away %v, %v", pid, brokeAway, err, c.brokeAway, c.err)
			}
		})
	}
	if daemonFlags&createBreakawayFromJob != 0 || daemonFlags&detachedProcess == 0 || daemonFlags&createNewProcessGroup == 0 {
		t.Errorf("daemonFlags %#x: want DETACHED_PROCESS|CREATE_NEW_PROCESS_GROUP", daemonFlags)
	}
}
