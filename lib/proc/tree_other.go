//go:build !linux && !darwin && !windows

package proc

import "os/exec"

// tree is the run's process group where the process table is not walked
// (Linux and macOS walk it; Windows: tree_windows.go, a job object): on
// the other unix systems a descendant that starts a session or a group of
// its own outlives the run.
type tree struct{}

func newTree(int, string) *tree { return nil }

func (*tree) kill(cmd *exec.Cmd) { killGroup(cmd) }
