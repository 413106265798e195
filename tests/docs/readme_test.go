// Package docs_test keeps the README and the pages of docs/ in step with the
// code: the generated event table, the links between the pages, and the
// commands the README shows, which it runs.
package docs_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/catalogdoc"
)

var update = flag.Bool("update", false, "rewrite the generated sections of the docs (the event table of docs/events.md)")

const (
	begin = "<!-- events:begin -->\n"
	end   = "<!-- events:end -->"
)

// eventsPage is the page that holds the event table the catalog generates.
const eventsPage = "../../docs/events.md"

// TestEventTable checks that the event table of docs/events.md is the one
// the catalog generates (go test ./tests/docs -update rewrites it).
func TestEventTable(t *testing.T) {
	b, err := os.ReadFile(eventsPage)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	i, j := strings.Index(page, begin), strings.Index(page, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the events markers", eventsPage)
	}
	want := catalogdoc.Table(engine.BuiltinEvents())
	got := page[i+len(begin) : j]
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(eventsPage, []byte(page[:i+len(begin)]+want+page[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("the event table of %s differs from the catalog: run go test ./tests/docs -update", eventsPage)
}

// TestReadmeCommands checks that the README's first screen (what comes before
// its Install section) gives the two commands, that the files they name exist,
// and that the first screen is followed by Install, Quickstart and the
// contents, in that order.
func TestReadmeCommands(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	first, _, ok := strings.Cut(readme, "\n## Install\n")
	if !ok {
		t.Fatal("the README has no Install section")
	}
	for _, want := range []string{"go run ./cmd/hookctl fire --config examples/hooks.hcl", "go test -race ./..."} {
		if !strings.Contains(first, want) {
			t.Errorf("the README's first screen lacks %q", want)
		}
	}
	if strings.Contains(first, "\n## ") {
		t.Error("the README has a section before Install")
	}
	last := 0
	for _, h := range []string{"\n## Install\n", "\n## Quickstart", "\n## Documentation\n"} {
		i := strings.Index(readme, h)
		if i < last {
			t.Errorf("the README's %q is missing or out of order", strings.TrimSpace(h))
			continue
		}
		last = i
	}
	for _, f := range []string{"../../examples/hooks.hcl", "../../examples/payloads/PreToolUse.pip.json", "../../examples/payloads/PreToolUse.rm.json"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("the README names %s: %v", f, err)
		}
	}
}
