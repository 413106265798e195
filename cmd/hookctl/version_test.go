package main

import (
	"encoding/json"
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
