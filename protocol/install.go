package protocol

import (
	"github.com/hookctl/hookctl/engine"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/internal/shquote"
)

// InstallRequest is what an install registers in a host's configuration.
type InstallRequest struct {
	// Events are the catalog events the configuration has hooks on.
	Events []string
	// Program is the program the host runs: hookctl or hookctl-client
	// (or a path to one).
	Program string
	// Config is the absolute path of the configuration the hook loads
	// (written as --config); empty for none.
	Config string
	// Command, when set, is registered as it is instead of the host's
	// command for Program and Config; its --config (if any) says which
	// configuration it is for.
	Command string
	// ProjectDir is the project directory: a relative --config of an
	// entry already in the file is read against it (hosts run their
	// hooks there).
	ProjectDir string
	// Discovered is the configuration a hookctl entry without --config
	// loads in the project (what discovery finds there; empty when none):
	// such an entry is for the same configuration when this is Config.
	Discovered string
	// Timeout is the timeout the host gives each entry (0: the host's
	// default for the event, HookTimeout), rounded up to the host's unit:
	// written in the entry's own timeout field and, as --host-timeout, at
	// the end of the command, so that hookctl answers before the host
	// stops waiting.
	Timeout time.Duration
}

// Installed is what an install wrote.
type Installed struct {
	// Data is the new configuration file.
	Data []byte
	// Command is the hook command registered (for the first event; a
	// host may add the event to it).
	Command string
	// Notes are for the user: events the host does not have, entries for
	// other configurations that were kept.
	Notes []string
}

// HookctlCommand is a command line that runs hookctl's hook command, as
// an install writes it.
type HookctlCommand struct {
	// Program is the program as written (hookctl, /usr/bin/hookctl-client).
	Program string
	// Subcommand is claude or hook.
	Subcommand string
	// Config is the --config value as written; empty when there is none.
	Config string
	// HostTimeout is the --host-timeout value as written; empty when
	// there is none.
	HostTimeout string
}

// valueFlags are the flags of hookctl's hook commands (besides --config
// and --host-timeout) whose value is the next word.
var valueFlags = map[string]bool{"--host": true, "--event": true, "--on-ask": true, "--on-config-error": true, "--on-untrusted": true, "--log-level": true}

// installedPrograms and installedCommands are what an install registers:
// hookctl's programs and their subcommands that answer a host.
var (
	installedPrograms = map[string]bool{"hookctl": true, "hookctl-client": true}
	installedCommands = map[string]bool{"hook": true, "claude": true}
)

// ParseHookctlCommand reads a command line as a host's shell would and
// reports whether it is one simple command running hookctl's (or
// hookctl-client's) hook or claude subcommand, with its --config. A line
// that is anything more (a pipeline, cd x && ..., a variable to expand)
// is not: an install leaves it alone.
func ParseHookctlCommand(line string) (HookctlCommand, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) != 1 {
		return HookctlCommand{}, false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(st.Redirs) > 0 || st.Negated || st.Background || len(call.Args) < 2 {
		return HookctlCommand{}, false
	}
	dynamic := false
	syntax.Walk(call, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob, *syntax.BraceExp:
			dynamic = true
		}
		return !dynamic
	})
	if dynamic {
		return HookctlCommand{}, false
	}
	words := make([]string, 0, len(call.Args))
	for _, w := range call.Args {
		fs, err := expand.Fields(nil, w)
		if err != nil || len(fs) != 1 {
			return HookctlCommand{}, false
		}
		words = append(words, fs[0])
	}
	c := HookctlCommand{Program: words[0]}
	if !installedPrograms[strings.TrimSuffix(filepath.Base(c.Program), ".exe")] {
		return HookctlCommand{}, false
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--config" || w == "-c":
			if i+1 < len(words) {
				c.Config = words[i+1]
				i++
			}
		case strings.HasPrefix(w, "--config="):
			c.Config = strings.TrimPrefix(w, "--config=")
		case strings.HasPrefix(w, "-c=") || strings.HasPrefix(w, "-c") && !strings.HasPrefix(w, "--"):
			c.Config = strings.TrimPrefix(strings.TrimPrefix(w, "-c"), "=")
		case w == "--host-timeout":
			if i+1 < len(words) {
				c.HostTimeout = words[i+1]
				i++
			}
		case strings.HasPrefix(w, "--host-timeout="):
			c.HostTimeout = strings.TrimPrefix(w, "--host-timeout=")
		case valueFlags[w]:
			i++ // its value is no subcommand
		case c.Subcommand == "" && !strings.HasPrefix(w, "-"):
			c.Subcommand = w
		}
	}
	if !installedCommands[c.Subcommand] {
		return HookctlCommand{}, false
	}
	return c, true
}

