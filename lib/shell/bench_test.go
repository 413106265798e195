package shell

import (
	"strings"
	"testing"
)

// BenchmarkParse parses the kind of compound line an agent runs many
// times a session, with a cd the segments after it record.
func BenchmarkParse(b *testing.B) {
	const line = `cd /home/dev/project && go test ./... 2>&1 | tail -n 20 && git status --short`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLongOptionCluster parses a launcher given one option cluster
// of 100,000 letters, and asks whether the command after the pipe reads
// a script: linear in the cluster (the options given were a string grown
// a letter at a time, 4.9 s a guard's call on such a line).
func BenchmarkLongOptionCluster(b *testing.B) {
	line := "echo x | sudo -" + strings.Repeat("s", 100_000)
	b.ReportAllocs()
	for b.Loop() {
		segs, err := Parse(line)
		if err != nil {
			b.Fatal(err)
		}
		StdinShell(segs[len(segs)-1])
	}
}
