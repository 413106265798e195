package gemini

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/internal/hostkit"
)

// Name is Gemini CLI's --host name.
const Name = "gemini"

// Protocol is Gemini CLI's hook protocol.
type Protocol struct {
	protocol.Table
}

var (
	_ protocol.Protocol = (*Protocol)(nil)
	_ protocol.Gater    = (*Protocol)(nil)
)

// New returns Gemini CLI's protocol.
func New() *Protocol {
	return &Protocol{Table: protocol.Table{
		Shell:    protocol.ShellPowerShell, // how it runs a command line on Windows
		HostName: Name, HostTitle: "Gemini CLI", EventField: "hook_event_name",
		EventMap: map[string]protocol.Mapping{
			"BeforeTool": {Event: "PreToolUse"}, "AfterTool": {Event: "PostToolUse"},
			"BeforeAgent": {Event: "UserPromptSubmit"}, "AfterAgent": {Event: "Stop"},
			"PreCompress": {Event: "PreCompact"}, "SessionStart": {Event: "SessionStart"},
			"SessionEnd": {Event: "SessionEnd"}, "Notification": {Event: "Notification"},
			// Gemini CLI's own events with no catalog event: no hook runs
			// for them. Gemini CLI shows hookctl's stderr to the user on
			// every event, so they are answered without a word.
			"BeforeModel":         {Event: "BeforeModel", Unsupported: true, Silent: true},
			"AfterModel":          {Event: "AfterModel", Unsupported: true, Silent: true},
			"BeforeToolSelection": {Event: "BeforeToolSelection", Unsupported: true, Silent: true},
		},
		Exit: 2, Ask: true,
		Encode:  reply,
		Carries: carries,
		// timeout in milliseconds, 60000 by default (verified with Gemini
		// CLI 0.61.0; agent-hosts.md).
		Timeout: 60 * time.Second, TimeoutUnit: time.Millisecond,
		ProjectFiles: []string{".gemini/settings.json"}, UserFiles: []string{".gemini/settings.json"},
		ProjectEnv: []string{"GEMINI_PROJECT_DIR", "GEMINI_CWD", "CLAUDE_PROJECT_DIR"},
	}}
}

// Decode maps a Gemini CLI payload onto the catalog.
func (p *Protocol) Decode(raw map[string]any, event string) (*protocol.Event, error) {
	return p.DecodeAs(p, raw, event)
}

// Detect: Gemini CLI's own event names, and the variables it sets for
// its hooks. The events Gemini CLI names as Claude Code does
// (SessionStart, SessionEnd, Notification; Codex sends them too) are no
// evidence on their own: such a payload is Gemini CLI's only with its
// variables in the environment. The variables are no evidence for a
// payload whose event Gemini CLI never sends (PreToolUse: a Claude Code or
// Codex payload from a process started under Gemini CLI), and rank after
// another host's own payload field (Codex's turn_id).
func (p *Protocol) Detect(raw map[string]any, getenv func(string) string) (protocol.Hint, bool) {
	if name, _ := raw["hook_event_name"].(string); name != "" {
		m, ok := p.EventMap[name]
		if !ok {
			return protocol.Hint{}, false
		}
		if m.Event != name || m.Unsupported {
			return protocol.Hint{Rank: protocol.RankEventNameLater, Why: fmt.Sprintf("%q is a Gemini CLI event", name)}, true
		}
	}
	if getenv("GEMINI_PROJECT_DIR") != "" || getenv("GEMINI_SESSION_ID") != "" {
		return protocol.Hint{Rank: protocol.RankProjectEnv, Why: "GEMINI_PROJECT_DIR is set in the environment"}, true
	}
	return protocol.Hint{}, false
}

// Limitations of Gemini CLI.
func (p *Protocol) Limitations() []string {
	return []string{
		"no defer: a defer is an ask",
		"BeforeModel, AfterModel and BeforeToolSelection have no catalog event: answered with an empty reply, said on stderr only with --verbose (Gemini CLI shows a hook's stderr to its user)",
		"a rewrite is applied on BeforeTool only",
	}
}

