package secrets_test

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lib/secrets"
)

// benchLines are the kind of text hooks scan: tool output, logs, code and
// config, with a few credentials among many near misses.
var benchLines = []string{
	"$ go test ./... -count=1",
	"ok  	github.com/hookctl/hookctl/engine	0.412s",
	"--- FAIL: TestParseConfig (0.00s)",
	"    config_test.go:42: got token_count=12, want 13",
	"commit " + hex40,
	"Author: Dev <dev@example.com>",
	"    fix token refresh race in the session cache",
	`{"level":"info","ts":"2025-06-01T12:00:00Z","msg":"request done","request_id":"` + uuid + `","status":200,"duration_ms":41}`,
	`{"usage":{"input_tokens":12345,"output_tokens":678,"cache_read_input_tokens":9000}}`,
	"const apiKey = process.env.API_KEY;",
	"password = config.database.password",
	`token: ${{ secrets.GITHUB_TOKEN }}`,
	"DB_HOST=db.internal",
	"DB_PASSWORD=hunter22x",
	"https://github.com/hookctl/hookctl/blob/main/engine/fire.go#L120",
	"image: ghcr.io/hookctl/hookctl@sha256:" + hex64,
	"GITHUB_TOKEN=" + ghToken,
	"    def login(self, user: str, password: str) -> Session:",
	"Authorization: Bearer " + jwtToken,
	"redis://:r3disPass77@cache:6379/0",
	"-rw-r--r--  1 dev  staff   4096 Jun  1 12:00 secrets.go",
	"index 0ac2f86..4c1c099 100644",
}

func benchText(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		b.WriteString(benchLines[i%len(benchLines)])
		b.WriteByte('\n')
	}
	return b.String()[:size]
}

func BenchmarkScan10KiB(b *testing.B) {
	text := benchText(10 << 10)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		secrets.Scan(text)
	}
}

// Clean text: only the prefilters and the always-on detectors run.
func BenchmarkScan10KiBClean(b *testing.B) {
	var b2 strings.Builder
	for i := 0; b2.Len() < 10<<10; i++ {
		if l := benchLines[i%len(benchLines)]; !secrets.Contains(l) {
			b2.WriteString(l)
			b2.WriteByte('\n')
		}
	}
	text := b2.String()[:10<<10]
	if secrets.Contains(text) {
		b.Fatal("clean text has findings")
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		secrets.Scan(text)
	}
}

func BenchmarkRedact10KiB(b *testing.B) {
	text := benchText(10 << 10)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		secrets.Redact(text)
	}
}
