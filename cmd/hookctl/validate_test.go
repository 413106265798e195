package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestValidateJSONSchema decodes validate --json's output: every field of
// the documented schema, no other, each diagnostic with all ten keys.
func TestValidateJSONSchema(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "hooks.hcl")
	src := "hook \"a\" {\n  event = \"UserPromptSubmit\"\n  matcher = \"Bash\"\n  additional_context = \"x\"\n}\nhook \"b\" {\n  event = \"Stopp\"\n  decision = \"block\"\n}\n"
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"validate", "--json", "--config", cfg}, strings.NewReader(""), &stdout, &stderr); code != exitFailure {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, &stderr)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", &stderr)
	}
	var rep map[string]json.RawMessage
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, &stdout)
	}
	if got, want := slices.Sorted(maps.Keys(rep)), []string{"config", "diagnostics", "errors", "ok", "strict", "warnings"}; !slices.Equal(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}
	var diags []map[string]any
	if err := json.Unmarshal(rep["diagnostics"], &diags); err != nil {
		t.Fatal(err)
	}
	want := []string{"code", "column", "detail", "end_column", "end_line", "file", "line", "severity", "suggestion", "summary"}
	sevs := map[any]int{}
	for _, d := range diags {
		if got := slices.Sorted(maps.Keys(d)); !slices.Equal(got, want) {
			t.Errorf("diagnostic keys %v, want %v", got, want)
		}
		if c, _ := d["code"].(string); len(c) != 6 || !strings.HasPrefix(c, "HK") {
			t.Errorf("code %q", d["code"])
		}
		sevs[d["severity"]]++
	}
	// The unknown event; the matcher warning, if the loader got to it.
	if sevs["error"] != 1 || len(diags) != sevs["error"]+sevs["warning"] {
		t.Errorf("severities %v", sevs)
	}
}
