package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestBuildInfoOf(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123abcd"},
		{Key: "vcs.time", Value: "2026-11-26T10:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	got := buildInfoOf(info, true)
	want := buildInfo{Version: "v1.4.0", Revision: "0123abcd", Time: "2026-11-26T10:00:00Z", GoVersion: "go1.26.0"}
	if got.Modified == nil || !*got.Modified {
		t.Fatalf("modified = %v, want true", got.Modified)
	}
	got.Modified = nil
	if got != want {
		t.Fatalf("buildInfoOf = %+v, want %+v", got, want)
	}
	// A binary built in a work tree has "(devel)": dev.
	info.Main.Version = "(devel)"
	if v := buildInfoOf(info, true).Version; v != "dev" {
		t.Fatalf("(devel) version = %q, want dev", v)
	}
	if got := buildInfoOf(nil, false); got != (buildInfo{Version: "dev"}) {
		t.Fatalf("no build info = %+v", got)
	}
	// No VCS information: modified is unknown, not false, and left out
	// of the JSON.
	noVCS := buildInfoOf(&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}}, true)
	b, err := json.Marshal(noVCS)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "modified") {
		t.Fatalf("no VCS information: %s", b)
	}
}

// TestReleaseVersion: a release binary, whose version the linker sets
// (.goreleaser.yaml's ldflags), shows that release, also when built from
// a work tree ("(devel)"); the ldflags name the variable that exists.
func TestReleaseVersion(t *testing.T) {
	dev := buildInfoOf(&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}}, true)
	if got := withRelease(dev, "v1.2.0"); got.Version != "v1.2.0" || got.GoVersion != "go1.26.0" {
		t.Fatalf("withRelease = %+v", got)
	}
	if got := withRelease(dev, ""); got.Version != "dev" {
		t.Fatalf("no release: %+v", got)
	}
	if testing.Short() {
		t.Skip("builds hookctl")
	}
	bin := filepath.Join(t.TempDir(), "hookctl")
	ldflags, err := releaseLdflags("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ldflags = strings.ReplaceAll(ldflags, "{{ .Version }}", "9.8.7")
	if out, err := exec.Command("go", "build", "-ldflags", ldflags, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build with %q: %v\n%s", ldflags, err, out)
	}
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "hookctl version v9.8.7\n") {
		t.Fatalf("hookctl version: %v\n%s", err, out)
	}
}

// releaseLdflags reads the ldflags of the hookctl build of a GoReleaser
// configuration: the one line that sets main.releaseVersion.
func releaseLdflags(config string) (string, error) {
	b, err := os.ReadFile(config)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
		if strings.Contains(line, "main.releaseVersion=") {
			return line, nil
		}
	}
	return "", fmt.Errorf("%s sets no main.releaseVersion", config)
}
