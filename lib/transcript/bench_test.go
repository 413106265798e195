package transcript_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/lib/transcript"
)

// The fixture: 19 lines, 115 KiB, one of them a 103 KiB tool result.
func BenchmarkRead(b *testing.B) {
	data := readFixture(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := transcript.Read(context.Background(), bytes.NewReader(data), transcript.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// largeTranscript writes a 64 MiB transcript made of copies of the fixture.
func largeTranscript(b *testing.B) string {
	data := readFixture(b)
	path := filepath.Join(b.TempDir(), "large.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	for written := 0; written < 64<<20; written += len(data) {
		if _, err := f.Write(data); err != nil {
			b.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// A 64 MiB transcript read with the default 8 MiB window: the cost is that
// of the window, not of the file.
func BenchmarkReadFileLarge(b *testing.B) {
	path := largeTranscript(b)
	b.SetBytes(transcript.DefaultMaxBytes)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := transcript.ReadFile(context.Background(), path, transcript.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// LastAssistantText on the same file reads only the last lines.
func BenchmarkLastAssistantTextLarge(b *testing.B) {
	path := largeTranscript(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := transcript.LastAssistantText(context.Background(), path); err != nil {
			b.Fatal(err)
		}
	}
}
