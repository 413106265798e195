package stdlib

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/lib/jsonl"
	"github.com/hookctl/hookctl/lib/paths"
	"github.com/hookctl/hookctl/lib/secrets"
	"github.com/hookctl/hookctl/lib/shell"
	"github.com/hookctl/hookctl/lib/transcript"
	"github.com/hookctl/hookctl/script"
)

func durationOf(ns int64) time.Duration { return time.Duration(ns) }

// logModule is hookctl/log: append-only JSON Lines audit logs with
// rotation and a cross-process lock. Writing needs the "write" capability
// and a path inside the roots.
func logModule(Options) script.Module {
	return func(vm *script.VM, module *goja.Object) {
		rt := vm.Runtime()
		set(module, map[string]fn{
			"append": func(c goja.FunctionCall) goja.Value {
				vm.Require(CapWrite, "log.append")
				p := filepath.FromSlash(paths.Resolve(argString(vm, c, 0, "log.append"), payloadString(vm, "cwd"), ""))
				if !vm.Within(p) {
					panic(rt.NewGoError(fmt.Errorf("log.append: %s is outside the project and configuration roots", p)))
				}
				rec, ok := vm.Export(c.Argument(1)).(map[string]any)
				if !ok {
					panic(rt.NewTypeError("log.append: the record must be an object"))
				}
				opts := options(c, 2)
				lo := jsonl.Options{MaxBytes: optInt(opts, "maxBytes", 0), MaxBackups: int(optInt(opts, "maxBackups", 0))}
				if r, _ := opts["redact"].(bool); r {
					lo.Redact = secrets.Redact
				}
				if err := jsonl.Append(vm.Context(), p, rec, lo); err != nil {
					panic(rt.NewGoError(fmt.Errorf("log.append: %w", err)))
				}
				return goja.Undefined()
			},
		})
	}
}

// secretsModule is hookctl/secrets: find and redact credentials. A scan
// of a huge string gives up at the hook's deadline.
func secretsModule(Options) script.Module {
	return func(vm *script.VM, module *goja.Object) {
		rt := vm.Runtime()
		throw := func(fname string, err error) { panic(rt.NewGoError(fmt.Errorf("secrets.%s: %w", fname, err))) }
		set(module, map[string]fn{
			"scan": func(c goja.FunctionCall) goja.Value {
				fs, err := secrets.ScanContext(vm.Context(), argString(vm, c, 0, "secrets.scan"))
				if err != nil {
					throw("scan", err)
				}
				out := make([]any, len(fs))
				for i, f := range fs {
					out[i] = map[string]any{"kind": f.Kind, "start": f.Start, "end": f.End}
				}
				return rt.ToValue(out)
			},
			"contains": func(c goja.FunctionCall) goja.Value {
				ok, err := secrets.ContainsContext(vm.Context(), argString(vm, c, 0, "secrets.contains"))
				if err != nil {
					throw("contains", err)
				}
				return rt.ToValue(ok)
			},
			"redact": func(c goja.FunctionCall) goja.Value {
				s, err := secrets.RedactContext(vm.Context(), argString(vm, c, 0, "secrets.redact"))
				if err != nil {
					throw("redact", err)
				}
				return rt.ToValue(s)
			},
		})
	}
}

// shellModule is hookctl/shell: parse command lines the way the shell
// would, unwrapping sudo, env, bash -c and friends.
func shellModule(Options) script.Module {
	return func(vm *script.VM, module *goja.Object) {
		rt := vm.Runtime()
		set(module, map[string]fn{
			"parse": func(c goja.FunctionCall) goja.Value {
				segs, err := shell.Parse(argString(vm, c, 0, "shell.parse"))
				if err != nil {
					panic(rt.NewGoError(fmt.Errorf("shell.parse: %w", err)))
				}
				return rt.ToValue(segmentsJS(segs))
			},
			"commands": func(c goja.FunctionCall) goja.Value {
				return rt.ToValue(toAny(shell.Commands(argString(vm, c, 0, "shell.commands"))))
			},
			"has": func(c goja.FunctionCall) goja.Value {
				names := make([]string, 0, len(c.Arguments))
				for i := 1; i < len(c.Arguments); i++ {
					names = append(names, stringList(script.Export(c.Argument(i)))...)
				}
				return rt.ToValue(shell.HasCommand(argString(vm, c, 0, "shell.has"), names...))
			},
			"words": func(c goja.FunctionCall) goja.Value {
				w, err := shell.Words(argString(vm, c, 0, "shell.words"))
				if err != nil {
					panic(rt.NewGoError(fmt.Errorf("shell.words: %w", err)))
				}
				return rt.ToValue(toAny(w))
			},
		})
	}
}

