package jsonl_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCrossProcessAppend proves that appends from concurrent processes
// never interleave, split or lose a line, with and without rotation. It
// runs procs copies of the test binary at once (see child in
// main_test.go), each appending rounds records to the same log, then
// reads the log and its backups, oldest first, and requires that:
//
//   - every line is one complete, valid JSON object and valid UTF-8;
//   - there are exactly procs*rounds lines, each (proc, seq) exactly once;
//   - each process's records appear in the order it appended them, across
//     rotations;
//   - when rotation drops old backups, what is left of each process's
//     records is an unbroken run ending with its last one;
//   - the secret was redacted in every line;
//   - with rotation, no file exceeds MaxBytes and no more than MaxBackups
//     backups exist.
func TestCrossProcessAppend(t *testing.T) {
	procs, rounds := 8, 200
	if testing.Short() {
		procs, rounds = 4, 50
	}
	tests := []struct {
		name       string
		maxBytes   int64
		maxBackups int
		drops      bool // rotation discards the oldest lines
	}{
		{"no rotation", -1, 0, false},
		// Big enough a backlog that rotation never drops a line, so
		// that the count must still be exact.
		{"rotation", 16 << 10, 200, false},
		// Rotation drops old files: what is left must be, for every
		// process, an unbroken run of its latest records.
		{"rotation dropping backups", 16 << 10, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "logs", "audit.jsonl")
			runChildren(t, procs, rounds, path, tt.maxBytes, tt.maxBackups)

			files := logFiles(t, path)
			if tt.maxBytes > 0 && len(files) < 3 {
				t.Fatalf("only %d files: the test did not rotate enough to prove anything", len(files))
			}
			if n := len(files) - 1; tt.maxBackups > 0 && n > tt.maxBackups {
				t.Errorf("%d backups, MaxBackups is %d", n, tt.maxBackups)
			}
			next := make([]int, procs) // next seq expected from each proc
			seen := make([]bool, procs)
			lines, switches, lastProc := 0, 0, -1
			for _, f := range files {
				raw, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if tt.maxBytes > 0 && int64(len(raw)) > tt.maxBytes {
					t.Errorf("%s: %d bytes, MaxBytes is %d", filepath.Base(f), len(raw), tt.maxBytes)
				}
				if len(raw) > 0 && raw[len(raw)-1] != '\n' {
					t.Errorf("%s does not end with a newline", filepath.Base(f))
				}
				sc := bufio.NewScanner(bytes.NewReader(raw))
				sc.Buffer(nil, 1<<20)
				for sc.Scan() {
					lines++
					rec := decodeLine(t, sc.Bytes())
					p, s := int(rec["proc"].(float64)), int(rec["seq"].(float64))
					if p < 0 || p >= procs {
						t.Fatalf("%s: proc %d", filepath.Base(f), p)
					}
					if tt.drops && !seen[p] {
						next[p] = s // older records may be gone
					}
					seen[p] = true
					if s != next[p] {
						t.Fatalf("%s: proc %d seq %d, want seq %d", filepath.Base(f), p, s, next[p])
					}
					next[p]++
					if p != lastProc {
						switches++
						lastProc = p
					}
					cmd := rec["tool_input"].(map[string]any)["command"].(string)
					if strings.Contains(cmd, "sk-secret") || !strings.Contains(cmd, "[REDACTED]") || !strings.Contains(cmd, "\uFFFD\n") {
						t.Fatalf("command not redacted and sanitized: %q", cmd)
					}
				}
			}
			if lines != procs*rounds && !tt.drops {
				t.Errorf("%d lines, want %d", lines, procs*rounds)
			}
			for p, n := range next {
				if tt.drops && !seen[p] {
					continue // all of its records were in dropped files
				}
				if n != rounds {
					t.Errorf("proc %d: records end before seq %d, want %d", p, n, rounds)
				}
			}
			t.Logf("%d processes x %d appends: %d lines in %d files, %d switches between processes",
				procs, rounds, lines, len(files), switches)
			if !tt.drops && switches <= procs {
				t.Errorf("only %d switches between processes: they did not run at the same time", switches)
			}
		})
	}
}

// decodeLine checks that line is exactly one valid JSON object.
func decodeLine(t *testing.T, line []byte) map[string]any {
	t.Helper()
	if !json.Valid(line) {
		t.Fatalf("invalid JSON line: %q", line)
	}
	var rec map[string]any
	if err := json.Unmarshal(line, &rec); err != nil {
		t.Fatalf("line %q: %v", line, err)
	}
	return rec
}

// logFiles returns path and its backups, oldest first.
func logFiles(t *testing.T, path string) []string {
	t.Helper()
	var files []string
	for i := 1; ; i++ {
		f := path + "." + strconv.Itoa(i)
		if _, err := os.Stat(f); err != nil {
			break
		}
		files = append([]string{f}, files...)
	}
	return append(files, path)
}

// runChildren starts procs children, releases them together by closing
// their stdin and waits for all of them.
func runChildren(t *testing.T, procs, rounds int, path string, maxBytes int64, maxBackups int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmds := make([]*exec.Cmd, procs)
	stderrs := make([]*bytes.Buffer, procs)
	var release []func() error
	for i := range cmds {
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(),
			envChild+"="+strconv.Itoa(i),
			envPath+"="+path,
			envOps+"="+strconv.Itoa(rounds),
			fmt.Sprintf("%s=%d", envMaxBytes, maxBytes),
			fmt.Sprintf("%s=%d", envMaxBackups, maxBackups),
		)
		stderrs[i] = new(bytes.Buffer)
		cmd.Stderr = stderrs[i]
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = cmd
		release = append(release, in.Close)
	}
	for _, r := range release {
		r()
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("child %d: %v\n%s", i, err, stderrs[i].Bytes())
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}
