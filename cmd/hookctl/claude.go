package main

import (
	"fmt"

	claudeproto "github.com/hookctl/hookctl/protocol/claude"

	"github.com/hookctl/hookctl/protocol"
	"github.com/spf13/cobra"
)

// onUntrustedEnv chooses what hookctl claude answers when the
// configuration is not trusted: "block" (the default) or "warn".
const onUntrustedEnv = "HOOKCTL_ON_UNTRUSTED"

func newClaudeCmd(a *app) *cobra.Command {
	f := &hookFlags{}
	cmd := &cobra.Command{
		Use:   "claude [--config PATH]",
		Short: "Run as a Claude Code command hook (hook JSON on stdin, Claude-format JSON on stdout)",
		Long: `claude is a drop-in Claude Code command hook. Point Claude Code's hooks at it
("command": "hookctl claude"); it reads the hook JSON on stdin, fires its
hook_event_name through the configured hooks and writes the answer in the shape
Claude Code expects for that event, with exit status 0 (2 only where Claude
Code reads nothing but the exit status: TaskCompleted, TeammateIdle).

The Stop loop guard and hookctl/kv keep their state in a file
(settings.state_file, else $HOOKCTL_STATE_DIR/kv.json, else
~/.local/state/hookctl/kv.json; ~/Library/Application Support/hookctl/state
on macOS), so they work across invocations. A
configuration with settings.state = "nats://..." keeps it, and the audit
log, in NATS JetStream instead, shared with every hookctl serve of the
fleet; connecting is bounded (2s), and NATS that cannot be reached fails
the kv calls (the hook's on_error decides) and the loop guard's count (a
block stands), never silently.

It runs only a configuration trusted with "hookctl trust" and unchanged since.
Otherwise it runs no hook and, because a guard that cannot run must not let the
action through unseen, blocks the events that can block (PreToolUse,
PermissionRequest, UserPromptSubmit, Stop, ...) with a reason that says to run
hookctl trust, and on other events shows that in a systemMessage.
--on-untrusted=warn (or HOOKCTL_ON_UNTRUSTED=warn) only warns;
--allow-untrusted or HOOKCTL_ALLOW_UNTRUSTED=1 runs the configuration anyway.

A configuration that cannot be found or does not load is answered the same
way, with its diagnostics as the reason; --on-config-error=warn (or
HOOKCTL_ON_CONFIG_ERROR=warn) only warns.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return a.refuseHook(cmd, f, claudeproto.Name, usageError("unexpected argument %q", args[0]))
			}
			return a.runHook(cmd, f, claudeproto.Name)
		},
	}
	f.add(cmd, false, a.registry())
	cmd.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return a.refuseHook(cmd, f, claudeproto.Name, err)
	})
	return cmd
}

// writeReply writes a Claude Code reply: stdout, stderr, exit status.
func (a *app) writeReply(reply protocol.Reply) error {
	if len(reply.Stdout) > 0 {
		if _, err := a.stdout.Write(reply.Stdout); err != nil {
			return &exitError{code: exitFailure, err: err}
		}
	}
	if reply.Stderr != "" {
		fmt.Fprintln(a.stderr, reply.Stderr)
	}
	if reply.ExitCode != 0 {
		return silent(reply.ExitCode)
	}
	return nil
}
