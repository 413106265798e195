package assemble

import (
	"fmt"
	"github.com/hookctl/hookctl/protocol"
	"path/filepath"
	goruntime "runtime"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/handler/command"
	httphook "github.com/hookctl/hookctl/handler/http"
	"github.com/hookctl/hookctl/hcl"
)

// commandHandler builds a command handler: a list is an
// argv run without a shell, a string runs with sh -c.
func commandHandler(hb *hcl.HookBlock, x *Build) engine.Handler {
	b := hb.Body
	v, ok := b.Value("command")
	if !ok {
		return nil
	}
	spec := command.Spec{ConfigDir: b.Dir()}
	switch c := v.(type) {
	case string:
		if strings.TrimSpace(c) == "" {
			b.Errorf("command", "Empty command", "command must not be empty.")
			return nil
		}
		spec.Shell = c
	case []any:
		for _, e := range c {
			s, isStr := e.(string)
			if !isStr {
				b.Errorf("command", "Invalid command", "A command list is an argv of strings.")
				return nil
			}
			spec.Argv = append(spec.Argv, s)
		}
		if len(spec.Argv) == 0 || spec.Argv[0] == "" {
			b.Errorf("command", "Empty command", "command must not be empty.")
			return nil
		}
		// A relative program path is relative to the configuration, as
		// the trust check reads it (hcl.CommandFiles).
		if namesDir(spec.Argv[0], goruntime.GOOS == "windows") && !filepath.IsAbs(spec.Argv[0]) {
			spec.Argv[0] = filepath.Join(b.Dir(), spec.Argv[0])
		}
	default:
		b.Errorf("command", "Invalid command", "command is a string (run with sh -c) or a list (an argv run without a shell).")
		return nil
	}
	if b.Has("env") {
		if m, ok := b.Value("env"); ok {
			em, isMap := m.(map[string]any)
			if !isMap {
				b.Errorf("env", "Invalid env", "env is an object of NAME = \"value\".")
			}
			spec.Env = map[string]string{}
			for k, e := range em {
				spec.Env[k] = fmt.Sprint(e)
			}
		}
	}
	if b.Has("shell") {
		sh, ok := b.Str("shell")
		switch {
		case !ok || !protocol.KnownHookShell(sh):
			b.Errorf("shell", "Invalid shell", "shell is %s: the shell that runs the command line (unset: the host's, as it runs its own hooks' lines).", protocol.HookShellNames())
			return nil
		case spec.Shell == "":
			b.Errorf("shell", "Invalid shell", "shell applies to a command line (a string); a list is an argv run without a shell.")
			return nil
		}
		spec.ShellKind = sh
	}
	if d, ok := b.Str("cwd"); ok && d != "" {
		spec.Dir = b.Path(d)
	}
	if p, ok := b.Str("protocol"); ok && p != "" {
		c, known := x.opts.Protocols.Convention(p)
		if !known {
			var names []string
			for _, n := range x.opts.Protocols.Conventions() {
				c, _ := x.opts.Protocols.Convention(n)
				names = append(names, fmt.Sprintf("%q (%s)", n, c.Title()))
			}
			b.Errorf("protocol", "Invalid protocol", "protocol names the convention the program speaks: %s. Unset, it is Claude Code's exit codes and JSON output.", strings.Join(names, ", "))
			return nil
		}
		spec.Protocol = c
	}
	spec.ProjectDir = b.ProjectDir()
	if x.opts.FileCheck != nil {
		spec.Check, spec.Files = x.opts.FileCheck, hcl.CommandFiles(b.Dir(), v)
	}
	h, err := command.New(spec)
	if err != nil {
		b.Errorf("command", "Invalid command", "%s.", err)
		return nil
	}
	return h
}

// namesDir reports whether a program names a directory (a/b; on Windows
// a\b too): a path, not a name looked up in PATH. On Windows,
// scripts\lint.ps1 was run from the working directory while the trust
// check pinned the configuration's own.
func namesDir(prog string, win bool) bool {
	return strings.Contains(prog, "/") || win && strings.Contains(prog, `\`)
}

// httpHandler builds a Claude Code protocol http handler, limited to the
// settings' http_allow.
func httpHandler(hb *hcl.HookBlock, x *Build) engine.Handler {
	b := hb.Body
	if !b.Decode(hcl.Schema{Required: []string{"url"}, Optional: []string{"headers", "allowed_env", "method"}}) {
		return nil
	}
	spec := httphook.Spec{Allow: x.cfg.Settings.HTTPAllow, Getenv: x.opts.Getenv}
	spec.URL, _ = b.Str("url")
	spec.Method, _ = b.Str("method")
	spec.AllowedEnv, _ = b.Strings("allowed_env")
	if b.Has("headers") {
		if v, ok := b.Value("headers"); ok {
			m, isMap := v.(map[string]any)
			if !isMap {
				b.Errorf("headers", "Invalid headers", "headers is an object of Name = \"value\".")
				return nil
			}
			spec.Headers = map[string]string{}
			for k, e := range m {
				spec.Headers[k] = fmt.Sprint(e)
			}
		}
	}
	h, err := httphook.New(spec)
	if err != nil {
		b.Errorf("url", "Invalid http handler", "%s.", err)
		return nil
	}
	return h
}
