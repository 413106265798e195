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
	// Dangling: the link leads to nothing (Target says where).
	Dangling bool
}

func (e *LinkError) Error() string {
	if e.Dangling {
		return fmt.Sprintf("%s leads through a symbolic link to %s, which does not exist: not written", e.Path, e.Target)
	}
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
	// The project may not exist yet: it is where its existing part leads.
	root, err := resolve(project)
	if err != nil {
		return "", fmt.Errorf("project %s: %w", project, err)
	}
	target, err := resolve(abs)
	if err != nil {
		return "", &LinkError{Path: abs, Target: err.Error(), Project: project, Dangling: true}
	}
	if rel, err := filepath.Rel(root, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", &LinkError{Path: abs, Target: target, Project: project}
	}
	return target, nil
}

// resolve is path (absolute) with the symbolic links of its longest
// existing part resolved; the rest is joined to it as it is. A link to
// nothing is an error whose text is where it leads.
func resolve(path string) (string, error) {
	path, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	existing, rest := path, []string(nil)
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
		return "", errors.New(target)
	}
	return filepath.Join(append([]string{real}, rest...)...), nil
}
