package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/internal/dirs"
	"github.com/hookctl/hookctl/internal/termsafe"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/trust"
)

// doctorReport is what hookctl doctor found (its --json output).
type doctorReport struct {
	Project string `json:"project"`
	// Guarded is false when the next event of some host would not be
	// guarded (the exit status is then 1).
	Guarded bool         `json:"guarded"`
	Hosts   []hostReport `json:"hosts"`
	// Layers are the three configuration layers: where each is looked
	// for and what was found there.
	Layers []layerReport `json:"layers"`
	// Problems are the ones of no host (no host runs hookctl).
	Problems []string `json:"problems,omitempty"`
}

// layerReport is one configuration layer: where it is looked for, the
// configurations found there, how they are trusted, and how many hooks
// each layer adds.
type layerReport struct {
	Layer    string   `json:"layer"`
	Location string   `json:"location"`
	Found    []string `json:"found,omitempty"`
	Trust    string   `json:"trust"`
	Hooks    int      `json:"hooks"`
	Notes    []string `json:"notes,omitempty"`
	Problems []string `json:"problems,omitempty"`
}

// doctorLayers reports the layers as a call in the project discovers and
// loads them; ok is false when a layer is refused or they do not load.
func (a *app) doctorLayers(project string) (out []layerReport, ok bool) {
	getenv := os.Getenv
	userDir, uerr := dirs.Config(getenv)
	if uerr != nil {
		userDir = uerr.Error()
	}
	projectAt := "discovered as ever: --config, $HOOKCTL_CONFIG, ./hooks.hcl, ./.hookctl/, $CLAUDE_PROJECT_DIR/.claude/hooks.hcl, ./.claude/hooks.hcl"
	if a.configPath != "" {
		projectAt = a.configPath + " (--config)"
	}
	out = []layerReport{
		{Layer: runtime.LayerManaged, Location: dirs.Managed(getenv) + " (its *.hcl files and *.d/ drop-ins)", Trust: "trusted because the user running hookctl cannot write it"},
		{Layer: runtime.LayerUser, Location: userDir, Trust: "trusted as your own directory (no one else may write it)"},
		{Layer: runtime.LayerProject, Location: projectAt, Trust: "trusted through hookctl trust"},
	}
	at := func(name string) *layerReport {
		return &out[slices.IndexFunc(out, func(l layerReport) bool { return l.Layer == name })]
	}
	ok = true
	layers, err := runtime.DiscoverLayers(a.configPath, project, getenv)
	if err != nil {
		var me *runtime.ManagedError
		if errors.As(err, &me) {
			l := at(me.Layer)
			l.Problems = append(l.Problems, err.Error()+": every event it guards is blocked")
			return out, false
		}
		// The host's commands may name the project's with --config:
		// they are checked below.
		at(runtime.LayerProject).Notes = append(at(runtime.LayerProject).Notes, err.Error())
		return out, errors.Is(err, runtime.ErrNoConfig)
	}
	for _, l := range layers {
		at(l.Name).Found = append(at(l.Name).Found, l.Path)
	}
	layers, err = runtime.New().OpenLayers(a.configPath, project, getenv)
	if err != nil {
		var me *runtime.ManagedError
		if errors.As(err, &me) {
			l := at(me.Layer)
			l.Problems = append(l.Problems, err.Error()+": every event it guards is blocked")
		}
		return out, false
	}
	for i, l := range layers {
		if !filepath.IsAbs(l.Path) {
			layers[i].Path = filepath.Join(project, l.Path)
		}
	}
	d := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, logLevel: "error", configPath: a.configPath}
	var diag strings.Builder
	d.stderr = &diag
	eng, cfg, err := d.loadLayers(layers, false, nil)
	if err != nil {
		at(runtime.LayerProject).Problems = append(at(runtime.LayerProject).Problems, "the configuration does not load: "+strings.TrimSpace(firstLines(diag.String(), err)))
		return out, false
	}
	defer func() {
		eng.Close(context.Background())
		cfg.Close()
	}()
	for _, ev := range eng.EventsWithHooks() {
		hs, _ := eng.Hooks(ev)
		for _, h := range hs {
			name := h.Layer
			if name == "" {
				name = runtime.LayerProject
			}
			at(name).Hooks++
		}
	}
	for _, w := range cfg.Warnings.List {
		if w.Summary == "Layer skipped" || w.Summary == "Setting only for the managed layer" || w.Summary == "Setting held by the managed layer" {
			l := at(runtime.LayerManaged)
			l.Notes = append(l.Notes, fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Detail))
		}
	}
	return out, ok
}

