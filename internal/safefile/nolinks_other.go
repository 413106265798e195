//go:build !linux

package safefile

import (
	"errors"
	"io"
	"io/fs"
)

// openNoLinks has no single call to rely on here: the caller resolves
// the path link by link.
func openNoLinks(string) (io.ReadCloser, fs.FileInfo, error) {
	return nil, nil, errors.ErrUnsupported
}
