package main

import (
	"bytes"
	"io"
	"runtime"
	"testing"
)

// TestReadInputParts: a hook input of a few kilobytes is read into one
// part of 16 KiB (it was 64 KiB, four times the fresh pages for a client
// that lives a few milliseconds); a large one into parts that grow, the
// same bytes in the same order, and the limit holds.
func TestReadInputParts(t *testing.T) {
	small := bytes.Repeat([]byte("x"), 3000)
	rd := bytes.NewReader(small)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	in, err := readInput(rd, 1<<20)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 1 || !bytes.Equal(in[0], small) {
		t.Fatalf("small input read as %d parts", len(in))
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 20<<10 {
		t.Errorf("a 3,000-byte input took %d bytes", n)
	}
	big := make([]byte, 5<<20+17)
	for i := range big {
		big[i] = byte(i * 7)
	}
	in, err = readInput(bytes.NewReader(big), 80<<20)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(in.reader())
	if !bytes.Equal(got, big) || in.len() != len(big) {
		t.Fatalf("big input: %d bytes back of %d", len(got), len(big))
	}
	in, err = readInput(bytes.NewReader(big), 1<<20)
	if err != nil || in.len() != 1<<20 {
		t.Fatalf("limit: %d bytes, %v", in.len(), err)
	}
}