// hostReport is one host's part of the report.
type hostReport struct {
	Host     string          `json:"host"`
	Title    string          `json:"title"`
	Files    []fileReport    `json:"files"`
	Gates    []protocol.Gate `json:"gates,omitempty"`
	Problems []string        `json:"problems,omitempty"`
	Guarded  bool            `json:"guarded"`
}

// fileReport is one host configuration file and its hookctl commands.
type fileReport struct {
	Path     string          `json:"path"`
	Error    string          `json:"error,omitempty"`
	Commands []commandReport `json:"commands,omitempty"`
	// Others counts the file's command hooks that do not run hookctl.
	Others int `json:"other_hooks"`
}

// commandReport is one hookctl command a host file registers, for the
// events listed, and what it will do.
type commandReport struct {
	Events  []string `json:"events"`
	Command string   `json:"command"`
	// Program is the program the host will run, as resolved (PATH or
	// absolute); Client is set for hookctl-client (the daemon).
	Program string `json:"program,omitempty"`
	Client  bool   `json:"client"`
	// Config is the configuration the call will load, Trusted whether
	// it is trusted (or AllowUntrusted runs it anyway), Hooks how many
	// hooks it has.
	Config         string `json:"config,omitempty"`
	Trusted        bool   `json:"trusted"`
	AllowUntrusted bool   `json:"allow_untrusted,omitempty"`
	Hooks          int    `json:"hooks,omitempty"`
	// HostTimeout is how long the host waits (the entry's timeout, else
	// its default), HookctlTimeout what hookctl takes for it
	// (--host-timeout, else the same default) and Deadline when hookctl
	// answers.
	HostTimeout    string   `json:"host_timeout,omitempty"`
	HookctlTimeout string   `json:"hookctl_host_timeout,omitempty"`
	Deadline       string   `json:"deadline,omitempty"`
	Problems       []string `json:"problems,omitempty"`
	Notes          []string `json:"notes,omitempty"`
}

