package stdlib

import (
	"errors"
	"fmt"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/lib/proc"
	"github.com/hookctl/hookctl/script"
)

// execModule is hookctl/exec: run a program by argv, without a shell,
// bounded by the hook's deadline (or a shorter timeout) and an output cap.
// It needs the "exec" capability.
func execModule(Options) script.Module {
	return func(vm *script.VM, module *goja.Object) {
		rt := vm.Runtime()
		set(module, map[string]fn{
			"run": func(c goja.FunctionCall) goja.Value {
				vm.Require(CapExec, "exec.run")
				var argv []string
				if l, isList := script.Export(c.Argument(0)).([]any); isList {
					argv = stringList(l)
				}
				if len(argv) == 0 {
					panic(rt.NewTypeError("exec.run: the first argument must be a non-empty array of strings (argv; there is no shell)"))
				}
				o := options(c, 1)
				spec := proc.Spec{Argv: argv, Dir: optString(o, "cwd"), MaxOutput: int(optInt(o, "maxOutput", 0))}
				if spec.Dir == "" {
					spec.Dir = payloadString(vm, "cwd")
				}
				if in, ok := o["input"].(string); ok {
					spec.Stdin = []byte(in)
				}
				if env, ok := o["env"].(map[string]any); ok {
					extra := map[string]string{}
					for k, v := range env {
						extra[k] = fmt.Sprint(v)
					}
					spec.Env = proc.Environ(extra)
				}
				ctx := vm.Context()
				timeout, err := optDuration(o, "timeout")
				if err != nil {
					panic(rt.NewTypeError("exec.run: " + err.Error()))
				}
				if timeout > 0 {
					var cancel func()
					ctx, cancel = contextWithTimeout(ctx, timeout)
					defer cancel()
				}
				res, err := proc.Run(ctx, spec)
				var se *proc.StartError
				if errors.As(err, &se) {
					panic(rt.NewGoError(fmt.Errorf("exec.run: %w", err)))
				}
				return rt.ToValue(map[string]any{
					"code": res.ExitCode, "stdout": string(res.Stdout), "stderr": string(res.Stderr),
					"timedOut": res.TimedOut, "truncated": res.Truncated, "durationMs": res.Duration.Milliseconds(),
				})
			},
		})
	}
}
