package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"aead.dev/minisign"

	"github.com/hookctl/hookctl/bundle"
	"github.com/hookctl/hookctl/internal/dirs"
	"github.com/hookctl/hookctl/trust"
)

// Signed is a signed configuration, verified and ready to load: Path is
// what to load (the directory of a bundle's verified files, or the signed
// directory itself) and Check the file check of that load
// (assemble.WithFileCheck): every file it reads must be one the signed
// manifest lists, as it lists it.
type Signed struct {
	// Source is the configuration as given (the .bundle file, the
	// directory).
	Source, Path string
	Check        func(file string, content []byte) error
	// KeyID names the key that verified it.
	KeyID string
}

// BundleCacheDir is where opened bundles are kept: bundles/ in the state
// directory (dirs.State).
func BundleCacheDir(getenv func(string) string) (string, error) {
	d, err := dirs.State(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "bundles"), nil
}

// OpenSigned is the one seam through which a configuration path that
// names a signed policy becomes what is loaded: a bundle (bundle.IsBundle)
// is verified against keys (nil: the keys trusted with hookctl trust
// --pub, in the environment getenv reads) and opened into the bundle
// cache; a directory carrying a manifest signature is verified in place.
// It returns nil, nil for any other path (loaded and trusted as before).
// A bundle that does not verify is an error (*bundle.SignatureError,
// *bundle.ManifestError): its hooks must not run. A signed directory that
// does not verify is returned as nil with the error, for the caller to
// fall back on the directory's own trust record.
func OpenSigned(ctx context.Context, path string, keys []minisign.PublicKey, getenv func(string) string) (*Signed, error) {
	return openSigned(ctx, path, func() ([]minisign.PublicKey, error) {
		if keys != nil {
			return keys, nil
		}
		return trust.Keys(trust.WithGetenv(getenv))
	}, getenv)
}

// openSigned is OpenSigned with the keys read only for a signed path.
func openSigned(ctx context.Context, path string, trusted func() ([]minisign.PublicKey, error), getenv func(string) string) (*Signed, error) {
	isBundle := bundle.IsBundle(path)
	isDir := !isBundle && bundle.IsSignedDir(path)
	if !isBundle && !isDir {
		if filepath.Ext(path) == ".bundle" {
			if _, err := os.Stat(path); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	keys, err := trusted()
	if err != nil {
		return nil, err
	}
	var o *bundle.Opened
	if isBundle {
		cache, cerr := BundleCacheDir(getenv)
		if cerr != nil {
			return nil, cerr
		}
		o, err = bundle.OpenVerified(ctx, path, keys, cache)
	} else {
		o, err = bundle.OpenDir(path, keys)
	}
	if err != nil {
		return nil, err
	}
	return &Signed{Source: path, Path: o.Dir, Check: o.Check, KeyID: bundle.KeyID(o.KeyID)}, nil
}

// signedError is the reason a signed configuration's hooks did not run.
func signedError(path string, err error) string {
	return fmt.Sprintf("hookctl: signed configuration %s not verified: %v; its hooks did not run", path, err)
}

// openSigned is OpenSigned with the keys of the runtime's trust index:
// the trust file of the process's environment, as for the trust records
// it checks.
func (r *Runtime) openSigned(ctx context.Context, path string, getenv func(string) string) (*Signed, error) {
	return openSigned(ctx, path, func() ([]minisign.PublicKey, error) { return r.trust.Keys() }, getenv)
}
