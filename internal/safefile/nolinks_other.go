//go:build !linux

package safefile

import (
	"errors"
	"os"
)

// openNoLinks has no single call to rely on here: the caller resolves
// the path link by link.
func openNoLinks(string) (*os.File, error) { return nil, errors.ErrUnsupported }