func newDoctorCmd(a *app) *cobra.Command {
	var hostNames []string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor [--host NAME]... [--config PATH] [--json]",
		Short: "Say what the next hook event in this project will do, and what would leave it unguarded",
		Long: `doctor reads the hook configuration files of the hosts (--host, default: every
host whose configuration file exists in the project or the user's home) and, for
every entry that runs hookctl, says what the next event will do: the command and
whether it resolves (the program on PATH or absolute and executable, its
arguments as hookctl parses them: an unquoted path with a space is two
arguments), the configuration it will load and whether it is trusted, the
host's own gates (Gemini CLI's folder trust, Codex's hook review where it can
tell), timeouts that disagree (a host that stops waiting before hookctl
answers runs the action), and whether hookctl-client (the daemon) is in use.

It exits 1 when the next event of some host would not be guarded, 0 otherwise.
--json prints the report as JSON. The project is $CLAUDE_PROJECT_DIR or the
working directory; --config, when given, is the configuration to expect.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			rep := a.doctor(hostNames)
			if asJSON {
				if err := writeJSON(a.stdout, rep, true); err != nil {
					return &exitError{code: exitFailure, err: err}
				}
			} else {
				rep.write(termsafe.NewWriter(a.stdout))
			}
			if !rep.Guarded {
				return silent(exitFailure)
			}
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&hostNames, "host", nil, "the hosts to check: "+strings.Join(a.registry().Names(), ", ")+" (default: those with a configuration file here)")
	_ = cmd.RegisterFlagCompletionFunc("host", a.hostFlag)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

// doctor builds the report for the hosts named (none: every host with a
// configuration file).
func (a *app) doctor(names []string) *doctorReport {
	project := projectDir()
	if abs, err := filepath.Abs(project); err == nil {
		project = abs
	}
	home, _ := os.UserHomeDir()
	rep := &doctorReport{Project: project, Guarded: true}
	var layersOK bool
	if rep.Layers, layersOK = a.doctorLayers(project); !layersOK {
		rep.Guarded = false
	}
	reg := a.registry()
	var ps []protocol.Protocol
	for _, n := range names {
		p, ok := reg.Lookup(n)
		if !ok {
			rep.Problems = append(rep.Problems, fmt.Sprintf("--host %q: want one of %s", n, strings.Join(reg.Names(), ", ")))
			rep.Guarded = false
			continue
		}
		ps = append(ps, p)
	}
	explicit := len(names) > 0
	if !explicit {
		ps = reg.All()
	}
	for _, p := range ps {
		files := p.ConfigFiles(project, home)
		if len(files) == 0 && !explicit {
			continue
		}
		hr := a.doctorHost(p, project, home, files)
		if !explicit && !hr.runsHookctl() && len(hr.Problems) == 0 {
			// A host configured here, without hookctl: not ours.
			continue
		}
		rep.Hosts = append(rep.Hosts, hr)
		if !hr.Guarded {
			rep.Guarded = false
		}
	}
	if len(rep.Hosts) == 0 && len(rep.Problems) == 0 {
		rep.Problems = append(rep.Problems, "no host configuration here runs hookctl (hookctl install --host NAME registers it)")
		rep.Guarded = false
	}
	return rep
}

func (h *hostReport) runsHookctl() bool {
	for _, f := range h.Files {
		if len(f.Commands) > 0 {
			return true
		}
	}
	return false
}

// doctorHost checks one host's files.
func (a *app) doctorHost(p protocol.Protocol, project, home string, files []string) hostReport {
	hr := hostReport{Host: p.Name(), Title: p.Title(), Guarded: true}
	env := doctorEnv(p, project)
	getenv := runtime.Getenv(env)
	for _, file := range files {
		fr := fileReport{Path: file}
		data, err := os.ReadFile(file)
		var entries []protocol.Entry
		if err == nil {
			entries, err = p.Entries(data)
		}
		if err != nil {
			fr.Error = err.Error()
			hr.Problems = append(hr.Problems, fmt.Sprintf("%s: %v", file, err))
			hr.Files = append(hr.Files, fr)
			continue
		}
		// One report per command and timeout, for all its events.
		type key struct {
			command string
			timeout time.Duration
		}
		byKey := map[key]int{}
		for _, e := range entries {
			words, isOurs, perr := hookctlCall(e.Command, env)
			if !isOurs && perr == nil {
				fr.Others++
				continue
			}
			ht := e.Timeout
			if ht <= 0 {
				ht = p.HookTimeout(e.Event)
			}
			k := key{e.Command, ht}
			i, ok := byKey[k]
			if ok {
				fr.Commands[i].Events = append(fr.Commands[i].Events, e.Event)
			} else {
				i = len(fr.Commands)
				byKey[k] = i
				fr.Commands = append(fr.Commands, a.doctorCommand(p, project, getenv, e, ht, words, perr))
			}
			cr := &fr.Commands[i]
			for _, pr := range entryProblems(p, e) {
				if !slices.Contains(cr.Problems, pr) {
					cr.Problems = append(cr.Problems, pr)
				}
			}
		}
		hr.Files = append(hr.Files, fr)
	}
	if !hr.runsHookctl() {
		hr.Problems = append(hr.Problems, fmt.Sprintf("no %s hook runs hookctl: hookctl install --host %s registers it", p.Title(), p.Name()))
	}
	// The host's own gates (Gemini CLI's folder trust, Codex's project
	// trust and hook review), for a host that has any.
	if g, ok := p.(protocol.Gater); ok {
		hr.Gates = g.Gates(project, getenv)
	}
	for _, g := range hr.Gates {
		if g.State == protocol.GateClosed {
			hr.Problems = append(hr.Problems, fmt.Sprintf("%s: %s", g.Name, g.Detail))
		}
	}
	if len(hr.Problems) > 0 {
		hr.Guarded = false
	}
	for _, f := range hr.Files {
		for _, c := range f.Commands {
			if len(c.Problems) > 0 {
				hr.Guarded = false
			}
		}
	}
	return hr
}

// entryProblems says why the host would not run entry e as a command
// hook of one of its events: a key the host has no event for (a
// misspelling, another host's name, another case), an entry type
// other than "command", or an async entry (its answer is not waited for).
func entryProblems(p protocol.Protocol, e protocol.Entry) []string {
	var out []string
	if !p.HasEvent(e.Event) {
		out = append(out, fmt.Sprintf("%s has no event %q: the entry never runs (event names are case-sensitive)", p.Title(), e.Event))
	}
	if e.Type != "" && e.Type != "command" {
		out = append(out, fmt.Sprintf("the entry has type %q, not \"command\": %s does not run its command", e.Type, p.Title()))
	}
	if e.Async {
		out = append(out, fmt.Sprintf("the entry is async: %s runs it in the background and does not wait for its answer, which can decide nothing", p.Title()))
	}
	return out
}

// doctorEnv is the environment a host's hook command runs with: this
// process's, with the project variables the host sets.
func doctorEnv(p protocol.Protocol, project string) []string {
	// The first entry of a key wins (runtime.Getenv, expand).
	return append(p.HookEnv(project), os.Environ()...)
}

// hookSubcommands are hookctl's subcommands that answer a host.
var hookSubcommands = []string{"hook", "claude"}

// hookctlCall finds the call of hookctl (or hookctl-client) in a hook's
// command line, as the host's shell would run it, and returns its words
// (expanded and unquoted, program first). ours is false for a command
// that runs neither; err says why a command line cannot be read, or why
// it is not one plain call of hookctl: the host acts on the exit status
// and output of the whole line, so a redirection (the reply thrown
// away), a list (;, &&, ||), a pipe, a background job or a command
// around hookctl (command, env, timeout...) can leave the event
// unguarded whatever hookctl answers.
func hookctlCall(command string, env []string) (words []string, ours bool, err error) {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		ours = strings.Contains(command, "hookctl")
		return nil, ours, fmt.Errorf("the command does not parse as a shell command: %v", err)
	}
	cfg := &expand.Config{Env: expand.ListEnviron(env...)}
	var found *syntax.CallExpr
	syntax.Walk(f, func(n syntax.Node) bool {
		if found != nil || err != nil {
			return false
		}
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		fields, ferr := expand.Fields(cfg, call.Args...)
		if ferr != nil {
			if strings.Contains(command, "hookctl") {
				ours, err = true, fmt.Errorf("the command cannot be read without running it: %v", ferr)
			}
			return false
		}
		for i, w := range fields {
			if isHookctlProgram(w) {
				found, ours = call, true
				if i == 0 {
					words = fields
				}
				return false
			}
		}
		return true
	})
	if err != nil || found == nil {
		return nil, ours, err
	}
	if why := notPlainCall(f, found, words == nil); why != "" {
		return nil, true, fmt.Errorf("the command is not one plain call of hookctl: %s; the host acts on the whole command line, so hookctl's answer may not reach it (write only \"hookctl ...\", as hookctl install does)", why)
	}
	return words, true, nil
}

// notPlainCall says why the command line f is not call alone, with
// hookctl as its program (wrapped: another program runs it), or "".
func notPlainCall(f *syntax.File, call *syntax.CallExpr, wrapped bool) string {
	if len(f.Stmts) != 1 {
		return fmt.Sprintf("it runs %d commands in sequence (; or a newline)", len(f.Stmts))
	}
	st := f.Stmts[0]
	switch {
	case st.Background:
		return "it runs hookctl in the background (&): the host does not wait for its answer"
	case st.Coprocess:
		return "it runs hookctl as a coprocess (|&)"
	case st.Negated:
		return "it negates the exit status (!)"
	case len(st.Redirs) > 0:
		return "it redirects the command's input or output (the answer or the payload may be lost)"
	}
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		return fmt.Sprintf("it joins commands with %s", c.Op)
	case *syntax.CallExpr:
		if c != call {
			return "hookctl is not the command the line runs"
		}
	default:
		return "hookctl runs inside a compound command (a subshell, block, loop or condition)"
	}
	if len(call.Assigns) > 0 {
		return "it sets variables before hookctl"
	}
	if wrapped {
		return "another program runs hookctl (a prefix command such as command, exec, env or timeout)"
	}
	return ""
}

func isHookctlProgram(prog string) bool {
	base := progBase(prog)
	return base == "hookctl" || base == "hookctl-client"
}

// progBase is a program's name without its directory and without the
// .exe a Windows command may give.
func progBase(prog string) string {
	b := filepath.Base(prog)
	if ext := filepath.Ext(b); strings.EqualFold(ext, ".exe") {
		b = b[:len(b)-len(ext)]
	}
	return b
}

// doctorCommand checks one hookctl command: its program, its arguments,
// the configuration and its trust, and the timeouts.
func (a *app) doctorCommand(p protocol.Protocol, project string, getenv func(string) string, e protocol.Entry, hostTimeout time.Duration, words []string, perr error) commandReport {
	cr := commandReport{Events: []string{e.Event}, Command: e.Command, HostTimeout: protocol.FormatTimeout(hostTimeout)}
	problem := func(format string, args ...any) { cr.Problems = append(cr.Problems, fmt.Sprintf(format, args...)) }
	if perr != nil {
		problem("%v", perr)
		return cr
	}
	prog := words[0]
	cr.Client = progBase(prog) == "hookctl-client"
	if resolved, err := resolveProgram(prog, project, getenv); err != nil {
		problem("%v", err)
	} else {
		cr.Program = resolved
	}
	if cr.Client {
		cr.Notes = append(cr.Notes, clientNote(daemon.Supported()))
	}
	// The arguments, as hookctl's own parser reads them.
	root := newRoot(&app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
	sub, rest, err := root.Find(words[1:])
	if err != nil || sub == root || !slices.Contains(hookSubcommands, sub.Name()) {
		problem("%s does not run a host hook (want %s hook or %s claude): %q", filepath.Base(prog), filepath.Base(prog), filepath.Base(prog), strings.Join(words[1:], " "))
		return cr
	}
	if err := sub.ParseFlags(rest); err != nil {
		problem("hookctl refuses the arguments: %v", err)
		return cr
	}
	fl := sub.Flags()
	if extra := fl.Args(); len(extra) > 0 {
		problem("hookctl refuses the arguments: unexpected argument %q (an unquoted path with a space is two arguments: quote it)", extra[0])
		return cr
	}
	if sub.Name() == "hook" {
		if h, _ := fl.GetString("host"); h != "" && h != p.Name() {
			problem("the command answers as %s, but %s runs it: its replies are not %s's", h, p.Title(), p.Title())
		} else if h == "" {
			cr.Notes = append(cr.Notes, "no --host: the host is detected from each payload")
		}
	} else if own := strings.Fields(p.HookCommand("hookctl")); len(own) > 1 && own[1] != sub.Name() {
		// hookctl claude is Claude Code's own command only.
		problem("hookctl %s answers in another host's format, but %s runs it: use %s", sub.Name(), p.Title(), p.HookCommand("hookctl"))
	}
	// The configuration, as the call will discover it (in the project
	// directory, where the host runs the command).
	config, _ := fl.GetString("config")
	if a.configPath != "" {
		if abs, err := filepath.Abs(a.configPath); err == nil && config != "" && !samePath(project, config, abs) {
			problem("the command loads %s, not %s (--config)", config, abs)
		}
	}
	var eng *engine.Engine // the configuration, when it loads
	path, err := runtime.Discover(config, project, getenv)
	if errors.Is(err, runtime.ErrNoConfig) {
		if layers, lerr := runtime.DiscoverLayers(config, project, getenv); lerr == nil && len(layers) > 0 {
			// The managed or user layer alone runs.
			cr.Trusted = true
			cr.Notes = append(cr.Notes, "no project configuration: the managed and user layers run (see the configuration layers above)")
			err = nil
			path = ""
		}
	}
	if err != nil {
		problem("%v", err)
	} else {
		if path != "" {
			if !filepath.IsAbs(path) {
				path = filepath.Join(project, path)
			}
			cr.Config = path
			cr.AllowUntrusted, _ = fl.GetBool("allow-untrusted")
			if !cr.AllowUntrusted && allowUntrustedEnv(getenv) {
				cr.AllowUntrusted = true
			}
			if err := trust.Check(path); err != nil {
				if cr.AllowUntrusted {
					cr.Notes = append(cr.Notes, fmt.Sprintf("%v; it runs anyway (--allow-untrusted or %s)", err, trust.AllowUntrustedEnv))
				} else {
					problem("%v: its hooks do not run, and the events that can block are blocked", err)
				}
			} else {
				cr.Trusted = true
			}
		}
		d := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, logLevel: "error"}
		var diag strings.Builder
		d.stderr = &diag
		var loaded *engine.Engine
		var cfg *assemble.Config
		layers, err := runtime.New().OpenLayers(config, project, getenv)
		if err == nil {
			for i, l := range layers {
				if !filepath.IsAbs(l.Path) {
					layers[i].Path = filepath.Join(project, l.Path)
				}
			}
			loaded, cfg, err = d.loadLayers(layers, false, nil)
		}
		if err != nil {
			problem("the configuration does not load: %s", strings.TrimSpace(firstLines(diag.String(), err)))
		} else {
			for _, ev := range loaded.EventsWithHooks() {
				hs, _ := loaded.Hooks(ev)
				cr.Hooks += len(hs)
			}
			eng = loaded
			defer func() {
				loaded.Close(context.Background())
				cfg.Close()
			}()
		}
	}
	// The timeouts: the host stops waiting at hostTimeout; hookctl
	// answers by the deadline of what it takes for the host's timeout.
	given, _ := fl.GetString("host-timeout")
	if given == "" {
		given = getenv(hostTimeoutEnv)
	}
	hookctlTimeout := p.HookTimeout(e.Event)
	if given != "" {
		d, err := time.ParseDuration(given)
		if err != nil || d <= 0 {
			problem("--host-timeout %q: want a positive duration", given)
			return cr
		}
		hookctlTimeout = d
	}
	cr.HookctlTimeout = protocol.FormatTimeout(hookctlTimeout)
	cr.Deadline = protocol.FormatTimeout(runtime.Deadline(hookctlTimeout))
	if eng != nil {
		cr.Notes = append(cr.Notes, slowHooks(eng, catalogEvent(p, e.Event), runtime.Deadline(hookctlTimeout))...)
	}
	switch {
	case runtime.Deadline(hookctlTimeout) >= hostTimeout:
		problem("timeouts disagree: %s stops waiting at %s (and runs the action), but hookctl answers by %s (--host-timeout %s): a guard slower than %s is outwaited; write the same value in both (hookctl install does)",
			p.Title(), cr.HostTimeout, cr.Deadline, cr.HookctlTimeout, cr.HostTimeout)
	case hookctlTimeout != hostTimeout:
		cr.Notes = append(cr.Notes, fmt.Sprintf("timeouts differ: %s waits %s, hookctl takes %s and answers by %s, sooner than needed",
			p.Title(), cr.HostTimeout, cr.HookctlTimeout, cr.Deadline))
	}
	return cr
}

// samePath reports whether config (relative to project) is abs.
func samePath(project, config, abs string) bool {
	if !filepath.IsAbs(config) {
		config = filepath.Join(project, config)
	}
	return filepath.Clean(config) == filepath.Clean(abs)
}

// allowUntrustedEnv reports whether the environment runs untrusted
// configurations.
func allowUntrustedEnv(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv(trust.AllowUntrustedEnv))) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// resolveProgram finds the program a host will run: a path (relative to
// the project, where the host runs the command) or a name on PATH; it
// must be an executable file.
func resolveProgram(prog, project string, getenv func(string) string) (string, error) {
	if !strings.Contains(prog, "/") {
		for _, dir := range filepath.SplitList(getenv("PATH")) {
			if dir == "" {
				dir = "."
			}
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(project, dir)
			}
			cand := filepath.Join(dir, prog)
			if isExecutable(cand) {
				return cand, nil
			}
		}
		return "", fmt.Errorf("%s is not on PATH (%s): the host cannot run the command, and a command that does not run is a non-blocking error on every host", prog, getenv("PATH"))
	}
	if !filepath.IsAbs(prog) {
		prog = filepath.Join(project, prog)
	}
	if !isExecutable(prog) {
		return "", fmt.Errorf("%s is not an executable file: the host cannot run the command", prog)
	}
	return prog, nil
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// firstLines is the first lines of what loading printed, else err.
func firstLines(diag string, err error) string {
	lines := strings.Split(strings.TrimSpace(diag), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return err.Error()
	}
	if len(lines) > 3 {
		lines = append(lines[:3], "...")
	}
	return strings.Join(lines, "; ")
}

// write prints the report for people.
func (r *doctorReport) write(w io.Writer) {
	fmt.Fprintf(w, "project %s\n", r.Project)
	fmt.Fprintf(w, "\nconfiguration layers (all run; a deny from any wins; see docs/layers.md)\n")
	for _, l := range r.Layers {
		fmt.Fprintf(w, "  %s: %s\n", l.Layer, l.Location)
		if len(l.Found) == 0 {
			fmt.Fprintf(w, "    found: nothing\n")
		}
		for _, f := range l.Found {
			fmt.Fprintf(w, "    found: %s\n", f)
		}
		if len(l.Found) > 0 {
			fmt.Fprintf(w, "    %d hook(s); %s\n", l.Hooks, l.Trust)
		}
		for _, n := range l.Notes {
			fmt.Fprintf(w, "    note: %s\n", n)
		}
		for _, p := range l.Problems {
			fmt.Fprintf(w, "    problem: %s\n", p)
		}
	}
	for _, h := range r.Hosts {
		fmt.Fprintf(w, "\n%s (%s)\n", h.Title, h.Host)
		for _, f := range h.Files {
			fmt.Fprintf(w, "  %s", f.Path)
			if f.Others > 0 {
				fmt.Fprintf(w, " (and %d other hook(s))", f.Others)
			}
			fmt.Fprintln(w)
			if f.Error != "" {
				fmt.Fprintf(w, "    problem: %s\n", f.Error)
			}
			for _, c := range f.Commands {
				fmt.Fprintf(w, "    %s: %s\n", strings.Join(c.Events, ", "), c.Command)
				if c.Program != "" {
					how := "hookctl"
					if c.Client {
						how = "hookctl-client (daemon)"
					}
					fmt.Fprintf(w, "      program: %s [%s]\n", c.Program, how)
				}
				if c.Config != "" {
					state := "trusted"
					if !c.Trusted {
						state = "NOT trusted"
						if c.AllowUntrusted {
							state += ", run anyway"
						}
					}
					fmt.Fprintf(w, "      configuration: %s (%s, %d hook(s))\n", c.Config, state, c.Hooks)
				}
				if c.Deadline != "" {
					fmt.Fprintf(w, "      timeout: %s waits %s; hookctl takes %s and answers by %s\n", h.Title, c.HostTimeout, c.HookctlTimeout, c.Deadline)
				}
				for _, n := range c.Notes {
					fmt.Fprintf(w, "      note: %s\n", n)
				}
				for _, p := range c.Problems {
					fmt.Fprintf(w, "      problem: %s\n", p)
				}
			}
		}
		for _, g := range h.Gates {
			fmt.Fprintf(w, "  gate %s: %s (%s)\n", g.Name, g.State, g.Detail)
		}
		for _, p := range h.Problems {
			fmt.Fprintf(w, "  problem: %s\n", p)
		}
		if h.Guarded {
			fmt.Fprintf(w, "  ok: the next %s event is guarded\n", h.Title)
		} else {
			fmt.Fprintf(w, "  NOT GUARDED: the next %s event would not be guarded as configured\n", h.Title)
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "problem: %s\n", p)
	}
	if !r.Guarded {
		fmt.Fprintln(w, "\ndoctor: the next event would not be guarded: see the problems above")
	}
}

// slowHooks says which hooks of a catalog event have a timeout of their
// own past deadline: under the host's timeout they are cancelled there
// and the action blocked.
func slowHooks(eng *engine.Engine, event string, deadline time.Duration) []string {
	hs, _ := eng.Hooks(event)
	var out []string
	for _, h := range hs {
		if h.Background || h.Timeout <= deadline {
			continue
		}
		out = append(out, fmt.Sprintf("hook %q (%s) has timeout %s, past hookctl's deadline %s: a run that long is cancelled there and the action blocked; raise the host's timeout with it (hookctl install --host-timeout)",
			h.ID, event, protocol.FormatTimeout(h.Timeout), protocol.FormatTimeout(deadline)))
	}
	return out
}

// catalogEvent is the catalog event a host event fires.
func catalogEvent(p protocol.Protocol, hostEvent string) string {
	if m, ok := p.Events()[hostEvent]; ok {
		return m.Event
	}
	return hostEvent
}

// hostEventsOf lists the host's events that fire a catalog event, as
// install registers them.
func hostEventsOf(p protocol.Protocol, event string) []string {
	m := p.Events()
	if len(m) == 0 {
		return []string{event}
	}
	var out []string
	for name, mp := range m {
		if mp.Event == event && !mp.Narrow {
			out = append(out, name)
		}
	}
	return out
}

// clientNote is what doctor says of a hookctl-client command: that it
// forwards calls to the daemon, or, where the daemon is not supported
// (unsupported, from daemon.Supported: none of the release platforms),
// that every call runs
// hookctl itself, in capitals, since the daemon is what the client is for.
func clientNote(unsupported error) string {
	if unsupported != nil {
		return "NO DAEMON: " + unsupported.Error() + "; the hooks are checked as by hookctl, but each call costs hookctl's start (use hookctl in the command instead)"
	}
	return "hookctl-client forwards each call to a per-user daemon (hookctl daemon), which it starts on first use; it runs hookctl itself when the daemon cannot answer"
}
