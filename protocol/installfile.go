package protocol

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LinkError reports a host configuration file that install would write
// through a symbolic link leading out of the project (a repository's
// crush.json that links to ~/.docker/config.json): install refuses it.
type LinkError struct {
	// Path is the file in the project; Target where its links lead.
	Path, Target, Project string
}

func (e *LinkError) Error() string {
	return fmt.Sprintf("%s leads through a symbolic link to %s, outside the project %s: not written (write it yourself if that is meant)", e.Path, e.Target, e.Project)
}

// InstallTarget is the file to read and write for the host configuration
// rel of the project: project/rel with its symbolic links resolved. A
// link that leads out of the project, or to nothing, is a *LinkError: the
// file there is not the project's to change.
func InstallTarget(project, rel string) (string, error) {
	abs, err := filepath.Abs(filepath.Join(project, rel))
	if err != nil {
		return "", err
	}
	root, err := filepath.EvalSymlinks(project)
	if err != nil {
		return "", fmt.Errorf("project %s: %w", project, err)
	}
	root, _ = filepath.Abs(root)
	// The longest part of the path that exists, resolved; the rest is
	// created under it.
	existing, rest := abs, []string(nil)
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = append([]string{filepath.Base(existing)}, rest...)
		existing = parent
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		target, _ := os.Readlink(existing)
		return "", &LinkError{Path: abs, Target: target + " (which does not exist)", Project: project}
	}
	target := filepath.Join(append([]string{real}, rest...)...)
	if rel, err := filepath.Rel(root, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", &LinkError{Path: abs, Target: target, Project: project}
	}
	return target, nil
}
