package assemble

import (
	"fmt"
	"path/filepath"
	"sync"

	"github.com/hookctl/hookctl/trust"
)

// configHash is a Config's hash, computed once.
type configHash struct {
	once sync.Once
	sum  string
	err  error
}

// Hash identifies the configuration by its files: SHA-256 (hex) over the
// path of each file relative to the configuration's directory and the
// hash of its contents, in path order (trust.Digest, the digest of a
// trust record, over this configuration's files). The files are its *.hcl
// files, as they were parsed, and every file they name or its scripts
// loaded, as they are on disk the first time Hash is called (call it right
// after the load). Two processes loading the same files get the same hash
// wherever they run from; a change to any file, a rename included,
// changes it.
func (c *Config) Hash() (string, error) {
	c.hash.once.Do(func() { c.hash.sum, c.hash.err = c.digest() })
	return c.hash.sum, c.hash.err
}

func (c *Config) digest() (string, error) {
	root, err := filepath.Abs(c.Dir)
	if err != nil {
		return "", err
	}
	abs := func(f string) (string, error) {
		if filepath.IsAbs(f) {
			return filepath.Clean(f), nil
		}
		return filepath.Abs(f)
	}
	var refs []string
	for _, f := range c.Refs() {
		p, err := abs(f)
		if err != nil {
			return "", err
		}
		refs = append(refs, p)
	}
	set, err := trust.HashSet(root, refs)
	if err != nil {
		return "", fmt.Errorf("hashing the configuration's files: %w", err)
	}
	for _, f := range c.Files {
		p, err := abs(f)
		if err != nil {
			return "", err
		}
		set[trust.FileKey(root, p)] = trust.ContentHash(c.Source(f))
	}
	return trust.Digest(set), nil
}
