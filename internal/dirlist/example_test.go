package dirlist_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookctl/hookctl/internal/dirlist"
)

// A long-lived process lists a directory through a Cache on every call:
// the directory is read again whenever it changed, and a listing is kept
// only once the directory has not changed for a few seconds.
func Example() {
	dir, _ := os.MkdirTemp("", "dirlist")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "hooks.hcl"), []byte("# hooks\n"), 0o600)

	ls := dirlist.New()
	names, _ := ls.Names(dir)
	fmt.Println(names)
	_ = os.WriteFile(filepath.Join(dir, "more.hcl"), []byte("# more\n"), 0o600)
	names, _ = ls.Names(dir)
	fmt.Println(names)
	// Output:
	// [hooks.hcl]
	// [hooks.hcl more.hcl]
}
