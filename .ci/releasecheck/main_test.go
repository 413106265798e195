package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheck: the repository's configuration passes; one with a misspelled
// key is refused as GoReleaser refuses it; one that lost a platform, the
// release version or the SBOM is reported.
func TestCheck(t *testing.T) {
	if problems, err := check("../../.goreleaser.yaml"); err != nil || len(problems) > 0 {
		t.Fatalf("the repository's configuration: %v %q", err, problems)
	}
	b, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	good := string(b)
	write := func(s string) string {
		p := filepath.Join(t.TempDir(), ".goreleaser.yaml")
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if _, err := check(write(strings.Replace(good, "mod_timestamp:", "mod_timestmap:", 1))); err == nil {
		t.Fatal("a misspelled key passed")
	}
	for name, c := range map[string]struct{ old, new, want string }{
		"platform": {"goarch: [amd64, arm64]", "goarch: [amd64]", "no linux/arm64"},
		"version":  {"-X main.releaseVersion=v{{ .Version }}", "", "releaseVersion"},
		"sbom":     {"sboms:", "sboms_off:", ""},
		"skip":     {"    goarch: [amd64, arm64]\n", "    goarch: [amd64, arm64]\n    skip: true\n", "skip is"},
		"ignore":   {"    goarch: [amd64, arm64]\n", "    goarch: [amd64, arm64]\n    ignore:\n      - goos: windows\n        goarch: arm64\n", "leaves out windows/arm64"},
		"archive":  {"ids: [hookctl, hookctl-client]", "ids: [hookctl]", "leave out build hookctl-client"},
	} {
		s := strings.Replace(good, c.old, c.new, 1)
		if name == "sbom" {
			s = good[:strings.Index(good, "sboms:")] + good[strings.Index(good, "# The module's repository"):]
			c.want = "no sboms"
		}
		problems, err := check(write(s))
		if err != nil || !strings.Contains(strings.Join(problems, "\n"), c.want) {
			t.Errorf("%s: %v %q, want %q", name, err, problems, c.want)
		}
	}
}
