package kv_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/hookctl/hookctl/state/kv"
)

// TestCrossProcessFile proves that File never loses an update when
// several processes share one state file. It runs procs copies of the
// test binary at once (see child in main_test.go); each opens the same,
// not yet existing, file and does rounds rounds of Incr, Set of its own
// key and a CompareAndSwap loop. Afterwards the Incr counter and the CAS
// counter must both be exactly procs*rounds, every child key must be
// there, and the values Incr returned across all processes must be
// exactly 1..procs*rounds, each once.
func TestCrossProcessFile(t *testing.T) {
	procs, rounds := 8, 50
	if testing.Short() {
		procs, rounds = 4, 20
	}
	path := filepath.Join(t.TempDir(), "state", "kv.json")
	outs := runChildren(t, procs, rounds, path)

	total := procs * rounds
	var all []int64
	ranges := make([][2]int64, procs)
	for i, out := range outs {
		var got []int64
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			n, err := strconv.ParseInt(sc.Text(), 10, 64)
			if err != nil {
				t.Fatalf("child %d printed %q", i, sc.Text())
			}
			got = append(got, n)
		}
		if len(got) != rounds {
			t.Fatalf("child %d did %d increments, want %d", i, len(got), rounds)
		}
		if !slices.IsSorted(got) {
			t.Errorf("child %d saw the counter go backwards: %v", i, got)
		}
		ranges[i] = [2]int64{got[0], got[len(got)-1]}
		all = append(all, got...)
	}
	slices.Sort(all)
	for i, n := range all {
		if n != int64(i+1) {
			t.Fatalf("Incr results across processes are not exactly 1..%d: position %d holds %d", total, i, n)
		}
	}

	// Evidence that the processes really ran at the same time: some
	// child's increments fall between another child's first and last.
	overlaps := 0
	for i := range ranges {
		for j := range ranges {
			if i != j && ranges[j][0] > ranges[i][0] && ranges[j][0] < ranges[i][1] {
				overlaps++
			}
		}
	}
	t.Logf("%d processes x %d rounds: %d overlapping pairs of Incr ranges", procs, rounds, overlaps)
	if overlaps == 0 {
		t.Errorf("children ran one after another (ranges %v); the test proved nothing about concurrency", ranges)
	}

	s, err := kv.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, key := range []string{"counter", "cas"} {
		v, _, err := s.Get(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if v != int64(total) {
			t.Errorf("%s = %v, want %d", key, v, total)
		}
	}
	keys, err := s.Keys(ctx, "child/")
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != total {
		t.Errorf("%d child keys, want %d", len(keys), total)
	}
	for i := range procs {
		for r := range rounds {
			k := fmt.Sprintf("child/%d/%03d", i, r)
			if v, ok, err := s.Get(ctx, k); err != nil || !ok || v != int64(r) {
				t.Fatalf("Get(%s) = %v, %v, %v; want %d", k, v, ok, err, r)
			}
		}
	}
}

// runChildren starts procs children, releases them together by closing
// their stdin, waits for all and returns their standard outputs.
func runChildren(t *testing.T, procs, rounds int, path string) [][]byte {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	type proc struct {
		cmd         *exec.Cmd
		stdout, err bytes.Buffer
	}
	ps := make([]*proc, procs)
	var release []func() error
	for i := range ps {
		p := &proc{cmd: exec.Command(exe)}
		p.cmd.Env = append(os.Environ(),
			envChild+"="+strconv.Itoa(i),
			envPath+"="+path,
			envOps+"="+strconv.Itoa(rounds),
		)
		p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.err
		in, err := p.cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ps[i] = p
		release = append(release, in.Close)
	}
	for _, r := range release {
		r()
	}
	outs := make([][]byte, procs)
	for i, p := range ps {
		if err := p.cmd.Wait(); err != nil {
			t.Errorf("child %d: %v\n%s", i, err, p.err.Bytes())
		}
		outs[i] = p.stdout.Bytes()
	}
	if t.Failed() {
		t.FailNow()
	}
	return outs
}
