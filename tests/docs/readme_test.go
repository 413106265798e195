// Package docs_test keeps the README in step with the code.
package docs_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/catalogdoc"
)

var update = flag.Bool("update", false, "rewrite the README's generated sections")

const (
	begin = "<!-- events:begin -->\n"
	end   = "<!-- events:end -->"
)

// TestReadmeEventTable checks that the README's event table is the one the
// catalog generates (go test ./tests/docs -update rewrites it).
func TestReadmeEventTable(t *testing.T) {
	path := "../../README.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatal("README.md lacks the events markers")
	}
	want := catalogdoc.Table(engine.BuiltinEvents())
	got := readme[i+len(begin) : j]
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(readme[:i+len(begin)]+want+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("the README's event table differs from the catalog: run go test ./tests/docs -update")
}

// TestReadmeCommands checks that the README's first screen gives the two
// commands and that the files they name exist.
func TestReadmeCommands(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	first := string(b)
	if i := strings.Index(first, "---"); i > 0 {
		first = first[:i]
	}
	for _, want := range []string{"go run ./cmd/hookctl fire --config examples/hooks.hcl", "go test -race ./..."} {
		if !strings.Contains(first, want) {
			t.Errorf("the README's first screen lacks %q", want)
		}
	}
	for _, f := range []string{"../../examples/hooks.hcl", "../../examples/payloads/PreToolUse.pip.json", "../../examples/payloads/PreToolUse.rm.json", "../../stdlib/hookctl.d.ts"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("the README names %s: %v", f, err)
		}
	}
}
