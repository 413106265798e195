//go:build !linux && !windows

package proc

import "os/exec"

// tree is the run's process group where /proc cannot be walked: on other
// unix systems a descendant that starts a session or a group of its own
// outlives the run (Windows: tree_windows.go, a job object).
type tree struct{}

func newTree(int, string) *tree { return nil }

func (*tree) kill(cmd *exec.Cmd) { killGroup(cmd) }
