package builtin_test

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/syncbuf"
)

// githubToken looks like a real GitHub token to the secret scanner.
const githubToken = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"

func TestSessionLog(t *testing.T) {
	dir := t.TempDir()
	stamp := time.Date(2026, 11, 3, 9, 30, 0, 0, time.UTC)
	hooks, err := builtin.New("session-log", builtin.Config{Dir: dir, Now: func() time.Time { return stamp }})
	if err != nil {
		t.Fatal(err)
	}
	h := hooks[0]
	if !h.Background || h.Priority != -100 || len(h.Events) != 5 {
		t.Fatalf("hook: %+v", h)
	}
	eng := newEngine(t, hooks...)

	stop := fixture(t, "Stop", dir)
	stop["last_assistant_message"] = "Done. I used the token " + githubToken + ". " + strings.Repeat("x", 1000)
	fires := []struct {
		event   string
		payload map[string]any
	}{
		{"SessionStart", fixture(t, "SessionStart.startup", dir)},
		{"SubagentStart", fixture(t, "SubagentStart.general-purpose", dir)},
		{"SubagentStop", fixture(t, "SubagentStop.general-purpose", dir)},
		{"Stop", stop},
		{"SessionEnd", fixture(t, "SessionEnd.other", dir)},
	}
	for _, f := range fires {
		out := fire(t, eng, f.event, f.payload)
		if tr, _ := out.Hook("builtin:session-log"); tr.Status != engine.StatusQueued {
			t.Errorf("%s: status %q, want queued", f.event, tr.Status)
		}
		if out.Blocked {
			t.Errorf("%s: blocked", f.event)
		}
	}
	closeEngine(t, eng) // drains the background hooks

	recs := readJSONL(t, filepath.Join(dir, ".hookctl", "sessions.jsonl"))
	if len(recs) != len(fires) {
		t.Fatalf("%d records, want %d", len(recs), len(fires))
	}
	byEvent := map[string]map[string]any{}
	for _, r := range recs {
		byEvent[r["event"].(string)] = r
		if r["ts"] != "2026-11-03T09:30:00Z" && !strings.HasPrefix(r["ts"].(string), "2026-11-03T09:30:00") {
			t.Errorf("ts = %v", r["ts"])
		}
		if r["session_id"] == "" || r["cwd"] != dir+"/project" {
			t.Errorf("record %v lacks session_id or cwd", r)
		}
	}
	if byEvent["SessionStart"]["source"] != "startup" {
		t.Errorf("SessionStart: %v", byEvent["SessionStart"])
	}
	if byEvent["SessionEnd"]["reason"] != "other" {
		t.Errorf("SessionEnd: %v", byEvent["SessionEnd"])
	}
	if byEvent["SubagentStart"]["agent_type"] != "general-purpose" || byEvent["SubagentStop"]["agent_id"] == nil {
		t.Errorf("subagent records: %v %v", byEvent["SubagentStart"], byEvent["SubagentStop"])
	}
	msg, _ := byEvent["Stop"]["last_assistant_message"].(string)
	if strings.Contains(msg, githubToken) || !strings.Contains(msg, "[REDACTED") {
		t.Errorf("secret not redacted: %q", msg)
	}
	if n := len([]rune(msg)); n > 560 || !strings.Contains(msg, "more characters]") {
		t.Errorf("message not truncated to 500 characters (%d runes): %q", n, msg)
	}
	if byEvent["SubagentStop"]["last_assistant_message"] != "FAKE-FINAL: done." {
		t.Errorf("short message changed: %v", byEvent["SubagentStop"]["last_assistant_message"])
	}
}

