package assemble_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/assemble"
)

// Hash depends on the files' contents and paths relative to the
// configuration's directory, not on where the configuration is loaded from
// or how its path is spelled; a change to a script it uses changes it.
func TestConfigHash(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("hooks.hcl", `hook "a" {
  event  = "PreToolUse"
  script = "scripts/a.js"
}
`)
	write("scripts/a.js", `module.exports = function (event) { return { decision: "allow" } }`)
	hash := func(path string) string {
		t.Helper()
		h, err := load(t, path).Hash()
		if err != nil || len(h) != 64 {
			t.Fatalf("hash %q %v", h, err)
		}
		return h
	}
	h1 := hash(filepath.Join(dir, "hooks.hcl"))
	if h := hash(dir); h != h1 {
		t.Errorf("the directory hashes %s, its file %s", h, h1)
	}
	t.Chdir(dir)
	if h := hash("hooks.hcl"); h != h1 {
		t.Errorf("a relative path hashes %s, the absolute one %s", h, h1)
	}
	// The same files elsewhere: the same hash.
	other := t.TempDir()
	for _, f := range []string{"hooks.hcl", "scripts/a.js"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		_ = os.MkdirAll(filepath.Dir(filepath.Join(other, f)), 0o755)
		_ = os.WriteFile(filepath.Join(other, f), b, 0o600)
	}
	if h := hash(filepath.Join(other, "hooks.hcl")); h != h1 {
		t.Errorf("a copy hashes %s, the original %s", h, h1)
	}
	write("scripts/a.js", `module.exports = function (event) { return { decision: "deny" } }`)
	h2 := hash(filepath.Join(dir, "hooks.hcl"))
	if h2 == h1 {
		t.Error("a changed script left the hash as it was")
	}
	// A configuration's hash is computed once: it names what was loaded.
	cfg := load(t, filepath.Join(dir, "hooks.hcl"))
	before, _ := cfg.Hash()
	write("scripts/a.js", `module.exports = function () {}`)
	if after, _ := cfg.Hash(); after != before || before != h2 {
		t.Errorf("hash %s then %s, want %s", before, after, h2)
	}
}

func ExampleConfig_Hash() {
	cfg, err := assemble.LoadSource("hooks.hcl", []byte(`hook "a" {
  event    = "Stop"
  decision = "block"
}
`), ".")
	if err != nil {
		panic(err)
	}
	defer cfg.Close()
	h, _ := cfg.Hash()
	fmt.Println(len(h), "hex digits") // the same for the same files anywhere
	// Output: 64 hex digits
}
