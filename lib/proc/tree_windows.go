//go:build windows

package proc

import (
	"fmt"
	"os/exec"

	"github.com/hookctl/hookctl/lib/proc/winjob"
)

// tree is the run's job object: every process the program starts is in
// it (a job's processes cannot leave it unless the job allows breakaway,
// which this one does not), and killing the run terminates the job.
type tree struct {
	job *winjob.Job
}

func newTree(int, string) *tree { return &tree{} }

// kill terminates every process of the job and closes it (the job also
// kills what is left when its last handle closes), then the program's own
// process, should contain have failed before the job held it.
func (t *tree) kill(cmd *exec.Cmd) {
	if t.job != nil {
		_ = t.job.Terminate(1)
		_ = t.job.Close()
		t.job = nil
	}
	killGroup(cmd)
}

// contain puts the program, started suspended (setProcessGroup), into a
// new job object that kills its processes when closed, then lets it run.
// An error leaves the program suspended and outside any job of the run:
// the caller kills it.
func contain(cmd *exec.Cmd, t *tree) error {
	job, err := winjob.New()
	if err != nil {
		return err
	}
	if err := job.Add(cmd.Process.Pid); err != nil {
		_ = job.Close()
		return fmt.Errorf("the hook's process: %w", err)
	}
	t.job = job
	if err := winjob.Resume(cmd.Process.Pid); err != nil {
		return fmt.Errorf("the hook's process: %w", err)
	}
	return nil
}
