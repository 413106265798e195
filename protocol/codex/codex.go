package codex

import (
	"errors"
	"maps"
	"path"
	"reflect"
	"strings"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/lib/patch"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/claude"
	"github.com/hookctl/hookctl/protocol/internal/hostkit"
)

// Name is Codex's --host name.
const Name = "codex"

// Protocol is Codex's hook protocol.
type Protocol struct {
	protocol.Table
}

var _ protocol.Protocol = (*Protocol)(nil)

// New returns Codex's protocol.
func New() *Protocol {
	return &Protocol{Table: protocol.Table{
		Shell:    protocol.ShellPowerShell, // how it runs a command line on Windows
		HostName: Name, HostTitle: "Codex", EventField: "hook_event_name",
		EventMap: events(),
		Exit:     2,
		Encode:   reply,
		Carries: func(ev *protocol.Event, out *engine.Outcome, field string) bool {
			if ev.Name == "PreToolUse" {
				return field == "updated_input"
			}
			return claude.Carries(ev, out, field)
		},
		// timeout in seconds, 600 when omitted (Codex's hooks
		// documentation, quoted in openai/codex#35382); SessionEnd and
		// Interrupt are capped at 3 s (secondary sources).
		Timeout:      600 * time.Second,
		Timeouts:     map[string]time.Duration{"SessionEnd": 3 * time.Second, "Interrupt": 3 * time.Second},
		ProjectFiles: []string{".codex/hooks.json"}, UserFiles: []string{".codex/hooks.json"},
	}}
}

// events are Codex's events (0.169.0 fires SessionEnd and has no
// StopFailure): its own names are the catalog's, except Interrupt, which
// has no catalog event and is reported.
func events() map[string]protocol.Mapping {
	m := map[string]protocol.Mapping{"Interrupt": {Event: "Interrupt", Unsupported: true}}
	for _, e := range []string{"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
		"PostToolUse", "PreCompact", "PostCompact", "Stop", "SubagentStart", "SubagentStop"} {
		m[e] = protocol.Mapping{Event: e}
	}
	return m
}

// Decode maps a Codex payload onto the catalog. An apply_patch call
// carries its files only in the patch text (tool_input.command): they are
// read out of it into Claude Code's fields (see patchInput).
func (p *Protocol) Decode(raw map[string]any, event string) (*protocol.Event, error) {
	ev, err := p.DecodeAs(p, raw, event)
	if err != nil {
		return nil, err
	}
	// A tool input a hook rewrites is read as the payload's is: the
	// hooks after it judge the command and the files Codex will run.
	ev.ReadInput = ReadInput
	name, _ := ev.Payload["tool_name"].(string)
	in, ok := ev.Payload["tool_input"].(map[string]any)
	if !ok || name == "" {
		return ev, nil
	}
	out := ReadInput(name, in)
	if sameMap(out, in) {
		return ev, nil
	}
	// A copy: the payload may be the caller's map.
	ev.Payload = maps.Clone(ev.Payload)
	ev.Payload["tool_input"] = out
	return ev, nil
}

// ReadInput is Codex's reading of a tool's input (in, or a copy): an
// apply_patch's files (paths, file_path, content) read from its patch;
// exec_command's command line, which it names cmd, as command, where the
// built-ins and conditions read it (cmd is what exec_command runs: a
// command beside it is replaced; shell, local_shell and shell_command run
// their command, and a cmd beside it is not theirs); a shell line that
// runs apply_patch, its patches' files.
func ReadInput(name string, in map[string]any) map[string]any {
	switch {
	case name == applyPatch:
		return patchInput(in)
	case engine.CanonicalTool(name) == "Bash":
		out := in
		_, hasCommand := in["command"]
		if cmd, isStr := in["cmd"].(string); isStr && in["command"] != any(cmd) && (name == execCommand || !hasCommand) {
			out = maps.Clone(in)
			out["command"] = cmd
		}
		// The model may run apply_patch through the shell.
		if calls, isPatch, err := shellPatch(out["command"]); isPatch {
			return withCalls(maps.Clone(out), calls, err)
		}
		return out
	}
	return in
}

