package shell

import "testing"

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
