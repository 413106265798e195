package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/termsafe"
	"github.com/hookctl/hookctl/replay"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/stdlib"
)

// exitDiffer is replay --diff's status when the configurations differ.
const exitDiffer = 2

func newReplayCmd(a *app) *cobra.Command {
	var diffPath string
	var asJSON, noExec, all bool
	cmd := &cobra.Command{
		Use:   "replay [--config PATH] [--diff OTHER_CONFIG] [--json] [--no-exec] [--all] TRANSCRIPT",
		Short: "Replay a recorded Claude Code session through the configuration: what would it have done?",
		Long: `replay reads a Claude Code session transcript (the JSONL file named in every
hook's transcript_path, under ~/.claude/projects/) and fires the events the
session fired through the configuration, in order, with one engine for the
whole session: SessionStart once, UserPromptSubmit for each prompt,
PreToolUse for each tool call, PostToolUse or PostToolUseFailure with the
recorded result, and Stop when the assistant ended its turn. It prints a
table of the tool calls and of every event a hook acted on (what the session
did with each call, and the decision, hook and reason of the configuration:
deny, ask, rewritten, context, allow or — for no opinion), then a summary.
--all prints every event; --json prints one JSON object per event and a
summary object.

The session already happened: a call the configuration denies was still run
in it, so its post event is replayed as recorded and marked.

--diff OTHER_CONFIG replays the same transcript through both configurations
(--config is "before", OTHER_CONFIG "after") and prints only the events
whose effect differs (action, decision, reason, rewrite or context; not
which hook said it), with a summary of the differences.

Hooks run for real, as they would have in the session: command and http
hooks, prompt and agent hooks, scripts allowed exec, net or write, and the
logging built-ins. replay names them on stderr; --no-exec skips them (they
show as disabled). Command hooks run in $CLAUDE_PROJECT_DIR, else in the
recorded cwd, as Claude Code runs them: set CLAUDE_PROJECT_DIR to replay a
transcript recorded in another directory. settings.audit_log is never
written by a replay.

Lines of the transcript that cannot be read are reported on stderr with
their line number and skipped. Exit status: 0, or with --diff 0 when the
configurations agree and 2 when they differ; 1 on a usage, configuration or
transcript error.`,
		Example: `  hookctl replay --config examples/hooks.hcl ~/.claude/projects/-home-me-src-app/SESSION.jsonl
  hookctl replay --config hooks.hcl --diff hooks.new.hcl SESSION.jsonl
  hookctl replay --json --no-exec SESSION.jsonl | jq 'select(.blocked)'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("replay needs exactly one TRANSCRIPT (a Claude Code session .jsonl)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			defer a.escapeOutput(!asJSON)()
			return a.replay(cmd.Context(), args[0], diffPath, replayFlags{json: asJSON, noExec: noExec, all: all})
		},
	}
	cmd.Flags().StringVar(&diffPath, "diff", "", "compare with another configuration (file or directory): print only the events whose effect differs")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per event, then a summary object")
	cmd.Flags().BoolVar(&noExec, "no-exec", false, "skip hooks that act outside hookctl (command, http, prompt, agent, scripts allowed exec/net/write, logging built-ins)")
	cmd.Flags().BoolVar(&all, "all", false, "print a table row for every event, not only tool calls and events a hook acted on")
	return cmd
}

type replayFlags struct{ json, noExec, all bool }

func (a *app) replay(ctx context.Context, transcript, diffPath string, fl replayFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	f, err := os.Open(transcript)
	if err != nil {
		return &exitError{code: exitFailure, err: fmt.Errorf("transcript: %w", err)}
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return usageError("transcript %s is a directory: give one session's .jsonl file", transcript)
	}
	base, err := a.layers()
	if err != nil {
		return err
	}
	name := base[len(base)-1].Path
	if p, ok := runtime.ProjectLayer(base); ok {
		name = p.Path
	}
	paths := []string{name}
	configLayers := [][]runtime.Layer{base}
	if diffPath != "" {
		// The other configuration replaces the project layer only.
		paths = append(paths, diffPath)
		configLayers = append(configLayers, withProject(base, diffPath))
	}
	var configs []replay.Config
	var loaded []*assemble.Config
	defer func() {
		// The engines drain their background hooks, then the
		// configurations release their runtimes.
		closeCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		for _, c := range configs {
			if err := c.Engine.Close(closeCtx); err != nil {
				fmt.Fprintf(a.stderr, "hookctl: %v\n", err)
			}
		}
		for _, cfg := range loaded {
			cfg.Close()
		}
	}()
	for i, p := range paths {
		eng, cfg, err := a.loadReplay(p, configLayers[i], fl.noExec)
		if err != nil {
			return err
		}
		configs = append(configs, replay.Config{Name: p, Engine: eng})
		loaded = append(loaded, cfg)
	}
	abs, err := filepath.Abs(transcript)
	if err != nil {
		abs = transcript
	}
	// The records are written as they are replayed (replay.Stream): the
	// memory a replay needs does not grow with the transcript.
	out := bufio.NewWriterSize(a.stdout, 64<<10)
	var (
		sink   func(*replay.Record) error
		finish func(*replay.Report) error
		diffs  func() int
	)
	switch {
	case diffPath != "" && fl.json:
		var d replay.Diffs
		sink = func(r *replay.Record) error { return replay.WriteDiffJSONEvent(out, r, 0, 1, &d) }
		finish = func(rep *replay.Report) error { return rep.WriteDiffJSONSummary(out, 0, 1, d) }
		diffs = func() int { return d.N }
	case diffPath != "":
		t := replay.NewDiffTable(out, 0, 1)
		sink, finish = t.Add, t.Close
		diffs = func() int { return t.N }
	case fl.json:
		sink = func(r *replay.Record) error { return replay.WriteJSONEvent(out, r, 0) }
		finish = func(rep *replay.Report) error { return rep.WriteJSONSummary(out, 0) }
	default:
		t := replay.NewTable(out, 0, replay.TableOptions{All: fl.all})
		sink = t.Add
		finish = func(rep *replay.Report) error {
			if err := t.Close(); err != nil {
				return err
			}
			fmt.Fprintln(out)
			return rep.WriteSummary(out, 0)
		}
	}
	rep, err := replay.Stream(ctx, replay.NewReader(f, replay.WithPath(abs)), sink, configs...)
	if err != nil {
		var fe *replay.FormatError
		if errors.As(err, &fe) {
			return &exitError{code: exitFailure, err: fmt.Errorf("transcript %s: %w", transcript, err)}
		}
		return &exitError{code: exitFailure, err: err}
	}
	for _, p := range rep.Stats.Problems {
		fmt.Fprintf(a.stderr, "hookctl: replay: %s:%d: %s (skipped)\n", termsafe.Escape(transcript), p.Line, termsafe.Escape(p.Err))
	}
	if more := rep.Stats.Malformed - len(rep.Stats.Problems); more > 0 {
		fmt.Fprintf(a.stderr, "hookctl: replay: %s: %d more line(s) could not be read\n", transcript, more)
	}
	if err := finish(rep); err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if err := out.Flush(); err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if diffs != nil && diffs() > 0 {
		return silent(exitDiffer)
	}
	return nil
}

// loadReplay loads a configuration for a replay, as loadPath does, with
// two differences made before the engine loads it: the audit log is not
// opened (a replay's fires did not happen), and with noExec the hooks that
// act outside hookctl are disabled. It names those hooks on stderr.
func (a *app) loadReplay(path string, layers []runtime.Layer, noExec bool) (*engine.Engine, *assemble.Config, error) {
	eng, cfg, err := a.assembleLayers(layers, true, nil)
	if err != nil {
		return nil, nil, err
	}
	if cfg.Engine.Settings.AuditLog != "" {
		fmt.Fprintf(a.stderr, "hookctl: replay: %s: settings.audit_log is not written by a replay\n", path)
		cfg.Engine.Settings.AuditLog = ""
	}
	if effects := sideEffects(cfg); len(effects) > 0 {
		if noExec {
			for i := range cfg.Engine.Hooks {
				if _, ok := effects[cfg.Engine.Hooks[i].ID]; ok {
					cfg.Engine.Hooks[i].Disabled = true
				}
			}
			fmt.Fprintf(a.stderr, "hookctl: replay: %s: --no-exec: not running %s\n", path, describeEffects(effects))
		} else {
			fmt.Fprintf(a.stderr, "hookctl: replay: %s: these hooks run for real, as in the session: %s; --no-exec skips them\n", path, describeEffects(effects))
		}
	}
	return a.loadInto(eng, cfg)
}

// effectBuiltins are the built-ins that write files or run programs.
var effectBuiltins = map[string]string{
	"session-log":         "writes a log",
	"tool-log":            "writes a log",
	"task-log":            "writes a log",
	"notification-router": "runs a program, writes a log",
}

// effectCaps are the script capabilities that act outside hookctl.
var effectCaps = []string{stdlib.CapExec, stdlib.CapNet, stdlib.CapWrite, "all"}

// sideEffects returns the enabled hooks of cfg that act outside hookctl
// when they run, by id, with what they do: command and http hooks, prompt
// and agent hooks (a model call), scripts allowed exec, net or write, and
// the built-ins that write logs or run programs.
func sideEffects(cfg *assemble.Config) map[string]string {
	if len(cfg.Layers) > 0 {
		out := map[string]string{}
		for _, l := range cfg.Layers {
			maps.Copy(out, sideEffects(l))
		}
		return out
	}
	decoded := cfg.Decoded()
	kinds := map[string]string{}
	for _, hb := range decoded.Hooks {
		if what := handlerEffect(hb.Kind, hb.Allow); what != "" {
			kinds[hb.Hook.ID] = what
		}
	}
	bySource := map[string]string{}
	for _, bb := range decoded.Builtins {
		if what, ok := effectBuiltins[bb.Name]; ok && bb.Enabled {
			bySource[fmt.Sprintf("%s:%d", bb.Range.Filename, bb.Range.Start.Line)] = "built-in " + bb.Name + ", " + what
		}
	}
	out := map[string]string{}
	for _, h := range cfg.Engine.Hooks {
		if h.Disabled {
			continue
		}
		if k, ok := kinds[h.ID]; ok {
			out[h.ID] = k
		} else if k, ok := bySource[h.Source]; ok {
			out[h.ID] = k
		}
	}
	return out
}

// handlerEffect says what a hook of handler kind with the capabilities
// allow does outside hookctl, or "" when it does nothing there. Every
// kind that runs code (js, ts, script: inline or a file) is judged by its
// capabilities alike; command and http always act; prompt and agent call
// a model; a declarative hook only decides. A kind this list does not know
// counts as acting outside hookctl, so that a new kind is skipped by
// --no-exec until it is listed here.
func handlerEffect(kind string, allow []string) string {
	switch kind {
	case "declarative":
		return ""
	case "command", "http":
		return kind
	case "prompt", "agent":
		return kind + ", calls a model"
	case "js", "ts", "script":
		var caps []string
		for _, c := range allow {
			if slices.Contains(effectCaps, c) {
				caps = append(caps, c)
			}
		}
		if len(caps) == 0 {
			return ""
		}
		return kind + ", allow " + strings.Join(caps, " ")
	}
	return kind + ", runs code"
}

// describeEffects lists hooks as "id (what), ..." sorted by id.
func describeEffects(effects map[string]string) string {
	ids := make([]string, 0, len(effects))
	for id := range effects {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("%s (%s)", termsafe.Escape(id), termsafe.Escape(effects[id]))
	}
	return strings.Join(parts, ", ")
}