// reply is Gemini CLI's reply: a top-level decision.
func reply(ev *protocol.Event, out engine.Outcome) protocol.Reply {
	top := map[string]any{}
	hso := map[string]any{}
	switch out.Decision {
	case engine.DecisionDeny, engine.DecisionAsk, engine.DecisionAllow:
		top["decision"] = string(out.Decision)
	case "block":
		top["decision"] = "block"
	}
	if _, ok := top["decision"]; ok && out.Reason != "" || out.Blocked {
		top["reason"] = hostkit.ReasonOr(out.Reason, "blocked by a hook")
	}
	if out.UpdatedInput != nil && ev.Name == "PreToolUse" && !out.Blocked {
		hso["tool_input"] = out.UpdatedInput
	}
	if out.AdditionalContext != "" {
		hso["additionalContext"] = out.AdditionalContext
	}
	if !out.Continue {
		top["continue"] = false
		if out.StopReason != "" {
			top["stopReason"] = out.StopReason
		}
	}
	if msg := hostkit.Message(out); msg != "" {
		top["systemMessage"] = msg
	}
	if len(hso) > 0 {
		hso["hookEventName"] = ev.HostEvent
		top["hookSpecificOutput"] = hso
	}
	return hostkit.Marshal(top, false)
}

// ReadReply reads a Gemini CLI script's answer: exit 2 (or any status
// but 1 without JSON) blocks with stderr as the reason, JSON may come on
// stderr, exit 1 is a failure.
func (p *Protocol) ReadReply(event string, _ map[string]any, code int, stdout, stderr []byte, _ string) (engine.Result, error) {
	errText := strings.TrimSpace(string(stderr))
	if code != 0 && !protocol.IsJSONOutput(stdout) {
		switch {
		case protocol.IsJSONOutput(stderr):
			stdout = stderr
		case code == 1:
			return nil, &protocol.ExitError{Code: code, Stderr: hostkit.FirstLine(errText)}
		default:
			return engine.Result{"decision": "block", "reason": hostkit.OrText(errText, fmt.Sprintf("blocked by hook (exit status %d)", code))}, nil
		}
	}
	raw, err := hostkit.DecodeReply(stdout)
	if raw == nil {
		return nil, err
	}
	res := engine.Result{}
	str := func(k string) string { s, _ := raw[k].(string); return s }
	if d := hostkit.ReadDecision(event, str("decision")); d != "" {
		res["decision"] = d
	}
	if r := str("reason"); r != "" {
		res["reason"] = r
	}
	if hso, ok := raw["hookSpecificOutput"].(map[string]any); ok {
		if in, ok := hso["tool_input"].(map[string]any); ok {
			res["updated_input"] = in
		}
		if c, _ := hso["additionalContext"].(string); c != "" {
			res["additional_context"] = c
		}
	}
	hostkit.ReadUniversal(raw, res)
	return hostkit.Result(res), nil
}

// ConfigPath is Gemini CLI's project settings.
func (p *Protocol) ConfigPath() string { return ".gemini/settings.json" }

// Install registers command in Gemini CLI's shape (timeouts in
// milliseconds).
func (p *Protocol) Install(existing []byte, req protocol.InstallRequest) (*protocol.Installed, error) {
	return p.InstallWith(p.ConfigPath(), existing, req, p.HookCommand, func(_, command string, d time.Duration) any {
		return hostkit.GroupEntry(command, map[string]any{"name": "hookctl", "timeout": p.EntryTimeout(d)})
	}, nil)
}

// ToClaudeSettings imports Gemini CLI's hooks: Claude-shaped groups,
// timeouts in milliseconds.
func (p *Protocol) ToClaudeSettings(data []byte) ([]byte, []string, error) {
	return p.ImportWith(data, func(e map[string]any) ([]any, bool) { return hostkit.GroupHandlers(e, Name, 1000), true })
}

