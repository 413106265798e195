package builtin

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/lib/jsonl"
	"github.com/hookctl/hookctl/lib/paths"
	"github.com/hookctl/hookctl/lib/proc"
	"github.com/hookctl/hookctl/lib/secrets"
)

// logPath resolves a log file option against the config's directory.
func (b *build) logPath(name string) (string, error) {
	p := b.opts.str(name)
	if strings.TrimSpace(p) == "" {
		return "", b.optErr(name, "must not be empty")
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = paths.Expand(p, b.home)
	}
	if !filepath.IsAbs(p) && b.cfg.Dir != "" {
		p = filepath.Join(b.cfg.Dir, p)
	}
	return filepath.Clean(p), nil
}

// jsonlOptions returns the options of the builtin's JSONL file.
func (b *build) jsonlOptions(redact bool) jsonl.Options {
	o := jsonl.Options{Now: b.now}
	if redact {
		o.Redact = secrets.Redact
	}
	return o
}

// appendLog appends a record, reporting a failure to the logger: a
// logging hook must never fail the event.
func (b *build) appendLog(ctx context.Context, c *engine.Call, file string, rec map[string]any, opt jsonl.Options) {
	if err := jsonl.Append(ctx, file, rec, opt); err != nil {
		b.logger(c).Warn("builtin: cannot append log record", "hook", b.id, "path", file, "error", err)
	}
}

// copyFields copies the named string (or other present) fields.
func copyFields(dst, src map[string]any, keys ...string) {
	for _, k := range keys {
		if v, ok := src[k]; ok && v != nil && v != "" {
			dst[k] = v
		}
	}
}

func sessionLogSpec() Spec {
	return Spec{
		Name: "session-log",
		Description: "Appends one JSONL record per session and subagent lifecycle event (ts, event, session_id, cwd, " +
			"source/reason/agent_type, the last assistant message truncated), secrets redacted. Runs in the background.",
		Events:   []string{"SessionStart", "SessionEnd", "SubagentStart", "SubagentStop", "Stop"},
		Priority: -100,
		Options: []OptionSpec{
			{Name: "path", Type: TypeString, Doc: "the JSONL file, relative to the config's directory", Default: ".hookctl/sessions.jsonl"},
			{Name: "redact", Type: TypeBool, Doc: "redact secrets in every string", Default: true},
		},
	}
}

// lastMessageMax bounds last_assistant_message in session records.
const lastMessageMax = 500

func buildSessionLog(b *build) ([]engine.Hook, error) {
	file, err := b.logPath("path")
	if err != nil {
		return nil, err
	}
	opt := b.jsonlOptions(b.opts.boolean("redact"))
	h := b.hook(engine.Hook{
		Events:     b.spec.Events,
		Background: true,
		Handler: slow(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
			p := c.Payload
			rec := map[string]any{"event": c.Event}
			copyFields(rec, p, "session_id", "cwd", "source", "reason", "agent_type", "agent_id",
				"model", "permission_mode", "stop_hook_active", "transcript_path")
			if m := str(p, "last_assistant_message"); m != "" {
				rec["last_assistant_message"] = truncate(m, lastMessageMax)
			}
			b.appendLog(ctx, c, file, rec, opt)
			return nil, nil
		}),
	})
	return []engine.Hook{h}, nil
}

func toolLogSpec() Spec {
	return Spec{
		Name: "tool-log",
		Description: "Appends one JSONL record per tool call (ts, event, session_id, tool_name, tool_use_id, a summary of " +
			"the input, success or error, duration_ms), secrets redacted and long strings truncated. Runs in the background.",
		Events:   []string{"PostToolUse", "PostToolUseFailure"},
		Priority: -100,
		Options: []OptionSpec{
			{Name: "include_output", Type: TypeBool, Doc: "also record the tool's response (strings truncated to max_field)", Default: false},
			{Name: "max_field", Type: TypeNumber, Doc: "strings longer than this many characters are truncated", Default: 2000},
			{Name: "path", Type: TypeString, Doc: "the JSONL file, relative to the config's directory", Default: ".hookctl/tools.jsonl"},
			{Name: "redact", Type: TypeBool, Doc: "redact secrets in every string", Default: true},
		},
	}
}

// inputSummaryKeys are the tool_input fields a tool-log record keeps.
var inputSummaryKeys = []string{
	"command", "description", "file_path", "notebook_path", "path", "pattern", "glob", "url", "query",
	"subagent_type", "run_in_background",
}

func buildToolLog(b *build) ([]engine.Hook, error) {
	file, err := b.logPath("path")
	if err != nil {
		return nil, err
	}
	maxField, err := b.positiveInt("max_field")
	if err != nil {
		return nil, err
	}
	output := b.opts.boolean("include_output")
	opt := b.jsonlOptions(b.opts.boolean("redact"))
	h := b.hook(engine.Hook{
		Events:     b.spec.Events,
		Background: true,
		Handler: slow(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
			b.appendLog(ctx, c, file, toolRecord(c.Event, c.Payload, maxField, output), opt)
			return nil, nil
		}),
	})
	return []engine.Hook{h}, nil
}

