package filestamp_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookctl/hookctl/internal/filestamp"
)

// A cache stamps the files a value was built from and builds it again
// when one changed.
func Example() {
	dir, _ := os.MkdirTemp("", "stamp")
	defer os.RemoveAll(dir)
	cfg := filepath.Join(dir, "hooks.hcl")
	_ = os.WriteFile(cfg, []byte("# v1\n"), 0o600)

	stamps := filestamp.Take([]string{cfg, filepath.Join(dir, "check.js")})
	fmt.Println("changed:", stamps.Changed())
	_ = os.WriteFile(filepath.Join(dir, "check.js"), []byte("module.exports = () => ({})"), 0o600)
	fmt.Println("changed:", stamps.Changed())
	// Output:
	// changed: false
	// changed: true
}