// CommandLine is the hook command of a host for the request: the
// host's HookCommand of Program with --config Config, each word quoted
// for the POSIX shells the hosts run their commands with (bash -c, sh -c,
// crush's mvdan.cc/sh).
func (t *Table) CommandLine(hookCommand func(prog string) string, req InstallRequest) (string, error) {
	if req.Command != "" {
		return req.Command, nil
	}
	prog, err := shquote.Word(req.Program)
	if err != nil {
		return "", fmt.Errorf("program %q: %w", req.Program, err)
	}
	line := hookCommand(prog)
	if req.Config != "" {
		cfg, err := shquote.Word(req.Config)
		if err != nil {
			return "", fmt.Errorf("configuration %q: %w", req.Config, err)
		}
		line += " --config " + cfg
	}
	return line, nil
}

// sameConfig reports whether an entry's command is an earlier install of
// the request's configuration (so the install replaces it): the same
// command (want: without its --host-timeout, which an earlier install may
// have written with another value), or hookctl with the same absolute
// --config, or without one where the request's is what the project
// discovers; other flags (--host-timeout, --verbose) do not matter.
func sameConfig(cmd string, want string, req InstallRequest) (mine, hookctl bool) {
	if cmd == want || trimHostTimeout(cmd) == want {
		return true, true
	}
	c, ok := ParseHookctlCommand(cmd)
	if !ok {
		return false, false
	}
	target := req.Config
	if req.Command != "" {
		if w, ok := ParseHookctlCommand(req.Command); ok {
			target = absIn(req.ProjectDir, w.Config)
		} else {
			return false, true
		}
	}
	if c.Config == "" {
		return target == "" || target == req.Discovered && req.Discovered != "", true
	}
	return absIn(req.ProjectDir, c.Config) == target, true
}

// trimHostTimeout is cmd without the " --host-timeout D" an install
// appends to it (unchanged when it does not end so).
func trimHostTimeout(cmd string) string {
	i := strings.LastIndex(cmd, " --host-timeout ")
	if i < 0 || strings.ContainsAny(cmd[i+len(" --host-timeout "):], " \t\n") {
		return cmd
	}
	return cmd[:i]
}

// withHostTimeout is command with d appended as --host-timeout (a quoted
// word, as every word an install writes).
func withHostTimeout(command string, d time.Duration) string {
	w, _ := shquote.Word(FormatTimeout(d)) // ASCII: always a word
	return command + " --host-timeout " + w
}

// EntryDeadline is the timeout an install gives an entry of the host's
// event hostEvent: the request's (else the host's default for the
// event), rounded up to the host's unit.
func (t *Table) EntryDeadline(req InstallRequest, hostEvent string) time.Duration {
	d := req.Timeout
	if d <= 0 {
		d = t.HookTimeout(hostEvent)
	}
	return t.RoundTimeout(d)
}

