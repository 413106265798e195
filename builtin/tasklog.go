package builtin

import (
	"context"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/state/kv"
)

func taskLogSpec() Spec {
	return Spec{
		Name: "task-log",
		Description: "Appends one JSONL record per task created and completed (ts, event, session_id, task_id, " +
			"task_subject, teammate_name; on completion duration_ms since the task was created, when this log saw it), " +
			"secrets redacted. Runs in the background.",
		Events:   []string{"TaskCreated", "TaskCompleted"},
		Priority: -100,
		Options: []OptionSpec{
			{Name: "path", Type: TypeString, Doc: "the JSONL file, relative to the config's directory", Default: ".hookctl/tasks.jsonl"},
			{Name: "redact", Type: TypeBool, Doc: "redact secrets in every string", Default: true},
		},
	}
}

// taskCreatedKey is the key of a task's creation time (Unix milliseconds)
// in its session's scope of the store.
const taskCreatedKey = "builtin/task-log/created/"

// taskMemory is how long a task's creation time is kept.
const taskMemory = 7 * 24 * time.Hour

func buildTaskLog(b *build) ([]engine.Hook, error) {
	file, err := b.logPath("path")
	if err != nil {
		return nil, err
	}
	opt := b.jsonlOptions(b.opts.boolean("redact"))
	store := b.cfg.Store
	if store == nil {
		store = kv.NewMemory(kv.WithClock(b.now))
	}
	now := b.now
	h := b.hook(engine.Hook{
		Events:     b.spec.Events,
		Background: true,
		Handler: slow(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
			p := c.Payload
			rec := map[string]any{"event": c.Event}
			copyFields(rec, p, "session_id", "cwd", "task_id", "task_subject", "task_description", "teammate_name", "team_name")
			if d := str(p, "task_description"); d != "" {
				rec["task_description"] = truncate(d, lastMessageMax)
			}
			if sid, id := str(p, "session_id"), str(p, "task_id"); sid != "" && id != "" {
				st := kv.Scoped(store, kv.SessionScope(sid))
				switch c.Event {
				case "TaskCreated":
					if err := st.Set(ctx, taskCreatedKey+id, now().UnixMilli(), taskMemory); err != nil {
						b.logger(c).Warn("builtin: task-log cannot keep the creation time", "hook", b.id, "error", err)
					}
				case "TaskCompleted":
					if v, ok, err := st.Get(ctx, taskCreatedKey+id); err == nil && ok {
						if ms, isNum := v.(int64); isNum {
							rec["duration_ms"] = now().UnixMilli() - ms
						}
						_ = st.Delete(ctx, taskCreatedKey+id)
					}
				}
			}
			b.appendLog(ctx, c, file, rec, opt)
			return nil, nil
		}),
	})
	return []engine.Hook{h}, nil
}