func TestSessionLogNoRedact(t *testing.T) {
	dir := t.TempDir()
	hooks, err := builtin.New("session-log", builtin.Config{Dir: dir, Options: map[string]any{
		"path": "logs/s.jsonl", "redact": false,
	}})
	if err != nil {
		t.Fatal(err)
	}
	eng := newEngine(t, hooks...)
	p := fixture(t, "Stop", dir)
	p["last_assistant_message"] = "token " + githubToken
	fire(t, eng, "Stop", p)
	closeEngine(t, eng)
	recs := readJSONL(t, filepath.Join(dir, "logs", "s.jsonl"))
	if len(recs) != 1 || !strings.Contains(recs[0]["last_assistant_message"].(string), githubToken) {
		t.Errorf("records: %v", recs)
	}
}

func TestToolLog(t *testing.T) {
	dir := t.TempDir()
	hooks, err := builtin.New("tool-log", builtin.Config{Dir: dir, Options: map[string]any{
		"max_field": 40, "include_output": true,
	}})
	if err != nil {
		t.Fatal(err)
	}
	eng := newEngine(t, hooks...)

	post := fixture(t, "PostToolUse.Bash", dir)
	post["tool_input"].(map[string]any)["command"] = "curl -H 'Authorization: Bearer " + githubToken + "' https://api.github.com/user"
	fail := fixture(t, "PostToolUseFailure.Bash", dir)
	fail["error"] = strings.Repeat("E", 100)
	write := fixture(t, "PostToolUse.Write", dir)
	mcp := fixture(t, "PostToolUse.Bash", dir)
	mcp["tool_name"] = "mcp__db__query"
	mcp["tool_use_id"] = "toolu_mcp"
	mcp["tool_input"] = map[string]any{"sql": "select 1"}
	for event, ps := range map[string][]map[string]any{"PostToolUse": {post, write, mcp}, "PostToolUseFailure": {fail}} {
		for _, p := range ps {
			fire(t, eng, event, p)
		}
	}
	closeEngine(t, eng)

	recs := readJSONL(t, filepath.Join(dir, ".hookctl", "tools.jsonl"))
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4: %v", len(recs), recs)
	}
	byID := map[string]map[string]any{}
	for _, r := range recs {
		byID[r["tool_use_id"].(string)] = r
	}
	bashRec := byID[post["tool_use_id"].(string)]
	in := bashRec["input"].(map[string]any)
	cmd := in["command"].(string)
	if strings.Contains(cmd, githubToken) || !strings.Contains(cmd, "more characters]") {
		t.Errorf("command not redacted and truncated: %q", cmd)
	}
	if bashRec["success"] != true || bashRec["duration_ms"] != float64(30) || bashRec["tool_name"] != "Bash" {
		t.Errorf("bash record: %v", bashRec)
	}
	if out, ok := bashRec["output"].(map[string]any); !ok || out["stdout"] != "hi" {
		t.Errorf("output: %v", bashRec["output"])
	}
	failRec := byID[fail["tool_use_id"].(string)]
	if failRec["success"] != false || failRec["event"] != "PostToolUseFailure" || !strings.HasPrefix(failRec["error"].(string), strings.Repeat("E", 40)+"…") {
		t.Errorf("failure record: %v", failRec)
	}
	writeRec := byID[write["tool_use_id"].(string)]
	full := dir + "/project/e2e-written.txt"
	if got := writeRec["input"].(map[string]any); got["file_path"] != full[:40]+"…["+strconv.Itoa(len(full)-40)+" more characters]" || got["content"] != nil {
		t.Errorf("write input summary: %v", got)
	}
	if got := byID["toolu_mcp"]["input"].(map[string]any); got["json"] != `{"sql":"select 1"}` {
		t.Errorf("mcp input summary: %v", got)
	}
}

