package main

import (
	"fmt"
	"runtime/debug"
	"sync"
	"text/tabwriter"

	"github.com/spf13/cobra"
)

// buildInfo is what `hookctl version` prints: where the binary came from.
type buildInfo struct {
	// Version is the module version ("v1.2.0", a pseudo-version), or
	// "dev" for a binary built from a work tree.
	Version string `json:"version"`
	// Revision, Time and Modified are the VCS revision the binary was
	// built from, its commit time (RFC 3339) and whether the work tree
	// had uncommitted changes; empty (Modified nil: unknown, not false)
	// when the build recorded no VCS information (go run, go test,
	// -buildvcs=false).
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified *bool  `json:"modified,omitempty"`
	// GoVersion is the Go toolchain that built the binary.
	GoVersion string `json:"go_version"`
}

// releaseVersion is the release a binary was built as, set by the
// linker (-ldflags "-X main.releaseVersion=v1.2.0": .goreleaser.yaml);
// empty in a binary built otherwise, whose version is the module's.
var releaseVersion string

// readBuildInfo reads the binary's build information once per process:
// the version string is constant, and parsing it costs allocations on
// every command's start otherwise (telemetry and --version ask too).
var readBuildInfo = sync.OnceValue(func() buildInfo {
	return withRelease(buildInfoOf(debug.ReadBuildInfo()), releaseVersion)
})

// withRelease is bi with the release version, when there is one: a
// release binary shows the release it is, even when built from a work
// tree whose module version is "(devel)".
func withRelease(bi buildInfo, release string) buildInfo {
	if release != "" {
		bi.Version = release
	}
	return bi
}

// buildInfoOf is what version prints of the Go runtime's build info.
func buildInfoOf(info *debug.BuildInfo, ok bool) buildInfo {
	bi := buildInfo{Version: "dev"}
	if !ok || info == nil {
		return bi
	}
	bi.GoVersion = info.GoVersion
	if v := info.Main.Version; v != "" && v != "(devel)" {
		bi.Version = v
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			bi.Revision = s.Value
		case "vcs.time":
			bi.Time = s.Value
		case "vcs.modified":
			m := s.Value == "true"
			bi.Modified = &m
		}
	}
	return bi
}

// version is the module version of the binary, "dev" without one.
func version() string { return readBuildInfo().Version }

// writeVersion prints the build information as text.
func (a *app) writeVersion() error {
	bi := readBuildInfo()
	fmt.Fprintf(a.stdout, "hookctl version %s\n", bi.Version)
	tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
	rev := bi.Revision
	if rev == "" {
		rev = "unknown (built without VCS information)"
	} else if bi.Modified != nil && *bi.Modified {
		rev += " (modified)"
	}
	fmt.Fprintf(tw, "revision:\t%s\n", rev)
	if bi.Time != "" {
		fmt.Fprintf(tw, "time:\t%s\n", bi.Time)
	}
	fmt.Fprintf(tw, "go:\t%s\n", bi.GoVersion)
	return tw.Flush()
}

func newVersionCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print the version, VCS revision and Go version of this binary",
		Long: `version prints the version of hookctl (the release, such as v1.2.0, for a
release binary; else the module version: a tag, a pseudo-version, or "dev" for a
binary built from a clone), the VCS revision and
commit time it was built from with "(modified)" when the work tree had
uncommitted changes, and the Go version that built it. hookctl --version and
hookctl -v print the same. --json prints one object: version, revision, time,
modified, go_version (revision, time and modified are left out when the build
recorded no VCS information).`,
		Example: `  hookctl version
  hookctl version --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				return writeJSON(a.stdout, readBuildInfo(), true)
			}
			return a.writeVersion()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