// segmentsJS turns parsed segments into plain data for scripts.
func segmentsJS(segs []shell.Segment) []any {
	out := make([]any, len(segs))
	for i, s := range segs {
		redirects := make([]any, len(s.Redirects))
		for j, r := range s.Redirects {
			redirects[j] = map[string]any{"op": r.Op, "fd": r.Fd, "target": r.Target}
		}
		out[i] = map[string]any{
			"argv": toAny(s.Argv), "name": s.Name, "args": toAny(s.Args()), "assigns": toAny(s.Assigns),
			"wrappers": toAny(s.Wrappers), "op": s.Op, "subshell": s.Subshell, "redirects": redirects,
		}
	}
	return out
}

func toAny(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

// transcriptModule is hookctl/transcript: read Claude Code transcripts.
// It reads the event's transcript_path, or a path inside the roots (any
// path with the "read" capability); only a regular file, at most
// MaxReadLimit bytes of its end, until the hook's deadline.
func transcriptModule(Options) script.Module {
	return func(vm *script.VM, module *goja.Object) {
		rt := vm.Runtime()
		target := func(c goja.FunctionCall, fname string) string {
			p := payloadString(vm, "transcript_path")
			if v := c.Argument(0); !goja.IsUndefined(v) && !goja.IsNull(v) {
				if _, isObj := v.(*goja.Object); !isObj {
					given := paths.Resolve(v.String(), payloadString(vm, "cwd"), "")
					if given != p && !vm.Allowed(CapRead) && !vm.Within(filepath.FromSlash(given)) {
						panic(rt.NewGoError(fmt.Errorf("transcript.%s: %s is neither the event's transcript nor inside the roots", fname, given)))
					}
					p = given
				}
			}
			if p == "" {
				panic(rt.NewGoError(fmt.Errorf("transcript.%s: the event has no transcript_path", fname)))
			}
			return filepath.FromSlash(p)
		}
		set(module, map[string]fn{
			"read": func(c goja.FunctionCall) goja.Value {
				p := target(c, "read")
				var opts map[string]any
				for i := range c.Arguments {
					if o, ok := c.Argument(i).(*goja.Object); ok {
						opts, _ = script.Export(o).(map[string]any)
					}
				}
				maxBytes := optInt(opts, "maxBytes", 0)
				if maxBytes < 0 || maxBytes > MaxReadLimit {
					// No limit means the largest one: the whole of a
					// transcript is never read into a hook.
					maxBytes = MaxReadLimit
				}
				s, err := transcript.ReadFile(vm.Context(), p, transcript.Options{MaxBytes: maxBytes, MaxToolCalls: int(optInt(opts, "maxToolCalls", 0))})
				if err != nil {
					panic(rt.NewGoError(fmt.Errorf("transcript.read: %w", err)))
				}
				calls := make([]any, len(s.ToolCalls))
				for i, tc := range s.ToolCalls {
					calls[i] = map[string]any{"id": tc.ID, "name": tc.Name, "input": tc.Input, "result": tc.Result, "isError": tc.IsError, "hasResult": tc.HasResult}
				}
				return rt.ToValue(map[string]any{
					"messages": s.Messages, "userMessages": s.UserMessages, "assistantMessages": s.AssistantMessages,
					"model": s.Model, "lastAssistantText": s.LastAssistantText, "lastUserText": s.LastUserText,
					"toolCalls": calls, "skipped": s.Skipped,
					"usage": map[string]any{"inputTokens": s.Usage.InputTokens, "outputTokens": s.Usage.OutputTokens,
						"cacheCreationInputTokens": s.Usage.CacheCreationInputTokens, "cacheReadInputTokens": s.Usage.CacheReadInputTokens},
				})
			},
			"lastAssistantText": func(c goja.FunctionCall) goja.Value {
				t, err := transcript.LastAssistantText(vm.Context(), target(c, "lastAssistantText"))
				if err != nil {
					panic(rt.NewGoError(fmt.Errorf("transcript.lastAssistantText: %w", err)))
				}
				return rt.ToValue(t)
			},
		})
	}
}
