package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/internal/termsafe"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/server"
)

func newFireCmd(a *app) *cobra.Command {
	var payloadPath string
	var sets []string
	var explain, compact, strict bool
	cmd := &cobra.Command{
		Use:   "fire [--config PATH] [--payload FILE|-] [--set key=value]... [EVENT]",
		Short: "Simulate an event: run its hooks and print the outcome as JSON",
		Long: `fire runs the hooks of EVENT against a payload and prints the merged outcome
as JSON on stdout. The exit status is 0 when the outcome is not blocked, 2 when
it is (a deny or block decision, or continue = false), and 1 on a usage,
configuration or payload error. When the outcome is blocked, fire also writes
"blocked (exit status 2)" as the last line on stderr (stdout is the outcome
only), so the verdict shows where the exit status is easy to miss (go run).

Exit status:
  0  the outcome is not blocked
  1  a usage, configuration or payload error
  2  the outcome is blocked
  3  with --strict: a hook failed (an error, a timeout or a panic; a
     background hook too: fire waits for them) and the outcome is not blocked; a blocked outcome is 2 whether hooks failed or
     not. Without --strict a failed hook follows its on_error (ignore: the
     other hooks decide) and fire exits 0 or 2 as above.

The payload is a JSON object read from --payload FILE (or - for stdin); --set
key=value sets fields on top of it, with dotted keys for nested fields and JSON
values (--set tool_input.timeout=5000, --set 'tool_input={"command":"ls"}');
a value that is not valid JSON is a string.

Without EVENT, the payload's hook_event_name is fired (a payload Claude Code
sent names its event); with both, a hook_event_name that is another event than
EVENT is fired as EVENT, with a warning on stderr.`,
		Example: `  hookctl fire --payload examples/payloads/PreToolUse.rm.json PreToolUse
  hookctl fire PreToolUse --set tool_name=Bash --set tool_input.command='rm -rf ~' --explain
  cat payload.json | hookctl fire --payload - UserPromptSubmit
  hookctl fire --payload examples/payloads/Stop.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError("fire takes one EVENT (see hookctl events), not %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			// stdout is JSON; --explain, diagnostics and logs are on stderr.
			defer a.escapeOutput(false)()
			if err := runtime.Nested(os.Getenv); err != nil {
				return &exitError{code: exitBlocked, err: err}
			}
			payload, err := a.payload(payloadPath, sets)
			if err != nil {
				return err
			}
			event := ""
			if len(args) == 1 {
				event = args[0]
			}
			cwd, _ := os.Getwd()
			var bg backgroundTraces
			rt := runtime.New(runtime.WithTracer(func(ctx context.Context, _ io.Writer) (context.Context, []engine.Option, func()) {
				return a.oneShotTracing(ctx)
			}), runtime.WithEngineOptions(engine.WithObserver(&bg)))
			out, took, err := rt.Outcome(context.Background(), runtime.Request{Decoded: payload, Event: event, Config: a.configPath,
				Cwd: cwd, Env: os.Environ(), Stderr: a.stderr, LogLevel: a.logLevel, Command: cmd.CommandPath()})
			if err != nil {
				var ne *runtime.NestedError
				var le *runtime.LoadError
				switch {
				case errors.As(err, &ne):
					return &exitError{code: exitBlocked, err: err}
				case errors.As(err, &le) && le.Rendered:
					return silent(exitFailure)
				}
				return &exitError{code: exitFailure, err: err}
			}
			if explain {
				writeExplain(a.stderr, out, took)
			}
			if err := writeJSON(a.stdout, out, !compact); err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			if out.Blocked {
				fmt.Fprintf(a.stderr, "blocked (exit status %d)\n", exitBlocked)
				return silent(exitBlocked)
			}
			if strict {
				// The engine is closed: the background hooks it queued
				// have finished (or were dropped, which it logged).
				bgFailed := bg.failed(out)
				if failed := failedHooks(out); len(failed)+len(bgFailed) > 0 {
					for _, h := range failed {
						fmt.Fprintf(a.stderr, "hook %s failed (%s): %s\n", termsafe.Escape(h.ID), h.Status, termsafe.Escape(h.Error))
					}
					for _, h := range bgFailed {
						fmt.Fprintf(a.stderr, "background hook %s failed (%s): %s\n", termsafe.Escape(h.ID), h.Status, termsafe.Escape(h.Error))
					}
					failed = append(failed, bgFailed...)
					fmt.Fprintf(a.stderr, "%d hook(s) failed (exit status %d, --strict)\n", len(failed), exitHookFailed)
					return silent(exitHookFailed)
				}
			}
			return nil
		},
	}
	cmd.ValidArgsFunction = a.eventArg
	cmd.Flags().StringVarP(&payloadPath, "payload", "p", "", "JSON payload file, or - for stdin")
	cmd.Flags().StringArrayVar(&sets, "set", nil, "set a payload field: key=value (dotted keys, JSON values); repeatable")
	cmd.Flags().BoolVar(&explain, "explain", false, "write a readable trace of every hook to stderr")
	cmd.Flags().BoolVar(&compact, "compact", false, "print the outcome on one line")
	cmd.Flags().BoolVar(&strict, "strict", false, "exit 3 when a hook failed (error, timeout, panic) and the outcome is not blocked")
	return cmd
}

// failedHooks returns the traces of the hooks that failed: an error (a
// panic included) or a timeout, whatever their on_error made of it.
func failedHooks(out engine.Outcome) []engine.HookTrace {
	var failed []engine.HookTrace
	for _, h := range out.Hooks {
		if h.Status == engine.StatusError || h.Status == engine.StatusTimeout {
			failed = append(failed, h)
		}
	}
	return failed
}

// backgroundTraces is an engine.Observer that keeps the final traces of
// the background hooks that failed, which the outcome only shows as
// queued: fire --strict counts them once the engine is closed.
type backgroundTraces struct {
	mu     sync.Mutex
	traces []engine.HookTrace
}

func (b *backgroundTraces) FireStarted(ctx context.Context, _ engine.FireInfo) context.Context {
	return ctx
}

func (b *backgroundTraces) HookDone(_ context.Context, _ engine.FireInfo, tr *engine.HookTrace) {
	if tr.Phase != engine.PhaseBackground || (tr.Status != engine.StatusError && tr.Status != engine.StatusTimeout) {
		return
	}
	b.mu.Lock()
	b.traces = append(b.traces, *tr)
	b.mu.Unlock()
}

func (b *backgroundTraces) FireEnded(context.Context, engine.FireInfo, *engine.Outcome, error) {}

// failed returns the failures of the hooks out says were queued (a
// background hook that failed before it was queued is in out already).
func (b *backgroundTraces) failed(out engine.Outcome) []engine.HookTrace {
	b.mu.Lock()
	defer b.mu.Unlock()
	var failed []engine.HookTrace
	for _, tr := range b.traces {
		if q, ok := out.Hook(tr.ID); ok && q.Status == engine.StatusQueued {
			failed = append(failed, tr)
		}
	}
	return failed
}

// MaxPayload bounds a payload read by fire.
const MaxPayload = 64 << 20

// readPayload reads a JSON object; errors say where the JSON is wrong.
func readPayload(stdin io.Reader, path string) (map[string]any, error) {
	if path == "" {
		return map[string]any{}, nil
	}
	var r io.Reader
	name := path
	if path == "-" {
		r, name = stdin, "stdin"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("payload: %w", err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("payload %s: %w", name, err)
	}
	if len(data) > MaxPayload {
		return nil, fmt.Errorf("payload %s: larger than %d bytes", name, MaxPayload)
	}
	return DecodePayload(name, data)
}

// DecodePayload decodes a payload that must be one JSON object, within
// the input limits of every other transport (server.CheckLimits) and with
// their decoder (jsonx.DecodeObject).
func DecodePayload(name string, data []byte) (map[string]any, error) {
	var le *server.LimitError
	if err := server.CheckLimits(data); errors.As(err, &le) {
		return nil, fmt.Errorf("payload %s: %w", name, err)
	}
	m, err := jsonx.DecodeObject(data)
	var ke *jsonx.KindError
	if errors.As(err, &ke) {
		return nil, fmt.Errorf("payload %s: want a JSON object, got %s", name, jsonKindName(ke.Kind))
	}
	if err != nil {
		return nil, fmt.Errorf("payload %s: %s", name, jsonErrorAt(data, err))
	}
	return m, nil
}

// jsonKindName is a JSON kind with its article: "an array".
func jsonKindName(k string) string { return runtime.KindName(k) }

// jsonErrorAt adds line and column to a JSON syntax error.
func jsonErrorAt(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if errors.Is(err, io.EOF) {
		return "empty input: want a JSON object"
	}
	if off < 0 {
		return err.Error()
	}
	// The offset counts the bytes read, the offending one included.
	off--
	line, col := 1, 1
	for i := int64(0); i < off && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}

// setField applies one --set key=value.
func setField(payload map[string]any, kv string) error {
	key, raw, ok := strings.Cut(kv, "=")
	if !ok || key == "" {
		return fmt.Errorf("--set %q: want key=value", kv)
	}
	var val any = raw
	if js, err := jsonx.Decode([]byte(raw)); err == nil {
		val = js
	}
	if err := hcl.SetPath(payload, key, val); err != nil {
		return fmt.Errorf("--set %s", err)
	}
	return nil
}

// writeExplain writes a readable trace of every hook.
func writeExplain(w io.Writer, out engine.Outcome, took time.Duration) {
	fmt.Fprintf(w, "event %s: %d hook(s), %s\n", termsafe.Escape(out.Event), len(out.Hooks), took.Round(time.Microsecond))
	for _, h := range out.Hooks {
		fmt.Fprintf(w, "  %-24s %-10s %-9s", termsafe.Escape(h.ID), h.Phase, h.Status)
		switch h.Status {
		case engine.StatusSkipped:
			fmt.Fprintf(w, " why: %s", termsafe.Escape(h.SkipReason))
		case engine.StatusQueued:
			fmt.Fprint(w, " (runs in the background)")
		default:
			fmt.Fprintf(w, " %6dµs", h.Duration.Microseconds())
			if h.Decision != "" {
				fmt.Fprintf(w, " decision=%s", termsafe.Escape(string(h.Decision)))
			}
			if h.Reason != "" {
				fmt.Fprintf(w, " reason=%q", h.Reason)
			}
			if h.FailClosed {
				fmt.Fprint(w, " (failure counted as a block: on_error=block)")
			}
			if h.Error != "" {
				fmt.Fprintf(w, " error: %s", termsafe.Escape(h.Error))
			}
			if h.Note != "" {
				fmt.Fprintf(w, " note: %s", termsafe.Escape(h.Note))
			}
		}
		fmt.Fprintf(w, "  [%s, priority %d", termsafe.Escape(h.Handler), h.Priority)
		if h.Layer != "" {
			fmt.Fprintf(w, ", %s layer", h.Layer)
		}
		if h.Source != "" {
			fmt.Fprintf(w, ", %s", termsafe.Escape(h.Source))
		}
		fmt.Fprintln(w, "]")
		writeStack(w, h.Stack)
	}
	verdict := "not blocked"
	if out.Blocked {
		verdict = "BLOCKED"
	}
	fmt.Fprintf(w, "outcome: %s", verdict)
	if out.Decision != "" {
		fmt.Fprintf(w, ", decision %s", termsafe.Escape(string(out.Decision)))
	}
	if out.Reason != "" {
		fmt.Fprintf(w, ", reason %q", out.Reason)
	}
	if !out.Continue {
		fmt.Fprintf(w, ", continue=false (%s)", termsafe.Escape(out.StopReason))
	}
	if out.StopGuard != nil && out.StopGuard.Released {
		fmt.Fprint(w, ", stop guard released the agent")
	}
	fmt.Fprintln(w)
}