// sameMap reports whether a and b are one map.
func sameMap(a, b map[string]any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// shellPatch finds the patches of a shell call that runs apply_patch: a
// command line, read through the shell parser (patch.ShellCalls), or an
// argv (["apply_patch", PATCH], ["bash", "-lc", LINE]). err says why the
// patches cannot be read when the call runs apply_patch or may run it.
func shellPatch(command any) (calls []patch.Call, ok bool, err error) {
	switch c := command.(type) {
	case string:
		return patch.ShellCalls(c)
	case []any:
		argv := make([]string, 0, len(c))
		for _, a := range c {
			s, isStr := a.(string)
			if !isStr {
				return nil, true, &patch.UnreadableError{Msg: "the command is an argv with a word that is not text"}
			}
			argv = append(argv, s)
		}
		switch {
		case len(argv) == 0:
			return nil, false, nil
		case path.Base(argv[0]) == "apply_patch" || path.Base(argv[0]) == "applypatch":
			if len(argv) == 2 {
				return []patch.Call{{Text: argv[1]}}, true, nil
			}
			return nil, true, &patch.UnreadableError{Msg: "apply_patch is not given its patch as its one argument"}
		case len(argv) == 3 && strings.HasPrefix(argv[1], "-") && strings.Contains(argv[1], "c"):
			return patch.ShellCalls(argv[2])
		}
		// Any other argv is one command line's words.
		return patch.ShellCalls(shellJoin(argv))
	}
	return nil, false, nil
}

// shellJoin quotes argv into one command line.
func shellJoin(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// applyPatch is Codex's tool that adds, changes, deletes and moves files
// by a patch.
const applyPatch = "apply_patch"

// execCommand is the Codex tool that runs its cmd (the others run command).
const execCommand = "exec_command"

// patchInput is an apply_patch call's tool_input (a copy) with the files
// of its patch in Claude Code's fields, so that every condition and
// built-in that reads a tool's paths sees them:
//
//   - paths: every file the patch touches, in order, move targets included;
//   - file_path: the file, when the patch touches one;
//   - content: the content of the added file, when the patch adds one.
//
// A patch that cannot be read (Codex would refuse it too) gets
// paths_unknown: true and paths_error (why): its files are unknown, never
// none, and the built-ins that guard paths treat it so. The patch is what
// Codex applies, so these fields replace any the input came with.
func patchInput(in map[string]any) map[string]any {
	text, ok := in["command"].(string)
	if other, both := in["input"].(string); ok && both && other != text {
		// Two patches, one of which Codex applies: neither's files
		// alone are the call's.
		return withCalls(maps.Clone(in), nil, errors.New("the call holds two different patches, in command and in input"))
	}
	if !ok {
		// Codex's freeform form names it input.
		text, ok = in["input"].(string)
	}
	return withPatch(maps.Clone(in), text, ok, "")
}

// withCalls sets out's path fields from the patches of a shell line's
// apply_patch commands (err: they cannot be read): every file of every
// patch.
func withCalls(out map[string]any, calls []patch.Call, err error) map[string]any {
	if err == nil && len(calls) == 1 {
		return withPatch(out, calls[0].Text, true, calls[0].Dir)
	}
	if err == nil {
		var all []any
		for _, c := range calls {
			one := withPatch(map[string]any{}, c.Text, true, c.Dir)
			if unknown, _ := one["paths_unknown"].(bool); unknown {
				return withPatch(out, c.Text, true, c.Dir)
			}
			all = append(all, one["paths"].([]any)...)
		}
		out = withPatch(out, calls[0].Text, true, calls[0].Dir)
		out["paths"] = all
		delete(out, "file_path")
		delete(out, "content")
		return out
	}
	for _, k := range []string{"file_path", "paths", "content"} {
		delete(out, k)
	}
	out["paths_unknown"] = true
	out["paths_error"] = err.Error()
	return out
}

// withPatch sets out's path fields from the patch text (hasText false:
// there was none), its relative paths taken in dir when it is not "".
func withPatch(out map[string]any, text string, hasText bool, dir string) map[string]any {
	delete(out, "paths_unknown")
	delete(out, "paths_error")
	var pt *patch.Patch
	err := errors.New("no patch text in tool_input.command")
	if hasText {
		pt, err = patch.Parse(text)
	}
	if err != nil {
		delete(out, "file_path")
		delete(out, "paths")
		delete(out, "content")
		out["paths_unknown"] = true
		out["paths_error"] = err.Error()
		return out
	}
	ps := pt.Paths()
	list := make([]any, len(ps))
	for i, s := range ps {
		if dir != "" && !path.IsAbs(s) && !strings.HasPrefix(s, "~") {
			s = path.Join(dir, s)
			ps[i] = s
		}
		list[i] = s
	}
	out["paths"] = list
	delete(out, "file_path")
	if len(ps) == 1 {
		out["file_path"] = ps[0]
	}
	delete(out, "content")
	if added := pt.Added(); len(added) == 1 {
		out["content"] = added[0].Content
	}
	return out
}

// Detect: Codex adds turn_id to Claude Code's shape.
func (p *Protocol) Detect(raw map[string]any, _ func(string) string) (protocol.Hint, bool) {
	if _, ok := raw["turn_id"]; ok {
		return protocol.Hint{Rank: protocol.RankPayloadField, Why: "the payload has turn_id (Codex)"}, true
	}
	return protocol.Hint{}, false
}

// Limitations of Codex.
func (p *Protocol) Limitations() []string {
	return []string{
		"no defer on PreToolUse: a defer is an ask, and so mapped by --on-ask (deny by default)",
		"no ask on PreToolUse: an ask is mapped by --on-ask (deny by default)",
		"PreToolUse takes allow only with updatedInput: a plain allow is no opinion",
		"continue:false on PreToolUse would run the tool: it is a deny",
		"Interrupt has no catalog event: reported on stderr, answered with an empty reply",
		"no StopFailure and no Notification: install does not register them",
		"no context for the model on PreToolUse: additional_context is said on stderr",
	}
}

// reply is Claude Code's reply with Codex's PreToolUse rules.
func reply(ev *protocol.Event, out engine.Outcome) protocol.Reply {
	if ev.Name != "PreToolUse" {
		return claude.Format(out)
	}
	hso := map[string]any{"hookEventName": "PreToolUse"}
	top := map[string]any{}
	switch {
	case !out.Continue:
		// continue:false would mark the hook failed and run the tool.
		hso["permissionDecision"] = "deny"
		hso["permissionDecisionReason"] = hostkit.ReasonOr(out.StopReason, hostkit.ReasonOr(out.Reason, "stopped by a hook"))
	case out.Decision == engine.DecisionDeny || out.Blocked:
		hso["permissionDecision"] = "deny"
		hso["permissionDecisionReason"] = hostkit.ReasonOr(out.Reason, "blocked by a hook")
	case out.UpdatedInput != nil:
		// allow is valid only with updatedInput.
		hso["permissionDecision"] = "allow"
		hso["updatedInput"] = out.UpdatedInput
		if out.Reason != "" {
			hso["permissionDecisionReason"] = out.Reason
		}
	}
	if msg := hostkit.Message(out); msg != "" {
		top["systemMessage"] = msg
	}
	if len(hso) > 1 {
		top["hookSpecificOutput"] = hso
	}
	r := hostkit.Marshal(top, false)
	if out.AdditionalContext != "" {
		r = hostkit.WithStderr(r, hostkit.DroppedContext("Codex", ev.HostEvent, out.AdditionalContext))
	}
	return r
}

// ReadReply reads a Codex script's answer by Claude Code's rules.
func (p *Protocol) ReadReply(event string, _ map[string]any, code int, stdout, stderr []byte, argv0 string) (engine.Result, error) {
	return claude.Interpret(event, code, stdout, stderr, argv0)
}

// ConfigPath is Codex's project hook file.
func (p *Protocol) ConfigPath() string { return ".codex/hooks.json" }

// Install registers command in Claude Code's shape, with notes on
// Codex's hook review and project trust (without them the hooks never
// run).
func (p *Protocol) Install(existing []byte, req protocol.InstallRequest) (*protocol.Installed, error) {
	res, err := p.InstallWith(p.ConfigPath(), existing, req, p.HookCommand, func(_, command string, d time.Duration) any {
		return hostkit.GroupEntry(command, map[string]any{"timeout": p.EntryTimeout(d)})
	}, nil)
	if err == nil {
		res.Notes = append(res.Notes, installNotes...)
	}
	return res, err
}

// ToClaudeSettings imports Codex's hooks: Claude-shaped groups, timeouts
// in seconds.
func (p *Protocol) ToClaudeSettings(data []byte) ([]byte, []string, error) {
	return p.ImportWith(data, func(e map[string]any) ([]any, bool) { return hostkit.GroupHandlers(e, Name, 1), true })
}
