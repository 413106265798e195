package gopool

import "testing"

// TestABusyWorkerTakesNoCall: a call that never returns (a hook that
// ignores its context, past the deadline) keeps its worker; the next
// call runs on another, and a worker that was idle is handed one call
// only.
func TestABusyWorkerTakesNoCall(t *testing.T) {
	var w Pool
	parked := make(chan struct{}, 4)
	w.Parked = func() { parked <- struct{}{} }
	w.Go(func() {})
	<-parked // one idle worker
	stuck, release := make(chan struct{}), make(chan struct{})
	w.Go(func() { close(stuck); <-release })
	<-stuck // the idle worker is busy for good
	ran := make(chan int, 2)
	w.Go(func() { ran <- 1 })
	w.Go(func() { ran <- 2 })
	if a, b := <-ran, <-ran; a+b != 3 {
		t.Fatalf("ran %d and %d", a, b)
	}
	close(release)
}
