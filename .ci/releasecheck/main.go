// Command releasecheck checks .goreleaser.yaml as GoReleaser reads it
// (github.com/goreleaser/goreleaser/v2/pkg/config, strictly: an unknown
// or misspelled key, a wrong type or a version other than 2 is an error),
// and that it still builds what a release promises: hookctl and
// hookctl-client for linux, darwin and windows on amd64 and arm64,
// hookctl's release version set by the linker, checksums and an SBOM.
// It compiles in seconds where GoReleaser itself takes minutes: .ci/run
// runs it on every change, and goreleaser check (docs/platforms.md,
// "Releases") before a release.
//
// Usage: go run . ../../.goreleaser.yaml
package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/goreleaser/goreleaser/v2/pkg/config"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: releasecheck .goreleaser.yaml")
		os.Exit(2)
	}
	problems, err := check(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	for _, p := range problems {
		fmt.Fprintf(os.Stderr, "%s: %s\n", os.Args[1], p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
	fmt.Printf("%s: valid; builds hookctl and hookctl-client for %d platforms with checksums and an SBOM\n", os.Args[1], len(targets))
}

// targets are the platforms of a release.
var targets = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"}

// check loads the configuration strictly and says what it lacks.
func check(path string) ([]string, error) {
	p, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	var problems []string
	say := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }
	if p.Version != 2 {
		say("version is %d, want 2", p.Version)
	}
	builds := map[string]config.Build{}
	for _, b := range p.Builds {
		builds[b.ID] = b
	}
	for _, id := range []string{"hookctl", "hookctl-client"} {
		b, ok := builds[id]
		if !ok {
			say("no build %q", id)
			continue
		}
		main := "./cmd/" + id
		if b.Main != main || b.Binary != id {
			say("build %s: main %q binary %q, want %q and %q", id, b.Main, b.Binary, main, id)
		}
		var have []string
		for _, goos := range b.Goos {
			for _, goarch := range b.Goarch {
				have = append(have, goos+"/"+goarch)
			}
		}
		for _, t := range targets {
			if !slices.Contains(have, t) {
				say("build %s: no %s", id, t)
			}
		}
		if b.Skip != "" && b.Skip != "false" {
			say("build %s: skip is %q: the release would not build it", id, b.Skip)
		}
		if len(b.Targets) > 0 {
			say("build %s: targets %v replace goos × goarch", id, b.Targets)
		}
		for _, ig := range b.Ignore {
			for _, t := range targets {
				goos, goarch, _ := strings.Cut(t, "/")
				if (ig.Goos == "" || ig.Goos == goos) && (ig.Goarch == "" || ig.Goarch == goarch) {
					say("build %s: ignore %s/%s leaves out %s", id, ig.Goos, ig.Goarch, t)
				}
			}
		}
		if !slices.Contains(b.Env, "CGO_ENABLED=0") {
			say("build %s: CGO_ENABLED=0 is not set (cross-compiled binaries need it)", id)
		}
	}
	if b, ok := builds["hookctl"]; ok && !strings.Contains(strings.Join(b.Ldflags, " "), "-X main.releaseVersion=") {
		say("build hookctl: no ldflags -X main.releaseVersion=...: hookctl version would not show the release")
	}
	for i, a := range p.Archives {
		for _, id := range []string{"hookctl", "hookctl-client"} {
			if len(a.IDs) > 0 && !slices.Contains(a.IDs, id) {
				say("archive %d: ids %v leave out build %s", i, a.IDs, id)
			}
		}
	}
	if p.Checksum.Disable {
		say("checksums are disabled")
	}
	if len(p.SBOMs) == 0 {
		say("no sboms: a release has a software bill of materials")
	}
	return problems, nil
}
