package lsp

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkCheckExamples: one diagnostics pass over the repository's
// example configuration (what each edit costs in the background).
func BenchmarkCheckExamples(b *testing.B) {
	dir, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		b.Fatal(err)
	}
	check := defaultChecker(options{projectDir: dir})
	for b.Loop() {
		check(context.Background(), CheckRequest{Dir: dir})
	}
}

// BenchmarkCompletion: a completion of payload paths in a when.
func BenchmarkCompletion(b *testing.B) {
	s := New(WithChecker(nilChecker))
	uri := pathURI("/nonexistent/hooks.hcl")
	s.docs["/nonexistent/hooks.hcl"] = &document{uri: uri, text: []byte(editing)}
	p := pos(uri, positionOf([]byte(editing), len("hook \"guard\" {\n  event   = \"PreToolUse\"\n  matcher = \"Bash\"\n  when    = \"tool_input.co")))
	for b.Loop() {
		if _, err := s.completion(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
}
