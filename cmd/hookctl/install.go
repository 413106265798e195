package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/internal/safefile"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/runtime"
)

func newInstallCmd(a *app) *cobra.Command {
	var hostName, command, project, client string
	var dryRun bool
	var hostTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "install --host NAME [--config PATH] [--dry-run]",
		Short: "Register hookctl as a host's command hook for the events the configuration uses",
		Long: `install writes the host's own project hook configuration so that the host runs
hookctl for every event the configuration has hooks on: .claude/settings.json
(claude), .codex/hooks.json (codex), .gemini/settings.json (gemini),
.cursor/hooks.json (cursor), .github/hooks/hookctl.json (copilot) or crush.json
(crush), in the project directory. The command names the configuration by
its absolute path (the one discovered now when --config is not given), each
word quoted for the host's shell, so it loads the same configuration from any
directory the host starts in. The edit is minimal: the file keeps its keys,
their order and the other entries; an earlier install's entries for the same
configuration are replaced in place (whatever their --host-timeout or
--verbose), hookctl entries for another configuration (an organisation's
policy) are kept and reported. A host file (or directory) that is a symbolic
link leading out of the project is not written. Events the host does not
have are reported, and so are the host's own gates (Gemini CLI's folder
trust, Codex's hook review) where they are closed. --dry-run prints the file
instead of writing it.

The host runs hookctl-client (a small process per event, answered by a
daemon that keeps the engine loaded) when it is installed beside this hookctl
(an executable hookctl-client in the same directory), else hookctl itself:
--client=always registers hookctl-client, --client=never hookctl.

Every entry gets a timeout: --host-timeout, else the host's default for the
event (Gemini CLI 60s, Claude Code and Codex 600s, Copilot CLI, crush and
Cursor 30s), written in the host's own field and unit and, as
--host-timeout, at the end of the command (a --command too), so that hookctl
answers (with the host's block when hooks are still running) a tenth of it,
at most 5s, before the host stops waiting and runs the action.`,
		Example: `  hookctl install --host crush --dry-run
  hookctl install --host gemini --config .hookctl/`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			reg := a.registry()
			h, ok := reg.Lookup(hostName)
			if !ok {
				return usageError("--host %q: want one of %s", hostName, strings.Join(reg.Names(), ", "))
			}
			path, err := a.discover()
			if err != nil {
				return err
			}
			// Every layer's events are registered: a managed hook's event
			// reaches hookctl in every project.
			layers, err := a.layers()
			if err != nil {
				return err
			}
			eng, cfg, err := a.loadLayers(layers, false, nil)
			if err != nil {
				return err
			}
			events := eng.EventsWithHooks()
			var slow []string
			for _, ev := range events {
				limit := time.Duration(0)
				for _, he := range hostEventsOf(h, ev) {
					d := hostTimeout
					if d <= 0 {
						d = h.HookTimeout(he)
					}
					if limit == 0 || d < limit {
						limit = d
					}
				}
				if limit > 0 {
					slow = append(slow, slowHooks(eng, ev, runtime.Deadline(limit))...)
				}
			}
			eng.Close(cmd.Context())
			cfg.Close()
			if project == "" {
				project = projectDir()
			}
			// The hook loads this configuration wherever the host starts
			// it (a subdirectory too): its absolute path is written.
			abs, err := filepath.Abs(path)
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			prog, beside, err := installProgram(client)
			if err != nil {
				return err
			}
			if beside != "" {
				fmt.Fprintf(a.stderr, "hookctl: registering hookctl-client, installed beside hookctl (%s); --client=never registers hookctl\n", beside)
			}
			req := protocol.InstallRequest{Events: events, Program: prog, Config: abs, Command: command, ProjectDir: project}
			// What an entry without --config loads in the project.
			if d, err := runtime.Discover("", project, func(k string) string {
				if k == "CLAUDE_PROJECT_DIR" {
					return project
				}
				return ""
			}); err == nil {
				req.Discovered, _ = filepath.Abs(filepath.Join(project, d))
				if filepath.IsAbs(d) {
					req.Discovered = d
				}
			}
			file, err := protocol.InstallTarget(project, h.ConfigPath())
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			existing, err := os.ReadFile(file)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return &exitError{code: exitFailure, err: err}
			}
			if cmd.Flags().Changed("host-timeout") && hostTimeout <= 0 {
				return usageError("--host-timeout %s: want a positive duration", hostTimeout)
			}
			req.Timeout = hostTimeout
			res, err := h.Install(existing, req)
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			for _, n := range append(res.Notes, slow...) {
				fmt.Fprintf(a.stderr, "hookctl: warning: %s\n", n)
			}
			if dryRun {
				fmt.Fprintf(a.stdout, "# %s\n%s", file, res.Data)
				return nil
			}
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			// A hard link (crush.json made a second name of a file
			// outside the project) is refused, as a symbolic link is.
			if err := safefile.WriteFileOwn(file, res.Data, 0o644); err != nil {

				return &exitError{code: exitFailure, err: err}
			}
			fmt.Fprintf(a.stderr, "hookctl: wrote %s (%s runs %s on %s; configuration %s)\n", file, h.Title(), res.Command, strings.Join(events, ", "), abs)
			// The host's own gates, where they can be read now.
			if g, ok := h.(protocol.Gater); ok {
				for _, gate := range g.Gates(project, os.Getenv) {
					if gate.State != protocol.GateOpen {
						fmt.Fprintf(a.stderr, "hookctl: warning: %s: %s\n", gate.Name, gate.Detail)
					}
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&hostName, "host", "", "the agent host: "+strings.Join(a.registry().Names(), ", "))
	_ = cmd.RegisterFlagCompletionFunc("host", a.hostFlag)
	cmd.Flags().StringVar(&command, "command", "", "the hook command to register as it is, with --host-timeout appended (default: hookctl hook --host NAME --config ABSOLUTE-PATH, quoted)")
	cmd.Flags().StringVar(&project, "project", "", "the project directory (default: $CLAUDE_PROJECT_DIR or the working directory)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the file instead of writing it")
	cmd.Flags().DurationVar(&hostTimeout, "host-timeout", 0, "the timeout the host gives each hook entry, also passed to hookctl as --host-timeout (default: the host's default for the event)")
	cmd.Flags().StringVar(&client, "client", "auto", "the program the host runs: auto (hookctl-client when it is installed beside this hookctl, else hookctl), always (hookctl-client, a small process per event served by a daemon) or never (hookctl)")
	cmd.Flags().Lookup("client").NoOptDefVal = "always"
	cmd.MarkFlagRequired("host")
	return cmd
}

