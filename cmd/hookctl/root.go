package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/internal/termsafe"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1 // usage, config or payload errors
	exitBlocked = 2 // fire: the outcome is blocked
	// exitHookFailed is fire --strict's: a hook failed and the outcome is
	// not blocked.
	exitHookFailed = 3
)

// exitError carries an exit status through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// silent is an exit status whose message was already printed.
func silent(code int) error { return &exitError{code: code} }

// app holds what every subcommand shares.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	configPath     string
	logLevel       string
	// timings, when HOOKCTL_TIMINGS=1, records where a one-shot host
	// command's time goes.
	timings *timings
	// hostRegistry is the registry of hosts, made once per process
	// (registry).
	hostRegistry *protocol.Registry
}

// registry is the hosts' registry every command of the process shares.
func (a *app) registry() *protocol.Registry {
	if a.hostRegistry == nil {
		a.hostRegistry = hosts.New()
	}
	return a.hostRegistry
}

func (a *app) logger() *slog.Logger {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(a.logLevel)); err != nil {
		lvl = slog.LevelWarn
	}
	return slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: lvl}))
}

func newRoot(a *app) *cobra.Command {
	var showVersion bool
	root := &cobra.Command{
		Use:   "hookctl",
		Short: "A lifecycle-hook engine for AI agents",
		Long: `hookctl runs the hooks of AI coding agents and agent orchestrators in-process:
hooks declared in HCL, conditions in expr-lang, handler bodies in JavaScript,
a superset of Claude Code and OpenClaw hooks.

Configuration: --config names a file or a directory of *.hcl files; without it
every command uses the same one: $HOOKCTL_CONFIG, then ./hooks.hcl, then
./.hookctl/, then $CLAUDE_PROJECT_DIR/.claude/hooks.hcl, then ./.claude/hooks.hcl.

Trust: "hookctl claude" and "hookctl serve", which Claude Code and services start
on their own, run only a configuration you trusted with "hookctl trust", as it
was then (see "hookctl trust --help"). fire, validate, list, test, bench and
replay run the configuration you point them at, on purpose, and need no trust.`,
		Example: `  hookctl fire --config examples/hooks.hcl --payload examples/payloads/PreToolUse.rm.json PreToolUse
  hookctl fire PreToolUse --set tool_name=Bash --set tool_input.command='rm -rf /' --explain
  hookctl validate --config hooks.hcl
  hookctl test --config examples
  hookctl list --event PreToolUse
  hookctl replay --config hooks.hcl ~/.claude/projects/PROJECT/SESSION.jsonl
  hookctl trust --config .claude/hooks.hcl
  hookctl events`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if showVersion {
				return a.writeVersion()
			}
			return cmd.Help()
		},
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.PersistentFlags().StringVarP(&a.configPath, "config", "c", "", "config file or directory of *.hcl files")
	// Not cobra's Version field, which would read the build information
	// on every start: --version reads it when asked.
	root.Flags().BoolVarP(&showVersion, "version", "v", false, "print the version (as hookctl version does)")
	root.PersistentFlags().StringVar(&a.logLevel, "log-level", "warn", "log level on stderr: debug, info, warn or error")
	_ = root.RegisterFlagCompletionFunc("log-level", fixed("debug", "info", "warn", "error"))
	root.AddCommand(
		newFireCmd(a), newValidateCmd(a), newListCmd(a), newEventsCmd(a), newClaudeCmd(a), newHookCmd(a), newInstallCmd(a), newDaemonCmd(a), newServeCmd(a), newTrustCmd(a), newImportCmd(a), newBenchCmd(a), newReplayCmd(a), newTestCmd(a), newDoctorCmd(a), newBundleCmd(a),
	)
	root.AddCommand(newTypesCmd(a), newVersionCmd(a))
	root.AddCommand(newFmtCmd(a), newLSPCmd(a))
	return root
}

// run executes the CLI and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdin, stdout, stderr)
}

// runContext is run with a context: serve stops when it ends, as on
// SIGINT.
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRoot(a)
	root.SetArgs(args)
	return exitStatus(root.ExecuteContext(ctx), stderr)
}

// exitStatus is the exit status of a command's error, whose message (if
// not printed already) it prints on stderr.
func exitStatus(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(termsafe.NewWriter(stderr), "hookctl: %v\n", ee.err)
		}
		return ee.code
	}
	fmt.Fprintf(termsafe.NewWriter(stderr), "hookctl: %v\n", err)
	return exitFailure
}

// usageError wraps a usage problem (exit 1).
func usageError(format string, args ...any) error {
	return &exitError{code: exitFailure, err: fmt.Errorf(format, args...)}
}