// Gates: Gemini CLI's folder trust. In a folder it has not been told to
// trust, Gemini CLI loads no hook at all (the user's included) and
// gemini -p refuses to start (verified with 0.61.0). The trust rules are
// in ~/.gemini/trustedFolders.json ($GEMINI_CLI_TRUSTED_FOLDERS_PATH);
// security.folderTrust.enabled = false in the user's settings turns the
// gate off. The user's home is getenv's HOME (else this process's).
func (p *Protocol) Gates(projectDir string, getenv func(string) string) []protocol.Gate {
	g := protocol.Gate{Name: "Gemini CLI folder trust"}
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if abs, err := filepath.Abs(projectDir); err == nil {
		projectDir = abs
	}
	if home != "" {
		if b, err := os.ReadFile(filepath.Join(home, ".gemini", "settings.json")); err == nil {
			var s struct {
				Security struct {
					FolderTrust struct {
						Enabled *bool `json:"enabled"`
					} `json:"folderTrust"`
				} `json:"security"`
			}
			if json.Unmarshal(b, &s) == nil && s.Security.FolderTrust.Enabled != nil && !*s.Security.FolderTrust.Enabled {
				g.State, g.Detail = protocol.GateOpen, "folder trust is off (security.folderTrust.enabled = false in ~/.gemini/settings.json)"
				return []protocol.Gate{g}
			}
		}
	}
	file := getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
	if file == "" && home != "" {
		file = filepath.Join(home, ".gemini", "trustedFolders.json")
	}
	rules := map[string]string{}
	b, err := os.ReadFile(file)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		g.State, g.Detail = protocol.GateUnknown, fmt.Sprintf("%s cannot be read: %v", file, err)
		return []protocol.Gate{g}
	case err == nil:
		if err := json.Unmarshal(b, &rules); err != nil {
			g.State, g.Detail = protocol.GateUnknown, fmt.Sprintf("%s is not a JSON object: %v", file, err)
			return []protocol.Gate{g}
		}
	}
	project := filepath.Clean(projectDir)
	within := func(root string) bool {
		rel, err := filepath.Rel(filepath.Clean(root), project)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
	}
	for path, level := range rules {
		switch level {
		case "TRUST_FOLDER":
			if within(path) {
				g.State, g.Detail = protocol.GateOpen, fmt.Sprintf("trusted (%s: %s)", path, level)
			}
		case "TRUST_PARENT":
			if within(filepath.Dir(path)) {
				g.State, g.Detail = protocol.GateOpen, fmt.Sprintf("trusted (%s: %s)", path, level)
			}
		}
	}
	if g.State == protocol.GateOpen {
		return []protocol.Gate{g}
	}
	g.State = protocol.GateClosed
	g.Detail = fmt.Sprintf("%s is not a trusted folder (%s): Gemini CLI loads no hook there, and gemini -p refuses to start; trust the folder in Gemini CLI (or set security.folderTrust.enabled = false)", project, file)
	for path, level := range rules {
		if level == "DO_NOT_TRUST" && within(path) {
			g.Detail = fmt.Sprintf("%s is marked DO_NOT_TRUST (%s in %s): Gemini CLI loads no hook there", project, path, file)
		}
	}
	return []protocol.Gate{g}
}

// carries is Gemini CLI's Table.Carries: a rewritten tool input on
// BeforeTool, when it has every field of the original. Gemini CLI merges
// hookSpecificOutput.tool_input into the call's arguments, so a field a
// rewrite leaves out keeps its original value: the call it runs would be
// one the hooks after the rewrite did not judge (a rewrite of {} left
// them no command, and Gemini CLI ran the original).
func carries(ev *protocol.Event, out *engine.Outcome, field string) bool {
	if !protocol.CarriesToolInput(ev, out, field) {
		return false
	}
	orig, _ := ev.Payload["tool_input"].(map[string]any)
	for k, was := range orig {
		// A null where the original has a value is no value either: a
		// merge may keep the original's.
		if v, ok := out.UpdatedInput[k]; !ok || v == nil && was != nil {
			return false
		}
	}
	return true
}