// installProgram is the program an install registers for --client mode
// (auto, always or never). beside is the hookctl-client that auto chose
// ("" otherwise).
func installProgram(mode string) (prog, beside string, err error) {
	switch mode {
	case "always":
		return "hookctl-client", "", nil
	case "never":
		return "hookctl", "", nil
	case "auto", "":
		if daemon.Supported() != nil {
			// No daemon here: the client would only add a
			// process to every call.
			return "hookctl", "", nil
		}
		if p, ok := clientBeside(); ok {
			return "hookctl-client", p, nil
		}
		return "hookctl", "", nil
	}
	// --client=true and --client=false, from when the flag was a switch.
	if b, err := strconv.ParseBool(mode); err == nil {
		return installProgram(map[bool]string{true: "always", false: "never"}[b])
	}
	return "", "", usageError("--client %q: want auto, always or never", mode)
}

// clientBeside returns the hookctl-client installed beside the running
// hookctl (an executable regular file in the same directory), if any,
// and only if it is the hookctl-client found on $PATH: the command names
// the program alone, and a host that cannot find it runs no hook.
func clientBeside() (string, bool) {
	self, err := os.Executable()
	if err != nil {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	name := "hookctl-client"
	if goruntime.GOOS == "windows" {
		name += ".exe"
	}
	p := filepath.Join(filepath.Dir(self), name)
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	if goruntime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
		return "", false
	}
	found, err := exec.LookPath("hookctl-client")
	if err != nil {
		return "", false
	}
	if ffi, err := os.Stat(found); err != nil || !os.SameFile(fi, ffi) {
		return "", false
	}
	return p, true
}
