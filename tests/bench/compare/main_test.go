package main

import (
	"strings"
	"testing"
	"time"
)

func TestParseTimings(t *testing.T) {
	got, ok := parseTimings("hookctl: host claude\nhookctl: timings: main_unix_ns=1795587556768293753 command=0.001ms parse=0.496ms runtime=2.5ms total=7.053ms\n")
	if !ok {
		t.Fatal("no timings found")
	}
	want := map[string]time.Duration{"main_unix_ns": 1795587556768293753, "command": time.Microsecond,
		"parse": 496 * time.Microsecond, "runtime": 2500 * time.Microsecond, "total": 7053 * time.Microsecond}
	for k, v := range want {
		if d := got[k] - v; d < -time.Nanosecond || d > time.Nanosecond {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if _, ok := parseTimings("hookctl: host claude\n"); ok {
		t.Error("found timings in a stderr without them")
	}
}

func TestInitTime(t *testing.T) {
	trace := "init internal/bytealg @0 ms, 0 ms clock, 0 bytes, 0 allocs\n" +
		"init github.com/google/pprof/profile @2.4 ms, 0.24 ms clock, 153960 bytes, 1167 allocs\n" +
		"init main @6.8 ms, 0.005 ms clock, 336 bytes, 2 allocs\nhookctl version dev\n"
	if got, want := initTime(trace), 245*time.Microsecond; got != want {
		t.Fatalf("initTime = %v, want %v", got, want)
	}
}

func TestMedianRow(t *testing.T) {
	us := time.Microsecond
	got := medianRow([]row{
		{name: "x", p50: 30 * us, p99: 90 * us, mean: 31 * us},
		{name: "x", p50: 10 * us, p99: 50 * us, mean: 12 * us},
		{name: "x", p50: 20 * us, p99: 70 * us, mean: 20 * us},
	})
	if got.p50 != 20*us || got.p99 != 70*us || got.mean != 20*us || got.name != "x" {
		t.Errorf("%+v", got)
	}
	if !strings.Contains(got.note, "3 rounds") || !strings.Contains(got.note, "10.0 µs to 30.0 µs") {
		t.Errorf("note %q", got.note)
	}
}

func TestMedianRowBest(t *testing.T) {
	us := time.Microsecond
	got := medianRow([]row{{p50: 30 * us}, {p50: 10 * us}, {p50: 20 * us}})
	if got.best != 10*us {
		t.Errorf("best %v, want 10µs", got.best)
	}
}

func TestPairedRatios(t *testing.T) {
	us := time.Microsecond
	a := []row{{p50: 40 * us}, {p50: 30 * us}, {p50: 90 * us}}
	b := []row{{p50: 10 * us}, {p50: 10 * us}, {p50: 10 * us}}
	r, ok := pairedRatios(a, b)
	if !ok || r.med != 4 || r.lo != 3 || r.hi != 9 {
		t.Fatalf("%+v %v", r, ok)
	}
	if _, ok := pairedRatios(a, b[:2]); ok {
		t.Fatal("rounds of different counts paired")
	}
	if got := r.String(); got != "4.00× (rounds 3.00–9.00×)" {
		t.Fatalf("%q", got)
	}
}

func TestExprFloor(t *testing.T) {
	f, err := measureExprFloor(map[string]any{"tool_name": "Bash", "session_id": "s", "tool_input": map[string]any{"command": "rm -r x"}}, 1000)
	if err != nil || f.perHook <= 0 || f.shared <= 0 {
		t.Fatalf("%+v %v", f, err)
	}
}