func TestToolLogWithoutOutput(t *testing.T) {
	dir := t.TempDir()
	hooks, err := builtin.New("tool-log", builtin.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	eng := newEngine(t, hooks...)
	fire(t, eng, "PostToolUse", fixture(t, "PostToolUse.Bash", dir))
	closeEngine(t, eng)
	recs := readJSONL(t, filepath.Join(dir, ".hookctl", "tools.jsonl"))
	if len(recs) != 1 || recs[0]["output"] != nil || recs[0]["input"].(map[string]any)["command"] != "echo hi" {
		t.Errorf("records: %v", recs)
	}
}

func TestNotificationRouter(t *testing.T) {
	dir := t.TempDir()
	var logs syncbuf.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	sink := filepath.Join(dir, "command-stdin.json")
	hooks, err := builtin.New("notification-router", builtin.Config{Dir: dir, Logger: logger, Options: map[string]any{
		"types":   []any{"permission_prompt"},
		"path":    "notifications.jsonl",
		"command": []any{"sh", "-c", `cat > "$0"`, sink},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if hooks[0].Matcher != "permission_prompt" {
		t.Errorf("matcher %q", hooks[0].Matcher)
	}
	eng := newEngine(t, hooks...)

	p := fixture(t, "Notification.permission_prompt", dir)
	p["title"] = "Permission needed"
	out := fire(t, eng, "Notification", p)
	if out.Blocked || out.Decision != "" {
		t.Errorf("notification outcome: %+v", out)
	}
	idle := fixture(t, "Notification.permission_prompt", dir)
	idle["notification_type"] = "idle_prompt"
	idle["message"] = "Claude is waiting for your input"
	idleOut := fire(t, eng, "Notification", idle)
	if tr, _ := idleOut.Hook("builtin:notification-router"); tr.Status != engine.StatusSkipped {
		t.Errorf("idle_prompt not filtered: %+v", tr)
	}
	closeEngine(t, eng)

	recs := readJSONL(t, filepath.Join(dir, "notifications.jsonl"))
	if len(recs) != 1 || recs[0]["notification_type"] != "permission_prompt" ||
		recs[0]["message"] != "Claude needs your permission" || recs[0]["title"] != "Permission needed" {
		t.Errorf("records: %v", recs)
	}
	raw, err := os.ReadFile(sink)
	if err != nil {
		t.Fatalf("command did not run: %v", err)
	}
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil || got["hook_event_name"] != "Notification" || got["notification_type"] != "permission_prompt" {
		t.Errorf("command stdin: %s (%v)", raw, err)
	}
	l := logs.String()
	for _, want := range []string{`"msg":"notification"`, `"type":"permission_prompt"`, `"title":"Permission needed"`, `"message":"Claude needs your permission"`} {
		if !strings.Contains(l, want) {
			t.Errorf("log %s lacks %s", l, want)
		}
	}
	if strings.Contains(l, "idle_prompt") {
		t.Errorf("filtered notification was logged: %s", l)
	}
}

func TestNotificationRouterFailingCommand(t *testing.T) {
	dir := t.TempDir()
	var logs syncbuf.Buffer
	hooks, err := builtin.New("notification-router", builtin.Config{
		Dir: dir, Logger: slog.New(slog.NewTextHandler(&logs, nil)),
		Options: map[string]any{"command": []any{"sh", "-c", "echo broken >&2; exit 3"}, "log": false},
	})
	if err != nil {
		t.Fatal(err)
	}
	eng := newEngine(t, hooks...)
	fire(t, eng, "Notification", fixture(t, "Notification.permission_prompt", dir))
	closeEngine(t, eng)
	if st := eng.Stats(); st.HookErrors != 0 || st.BackgroundDone != 1 {
		t.Errorf("stats: %+v", st)
	}
	l := logs.String()
	if !strings.Contains(l, "exit_code=3") || !strings.Contains(l, "broken") || strings.Contains(l, "msg=notification") {
		t.Errorf("log: %s", l)
	}
	entries, _ := os.ReadDir(dir)
	if slices.ContainsFunc(entries, func(e os.DirEntry) bool { return strings.HasSuffix(e.Name(), ".jsonl") }) {
		t.Errorf("a JSONL file was written without a path option: %v", entries)
	}
}
