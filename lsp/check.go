package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/safefile"
	"github.com/hookctl/hookctl/lint"
)

// CheckRequest is what a Checker checks: the configuration directory Dir
// (every *.hcl file in it but the test files) or, when Tests is set, the
// test files of Dir; Overlay holds the editor's unsaved buffers, by
// absolute path, to be read instead of the disk.
type CheckRequest struct {
	Dir     string
	Tests   bool
	Overlay map[string][]byte
}

// Checker returns the diagnostics of a configuration or of its test
// files. It may take long (loading runs the scripts' top level); ctx is
// cancelled when a newer edit supersedes the check.
type Checker func(ctx context.Context, req CheckRequest) []hcl.Diagnostic

// defaultChecker checks as hookctl validate and hookctl test do: the
// configuration is assembled and loaded into an engine, then lint.Check
// adds validate's warnings; test files are decoded by hcl.ParseTests.
func defaultChecker(o options) Checker {
	return func(ctx context.Context, req CheckRequest) []hcl.Diagnostic {
		if req.Tests {
			files, _ := hcl.TestFiles(req.Dir)
			for p := range req.Overlay {
				if filepath.Dir(p) == req.Dir && hcl.IsTestFile(p) && !slices.Contains(files, p) {
					files = append(files, p)
				}
			}
			sort.Strings(files)
			if len(files) == 0 {
				return nil
			}
			return hcl.ParseTests(files, hcl.WithOverlay(req.Overlay)).Diagnostics().List
		}
		eng, err := assemble.NewEngine(o.engineOptions...)
		if err != nil {
			return []hcl.Diagnostic{{File: req.Dir, Severity: hcl.SeverityError, Summary: "Engine unavailable", Detail: err.Error()}}
		}
		defer eng.Close(context.WithoutCancel(ctx))
		var parts []assemble.Part
		if o.layers != nil {
			parts = o.layers(req.Dir)
		}
		parts = append(parts, assemble.Part{Layer: assemble.LayerProject, Path: req.Dir})
		cfg, err := assemble.LoadLayers(parts, assemble.WithEngine(eng), assemble.WithProjectDir(o.projectDir), assemble.WithOverlay(req.Overlay))
		if err != nil {
			var d *hcl.Diagnostics
			if errors.As(err, &d) {
				return d.List
			}
			return []hcl.Diagnostic{{File: req.Dir, Severity: hcl.SeverityError, Summary: "Configuration unreadable", Detail: err.Error()}}
		}
		defer cfg.Close()
		if err := eng.Load(cfg.Engine); err != nil {
			return append(cfg.Warnings.List, hcl.Diagnostic{File: req.Dir, Severity: hcl.SeverityError, Summary: "Configuration does not load", Detail: err.Error()})
		}
		return cfg.Warnings.With(lint.Check(cfg.Decoded(), eng)...).List // the project's lint
	}
}

// checkKey names one check: a directory's configuration or its tests.
type checkKey struct {
	dir   string
	tests bool
}

// checkState is the state of a key's checks: at most one runs at a time;
// an edit while it runs cancels it and marks the key dirty, so that the
// newest contents are checked next and a superseded result is dropped.
type checkState struct {
	running bool
	gen     int
	cancel  context.CancelFunc
	// published are the files whose diagnostics were last published
	// non-empty, to clear them.
	published map[string]bool
}

// schedule checks the configuration (or the tests) that the file at path
// belongs to, in the background.
func (s *Server) schedule(path string) {
	if !isHCL(path) {
		return
	}
	key := checkKey{dir: filepath.Dir(path), tests: testFile(path)}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.checks[key]
	if st == nil {
		st = &checkState{published: map[string]bool{}}
		s.checks[key] = st
	}
	st.gen++
	if st.cancel != nil {
		st.cancel()
	}
	if st.running {
		return // the running check starts over when it ends
	}
	st.running = true
	s.wg.Add(1)
	go s.runChecks(key, st)
}

func (s *Server) runChecks(key checkKey, st *checkState) {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		gen := st.gen
		ctx, cancel := context.WithCancel(context.Background())
		st.cancel = cancel
		overlay := map[string][]byte{}
		open := map[string]*document{}
		for _, d := range s.docs {
			p := d.path
			overlay[p] = d.text
			if filepath.Dir(p) == key.dir && testFile(p) == key.tests {
				open[p] = &document{uri: d.uri, path: p, version: d.version, text: d.text}
			}
		}
		s.mu.Unlock()

		diags := s.safeCheck(ctx, CheckRequest{Dir: key.dir, Tests: key.tests, Overlay: overlay})
		cancel()

		s.mu.Lock()
		if st.gen != gen {
			s.mu.Unlock()
			continue // superseded while it ran: check the newest contents
		}
		st.running, st.cancel = false, nil
		conn := s.conn
		stale := st.published
		st.published = map[string]bool{}
		byFile := group(key, diags, open)
		for p := range byFile {
			st.published[p] = true
		}
		s.mu.Unlock()
		if conn == nil {
			return
		}
		ctx = context.Background()
		for p := range stale {
			if _, ok := byFile[p]; !ok {
				byFile[p] = nil
			}
		}
		for p := range open {
			if _, ok := byFile[p]; !ok {
				byFile[p] = nil
			}
		}
		for p, ds := range byFile {
			text := overlay[p]
			var version *int
			uri := pathURI(p)
			if d := open[p]; d != nil {
				// The URI the editor named the buffer by, which may
				// not be the clean one (`..`, %2e, another escaping):
				// published by another, the diagnostics reach no
				// buffer.
				version, uri = &d.version, d.uri
			} else if text == nil {
				text, _ = safefile.ReadRegular(p)
			}
			out := make([]Diagnostic, 0, len(ds))
			for _, d := range ds {
				out = append(out, toLSP(d, text))
			}
			_ = conn.Notify(ctx, "textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: uri, Version: version, Diagnostics: out})
		}
		return
	}
}

// group sorts diagnostics by file (a script's own, for the event.<path>
// reads of a script file, included); one without a file (the directory
// has no configuration, the engine refused it) goes to every open buffer
// of the key, at its first line.
func group(key checkKey, diags []hcl.Diagnostic, open map[string]*document) map[string][]hcl.Diagnostic {
	out := map[string][]hcl.Diagnostic{}
	for _, d := range diags {
		f := d.File
		if f != "" && !filepath.IsAbs(f) {
			f = filepath.Join(key.dir, f)
		}
		if f == "" {
			d.Line, d.Column, d.EndLine, d.EndColumn = 0, 0, 0, 0
			for p := range open {
				out[p] = append(out[p], d)
			}
			continue
		}
		out[f] = append(out[f], d)
	}
	return out
}

// safeCheck runs the checker; a panic in it is a diagnostic, not the end
// of the server.
func (s *Server) safeCheck(ctx context.Context, req CheckRequest) (diags []hcl.Diagnostic) {
	defer func() {
		if p := recover(); p != nil {
			s.opts.logger.Error("lsp: check panicked", "dir", req.Dir, "panic", p)
			diags = []hcl.Diagnostic{{Severity: hcl.SeverityError, Summary: "Internal error", Detail: fmt.Sprintf("checking %s: %v", req.Dir, p)}}
		}
	}()
	return s.opts.check(ctx, req)
}
