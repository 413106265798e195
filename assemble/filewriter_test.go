package assemble_test

import (
	"os"
	"testing"
	"time"
)

// fileWriter replaces files whole (a temporary file renamed over the old
// one), each with a modification time a second after the previous file's:
// a watcher comparing modification times sees every change, however soon
// it follows the last one and however coarse the file system's clock, and
// never a file half written. No test has to sleep for mtimes to differ.
type fileWriter struct {
	t   testing.TB
	mod time.Time
}

func newFileWriter(t testing.TB) *fileWriter {
	return &fileWriter{t: t, mod: time.Now().Add(-time.Hour).Truncate(time.Second)}
}

func (w *fileWriter) write(path, src string) {
	w.t.Helper()
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte(src), 0o644); err != nil {
		w.t.Fatal(err)
	}
	w.mod = w.mod.Add(time.Second)
	if err := os.Chtimes(tmp, w.mod, w.mod); err != nil {
		w.t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		w.t.Fatal(err)
	}
}