// absIn is path made absolute against dir (cleaned); empty stays empty.
func absIn(dir, path string) string {
	if path == "" {
		return ""
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return filepath.Clean(path)
}

// entryCommands are the commands of a registration: a flat entry's
// command (or Copilot's bash), or a matcher group's handlers' commands.
func entryCommands(raw json.RawMessage) []string {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	for _, k := range []string{"command", "bash"} {
		if s, ok := m[k].(string); ok {
			return []string{s}
		}
	}
	inner, _ := m["hooks"].([]any)
	var out []string
	for _, h := range inner {
		hm, _ := h.(map[string]any)
		s, ok := hm["command"].(string)
		if !ok {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// classify says whether a registration is this configuration's (every
// command an earlier install of it), another configuration's hookctl
// entry, or something else.
func classify(raw json.RawMessage, want string, req InstallRequest) (mine, other bool) {
	cmds := entryCommands(raw)
	if len(cmds) == 0 {
		return false, false
	}
	mine = true
	for _, c := range cmds {
		// Copilot's entries carry --event after the command.
		m, h := sameConfig(c, want, req)
		if !m {
			if base, _, ok := strings.Cut(c, " --event "); ok {
				m, h = sameConfig(base, want, req)
			}
		}
		mine = mine && m
		other = other || h && !m
	}
	return mine, other && !mine
}

// InstallWith is Installer.Install for a host whose configuration file is
// a JSON object with a "hooks" object of event names to lists of entries:
// entry writes one registration of command in the host's shape, and
// defaults are top-level fields set when the file has none (Cursor's
// version); entry gets the command with its --host-timeout and the
// timeout to write in the host's own field (EntryDeadline). The edit is
// minimal: the file keeps its bytes, its keys and
// their order outside the lists it changes, and in them every entry it
// does not replace. Entries an earlier install made for the same
// configuration are replaced in place, so installing twice changes
// nothing; hookctl entries for another configuration (an organisation's
// policy) are kept and reported.
func (t *Table) InstallWith(path string, existing []byte, req InstallRequest, hookCommand func(string) string, entry func(event, command string, timeout time.Duration) any, defaults map[string]any) (*Installed, error) {
	command, err := t.CommandLine(hookCommand, req)
	if err != nil {
		return nil, err
	}
	doc, err := parseDocument(path, existing)
	if err != nil {
		return nil, err
	}
	for _, k := range sortedKeys(defaults) {
		if _, ok := doc.member(k); !ok {
			v, _ := json.Marshal(defaults[k])
			doc.insert(k, v)
		}
	}
	var hooks []member
	if raw, ok := doc.member("hooks"); ok && !bytes.Equal(raw, []byte("null")) {
		hooks, err = objectMembers(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: \"hooks\": %w; the file was left alone", path, err)
		}
	}
	lists := make([][]json.RawMessage, len(hooks))
	for i, m := range hooks {
		if lists[i], err = arrayElems(m.raw); err != nil {
			return nil, fmt.Errorf("%s: \"hooks\".%q: %w; the file was left alone", path, m.key, err)
		}
	}
	var notes []string
	others := 0
	// Mark this configuration's entries: the first of a list is where the
	// new one goes.
	slot := map[string]int{}
	for i, m := range hooks {
		var kept []json.RawMessage
		for _, e := range lists[i] {
			mine, other := classify(e, command, req)
			if other {
				others++
			}
			if mine {
				if _, ok := slot[m.key]; !ok {
					slot[m.key] = len(kept)
					kept = append(kept, nil) // placeholder
				}
				continue
			}
			kept = append(kept, e)
		}
		lists[i] = kept
	}
	index := map[string]int{}
	for i, m := range hooks {
		index[m.key] = i
	}
	first := ""
	for _, ev := range req.Events {
		names := t.HostEvents(ev)
		if len(names) == 0 {
			notes = append(notes, fmt.Sprintf("%s has no event for %s: its hooks never run there", t.HostTitle, ev))
			continue
		}
		for _, name := range names {
			d := t.EntryDeadline(req, name)
			b, err := marshalEntry(entry(name, withHostTimeout(command, d), d))
			if err != nil {
				return nil, err
			}
			if cmds := entryCommands(b); first == "" && len(cmds) > 0 {
				first = cmds[0]
			}
			b = append(json.RawMessage(fresh), b...)
			i, ok := index[name]
			if !ok {
				hooks = append(hooks, member{key: name})
				lists = append(lists, nil)
				i = len(hooks) - 1
				index[name] = i
			}
			if s, ok := slot[name]; ok && lists[i][s] == nil {
				lists[i][s] = b
				continue
			}
			lists[i] = append(lists[i], b)
		}
	}
	if others > 0 {
		notes = append(notes, fmt.Sprintf("kept %d hookctl entr%s of %s for another configuration (they still run)", others, plural(others, "y", "ies"), path))
	}
	doc.set("hooks", doc.formatHooks(hooks, lists))
	if first == "" {
		first = command
	}
	return &Installed{Data: doc.bytes(), Command: first, Notes: notes}, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// HookCommand is the command of a host that runs hookctl hook --host.
func (t *Table) HookCommand(prog string) string { return prog + " hook --host " + t.HostName }

// ErrNotObject is what a configuration file that is not a JSON object
// matches with errors.Is.
var ErrNotObject = errors.New("not a JSON object")

// RoundTimeout rounds d up to a whole number of the host's timeout unit
// (at least one).
func (t *Table) RoundTimeout(d time.Duration) time.Duration {
	u := t.Unit()
	n := max(int64(math.Ceil(float64(d)/float64(u))), 1)
	return time.Duration(n) * u
}

// EntryTimeout is d in the host's timeout unit, for its configuration
// file.
func (t *Table) EntryTimeout(d time.Duration) int64 { return int64(t.RoundTimeout(d) / t.Unit()) }

// FormatTimeout writes d as --host-timeout takes it: whole seconds as
// "60s", else milliseconds ("1500ms").
func FormatTimeout(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return fmt.Sprintf("%dms", d.Milliseconds())
}

// ConfigFiles lists the host's hook configuration files that exist: the
// project's (ProjectFiles, else ConfigPath, under project) and the user's
// (UserFiles under home); the names are glob patterns.
func (t *Table) ConfigFiles(project, home string) []string {
	var out []string
	add := func(dir string, patterns []string) {
		if dir == "" {
			return
		}
		// The patterns are matched below dir, whose own name is never
		// read as a pattern (a project named proj[1]).
		fsys := os.DirFS(dir)
		for _, p := range patterns {
			matches, _ := fs.Glob(fsys, filepath.ToSlash(p))
			for _, m := range matches {
				m = filepath.Join(dir, filepath.FromSlash(m))
				if fi, err := os.Stat(m); err == nil && fi.Mode().IsRegular() {
					out = append(out, m)
				}
			}
		}
	}
	add(project, t.ProjectFiles)
	add(home, t.UserFiles)
	return out
}

// Entries reads the command hooks of a configuration file shaped as every
// host but Codex's config.toml has it: a "hooks" object of event names to
// lists of entries, each a group ({matcher, hooks: [...]}) or a handler
// ({command} or {bash}, with timeout or timeoutSec in the host's unit).
func (t *Table) Entries(data []byte) ([]Entry, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var doc struct {
		Hooks map[string][]map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a hook configuration: %w", err)
	}
	var out []Entry
	handler := func(event string, h map[string]any) {
		cmd, _ := h["command"].(string)
		if cmd == "" {
			cmd, _ = h["bash"].(string)
		}
		if cmd == "" {
			return
		}
		e := Entry{Event: event, Command: cmd}
		if ty, ok := h["type"]; ok {
			e.Type = fmt.Sprint(ty)
		}
		for _, k := range []string{"async", "asyncRewake"} {
			if v, _ := h[k].(bool); v {
				e.Async = true
			}
		}
		for _, k := range []string{"timeout", "timeoutSec"} {
			if n, ok := h[k].(float64); ok && n > 0 {
				u := t.Unit()
				if k == "timeoutSec" {
					u = time.Second
				}
				e.Timeout = time.Duration(n * float64(u))
			}
		}
		out = append(out, e)
	}
	events := make([]string, 0, len(doc.Hooks))
	for event := range doc.Hooks {
		events = append(events, event)
	}
	slices.Sort(events)
	for _, event := range events {
		for _, e := range doc.Hooks[event] {
			inner, ok := e["hooks"].([]any)
			if !ok {
				handler(event, e)
				continue
			}
			for _, h := range inner {
				if hm, ok := h.(map[string]any); ok {
					handler(event, hm)
				}
			}
		}
	}
	return out, nil
}

// HasEvent reports whether the host has the event: a key of EventMap,
// or, for a host without one (Claude Code, whose events are the
// catalog's), a catalog event's own name (not an alias). The match is
// exact: hosts compare event keys case-sensitively.
func (t *Table) HasEvent(name string) bool {
	if len(t.EventMap) > 0 {
		_, ok := t.EventMap[name]
		return ok
	}
	for _, s := range engine.BuiltinEvents() {
		if s.Name == name {
			return true
		}
	}
	return false
}
