package stdlib

import (
	"io/fs"
	"testing"
)

// The embedded modules compile when a runtime first requires them: every
// one of them must compile, so that none fails only then.
func TestEmbeddedModulesCompile(t *testing.T) {
	names, err := fs.Glob(jsSources, "js/*.js")
	if err != nil || len(names) == 0 {
		t.Fatalf("no embedded modules: %v", err)
	}
	for _, name := range names {
		if _, err := compileJSModule(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := jsModule("js/missing.js"); err == nil {
		t.Error("a module that is not embedded was accepted")
	}
}