// toolRecord builds a tool-log record.
func toolRecord(event string, p map[string]any, maxField int, output bool) map[string]any {
	rec := map[string]any{"event": event}
	copyFields(rec, p, "session_id", "tool_name", engine.ToolField, "tool_use_id", "duration_ms", "is_interrupt")
	if in := object(p, "tool_input"); in != nil {
		sum := map[string]any{}
		for _, k := range inputSummaryKeys {
			if v, ok := in[k]; ok && v != nil {
				sum[k] = clip(v, maxField, 0)
			}
		}
		if len(sum) == 0 && len(in) > 0 {
			if raw, err := json.Marshal(in); err == nil {
				sum["json"] = truncate(string(raw), maxField)
			}
		}
		rec["input"] = sum
	}
	if event == "PostToolUseFailure" {
		rec["success"] = false
		rec["error"] = truncate(str(p, "error"), maxField)
	} else {
		rec["success"] = true
	}
	if output {
		if v, ok := p["tool_response"]; ok {
			rec["output"] = clip(v, maxField, 0)
		}
	}
	return rec
}

// clip returns a copy of a JSON value with long strings truncated, and
// nesting cut below a few levels.
func clip(v any, n, depth int) any {
	switch x := v.(type) {
	case string:
		return truncate(x, n)
	case map[string]any:
		if depth >= 4 {
			return "…"
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = clip(e, n, depth+1)
		}
		return out
	case []any:
		if depth >= 4 {
			return "…"
		}
		const maxItems = 100
		out := make([]any, 0, min(len(x), maxItems))
		for i, e := range x {
			if i == maxItems {
				out = append(out, "…")
				break
			}
			out = append(out, clip(e, n, depth+1))
		}
		return out
	}
	return v
}

func notificationSpec() Spec {
	return Spec{
		Name: "notification-router",
		Description: "Routes agent notifications: logs them (info level), appends them to a JSONL file and/or hands them " +
			"as JSON on stdin to a command (10 s timeout). Never blocks anything; runs in the background.",
		Events:   []string{"Notification"},
		Priority: -100,
		Options: []OptionSpec{
			{Name: "command", Type: TypeList, Doc: "argv of a program to run with the notification JSON on stdin (no shell)"},
			{Name: "log", Type: TypeBool, Doc: "log each notification through the logger at info level", Default: true},
			{Name: "path", Type: TypeString, Doc: "a JSONL file to append notifications to, relative to the config's directory"},
			{Name: "types", Type: TypeList, Doc: "notification_type values to route (permission_prompt, idle_prompt, ...); default all"},
		},
	}
}

// notificationTimeout bounds the notification command.
const notificationTimeout = 10 * time.Second

var typeNameRe = lazyRegexp(`^[A-Za-z0-9_-]+$`)

func buildNotification(b *build) ([]engine.Hook, error) {
	types := b.opts.list("types")
	for _, t := range types {
		if !typeNameRe().MatchString(t) {
			return nil, b.optErr("types", "%q is not a notification type name", t)
		}
	}
	var file string
	if b.opts.has("path") {
		var err error
		if file, err = b.logPath("path"); err != nil {
			return nil, err
		}
	}
	argv := b.opts.list("command")
	if b.opts.has("command") && (len(argv) == 0 || argv[0] == "") {
		return nil, b.optErr("command", "must be a non-empty argv list")
	}
	logIt := b.opts.boolean("log")
	opt := b.jsonlOptions(true)
	h := b.hook(engine.Hook{
		Event:      "Notification",
		Matcher:    strings.Join(types, "|"),
		Background: true,
		Handler: slow(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
			p := c.Payload
			if logIt {
				b.logger(c).LogAttrs(ctx, slog.LevelInfo, "notification",
					slog.String("hook", b.id), slog.String("type", str(p, "notification_type")),
					slog.String("title", str(p, "title")), slog.String("message", str(p, "message")),
					slog.String("session_id", str(p, "session_id")))
			}
			if file != "" {
				rec := map[string]any{"event": c.Event}
				copyFields(rec, p, "session_id", "notification_type", "title", "message", "cwd")
				b.appendLog(ctx, c, file, rec, opt)
			}
			if len(argv) > 0 {
				b.runNotifier(ctx, c, argv)
			}
			return nil, nil
		}),
	})
	return []engine.Hook{h}, nil
}

// runNotifier runs the notification command; failures are logged, never
// returned, so that a broken notifier does not show up as a failed hook.
func (b *build) runNotifier(ctx context.Context, c *engine.Call, argv []string) {
	in, err := json.Marshal(c.Payload)
	if err != nil {
		b.logger(c).Warn("builtin: cannot encode notification", "hook", b.id, "error", err)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, notificationTimeout)
	defer cancel()
	res, err := proc.Run(ctx, proc.Spec{Argv: argv, Dir: b.cfg.Dir, Stdin: in, MaxOutput: 64 << 10})
	switch {
	case err != nil:
		b.logger(c).Warn("builtin: notification command failed", "hook", b.id, "command", argv[0], "error", err)
	case res.ExitCode != 0:
		b.logger(c).Warn("builtin: notification command exited with an error", "hook", b.id, "command", argv[0],
			"exit_code", res.ExitCode, "stderr", truncate(strings.TrimSpace(string(res.Stderr)), 500))
	}
}
