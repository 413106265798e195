package script_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/script"
)

// TestStackLimitIsTheOneGiven: recursion 300 deep runs under the default
// limit and overflows under WithStackLimit(100).
func TestStackLimitIsTheOneGiven(t *testing.T) {
	body := `function f(n) { return n === 0 ? 0 : f(n - 1) + 1; } return { depth: f(300) };`
	res, err := run(t, inline(t, newPool(t, script.WithSize(1)), body), call(nil))
	if err != nil || res["depth"] != int64(300) {
		t.Fatalf("default limit: %v %v", res, err)
	}
	_, err = run(t, inline(t, newPool(t, script.WithSize(1), script.WithStackLimit(100)), body), call(nil))
	if !errors.Is(err, script.ErrStackOverflow) {
		t.Fatalf("limit 100: %v", err)
	}
}

// TestFileCheckGuardsEveryModule: with WithFileCheck, a module the check
// refuses cannot be loaded, by a script file or by an inline body; the
// bytes checked are the bytes run.
func TestFileCheckGuardsEveryModule(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ok.js"), []byte("module.exports = 1;"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "evil.js"), []byte("module.exports = 2;"), 0o644); err != nil {
		t.Fatal(err)
	}
	var seen []string
	check := func(path string, content []byte) error {
		seen = append(seen, filepath.Base(path)+"="+string(content))
		if strings.HasSuffix(path, "evil.js") {
			return errors.New("not pinned by its trust record")
		}
		return nil
	}
	p, err := script.NewPool(dir, script.WithSize(1), script.WithFileCheck(check))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ok := inline(t, p, `return { v: require("./ok") };`)
	if res, err := run(t, ok, call(nil)); err != nil || res["v"] != int64(1) {
		t.Fatalf("pinned module: %v %v", res, err)
	}
	evil := inline(t, p, `return { v: require("./evil") };`)
	if _, err := run(t, evil, call(nil)); err == nil || !strings.Contains(err.Error(), "not pinned") {
		t.Fatalf("refused module: %v", err)
	}
	if len(seen) < 2 || seen[0] != "ok.js=module.exports = 1;" {
		t.Fatalf("checked %v", seen)
	}
}
