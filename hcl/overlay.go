package hcl

import (
	"fmt"
	"path/filepath"
	"slices"

	hcl2 "github.com/hashicorp/hcl/v2"

	"github.com/hookctl/hookctl/internal/safefile"
)

// WithOverlay makes decoding read the files named in overlay (absolute,
// clean paths) from memory instead of from disk: the unsaved buffers of an
// editor. A directory configuration also loads the overlay's *.hcl files
// of the directory that are not on disk yet (test files excepted).
func WithOverlay(overlay map[string][]byte) Option {
	return func(o *Options) { o.Overlay = overlay }
}

// parseFile parses the file at p, from the overlay when it holds it.
func (l *loader) parseFile(p string) (*hcl2.File, hcl2.Diagnostics) {
	if src, ok := l.overlay[p]; ok {
		return l.parser.ParseHCL(src, p)
	}
	if f := l.parser.Files()[p]; f != nil {
		return f, nil
	}
	// Read here rather than by ParseHCLFile: a FIFO or a device named
	// *.hcl is refused, never waited on.
	src, err := safefile.ReadRegular(p)
	if err != nil {
		return nil, hcl2.Diagnostics{{
			Severity: hcl2.DiagError,
			Summary:  "Failed to read file",
			Detail:   fmt.Sprintf("%v.", err),
		}}
	}
	// The bytes parsed are the bytes checked: a configuration file
	// swapped between a trust check of it and this read (or named so
	// that the check and the read resolve it apart) is refused here,
	// not loaded.
	if l.fileCheck != nil {
		if err := l.fileCheck(p, src); err != nil {
			return nil, hcl2.Diagnostics{{
				Severity: hcl2.DiagError,
				Summary:  "Configuration file refused",
				Detail:   fmt.Sprintf("%v.", err),
			}}
		}
	}
	return l.parser.ParseHCL(src, p)
}

// withOverlayFiles adds to the files of the configuration directory dir
// the overlay's configuration files there, sorted.
func withOverlayFiles(dir string, files []string, overlay map[string][]byte) []string {
	if len(overlay) == 0 {
		return files
	}
	for p := range overlay {
		if filepath.Dir(p) == filepath.Clean(dir) && filepath.Ext(p) == ".hcl" && !IsTestFile(p) && !slices.Contains(files, p) {
			files = append(files, p)
		}
	}
	slices.Sort(files)
	return files
}
