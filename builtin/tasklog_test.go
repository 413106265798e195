package builtin_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/builtin"
)

// TestTaskLog: a task created and then completed gives two records, the
// second with the task's duration; secrets in the subject are redacted.
func TestTaskLog(t *testing.T) {
	dir := t.TempDir()
	clock := time.Date(2026, 11, 3, 9, 30, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	hooks, err := builtin.New("task-log", builtin.Config{Dir: dir, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if h := hooks[0]; !h.Background || len(h.Events) != 2 {
		t.Fatalf("hook: %+v", h)
	}
	task := map[string]any{"session_id": "s1", "task_id": "7", "task_subject": "rotate " + githubToken, "teammate_name": "ada"}
	// One engine per event, the same hook in both (as two hookctl claude
	// processes share the state file): closing drains the background hook.
	eng := newEngine(t, hooks...)
	fire(t, eng, "TaskCreated", task)
	closeEngine(t, eng)
	clock = clock.Add(90 * time.Second)
	eng = newEngine(t, hooks...)
	fire(t, eng, "TaskCompleted", task)
	closeEngine(t, eng)

	recs := readJSONL(t, filepath.Join(dir, ".hookctl", "tasks.jsonl"))
	if len(recs) != 2 || recs[0]["event"] != "TaskCreated" || recs[1]["event"] != "TaskCompleted" {
		t.Fatalf("records %v", recs)
	}
	if recs[1]["duration_ms"] != float64(90000) || recs[1]["task_id"] != "7" || recs[1]["teammate_name"] != "ada" {
		t.Fatalf("completion record %v", recs[1])
	}
	if s, _ := recs[0]["task_subject"].(string); s == "" || strings.Contains(s, githubToken) {
		t.Fatalf("subject not redacted: %q", s)
	}
}
