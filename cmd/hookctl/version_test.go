package main

import (
	"runtime/debug"
	"testing"
)

func TestBuildInfoOf(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123abcd"},
		{Key: "vcs.time", Value: "2026-11-26T10:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	got := buildInfoOf(info, true)
	want := buildInfo{Version: "v1.4.0", Revision: "0123abcd", Time: "2026-11-26T10:00:00Z", Modified: true, GoVersion: "go1.26.0"}
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
}
