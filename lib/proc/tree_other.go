//go:build !linux && !darwin

package proc

import "os/exec"

// tree is the run's process group where the process table is not walked
// (Linux and macOS walk it): on the other unix systems a descendant that
// starts a session or a group of its own outlives the run; on Windows the
// program alone is killed.
type tree struct{}

func newTree(int, string) *tree { return nil }

func (*tree) kill(cmd *exec.Cmd) { killGroup(cmd) }
