package assemble

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/script"
)

// inlineJS compiles an inline js body; errors point into the HCL file.
func inlineJS(hb *hcl.HookBlock, x *Build) engine.Handler { return inlineBody(hb, x, "js") }

// inlineTS compiles an inline ts body (TypeScript, its types stripped);
// errors point into the HCL file.
func inlineTS(hb *hcl.HookBlock, x *Build) engine.Handler { return inlineBody(hb, x, "ts") }

func inlineBody(hb *hcl.HookBlock, x *Build, attr string) engine.Handler {
	b := hb.Body
	in, ok := b.Inline(attr)
	if !ok {
		return nil
	}
	ts := attr == "ts"
	pool, err := x.Scripts()
	if err != nil {
		b.Errorf(attr, byLang(ts, "JavaScript unavailable", "TypeScript unavailable"), "%s.", err)
		return nil
	}
	prog, err := pool.CompileBody(script.Body{File: in.File, Line: in.Line, Text: in.Text, TypeScript: attr == "ts", Columns: in.Columns()})
	if err != nil {
		var se *script.SyntaxError
		if errors.As(err, &se) {
			detail := se.Message
			if se.Hint != "" {
				detail += "\n" + se.Hint
			}
			in.ErrorAtFile(se.Line, se.Column, byLang(ts, "JavaScript syntax error", "TypeScript syntax error"), detail)
			return nil
		}
		b.Errorf(attr, byLang(ts, "Invalid JavaScript", "Invalid TypeScript"), "%s", err)
		return nil
	}
	return pool.Handler(prog, hb.Allow...)
}

// scriptFile compiles a handler file, relative to the configuration: a
// CommonJS module, an ES module or TypeScript.
func scriptFile(hb *hcl.HookBlock, x *Build) engine.Handler {
	b := hb.Body
	p, ok := b.Str("script")
	if !ok {
		return nil
	}
	if p == "" {
		b.Errorf("script", "Missing script", "script names a file next to the configuration, e.g. \"scripts/check.js\".")
		return nil
	}
	pool, err := x.Scripts()
	if err != nil {
		b.Errorf("script", "JavaScript unavailable", "%s.", err)
		return nil
	}
	prog, err := pool.CompileFile(p)
	if err != nil {
		dir := b.Dir()
		var se *script.SyntaxError
		var xe *script.Error
		switch {
		case errors.As(err, &se):
			b.Errorf("script", byLang(isTypeScript(p), "JavaScript syntax error", "TypeScript syntax error"), "%s:%d:%d: %s%s", relTo(dir, se.File), se.Line, se.Column, se.Message, hint(se.Hint))
		case errors.As(err, &xe):
			b.Errorf("script", "Script failed to load", "%s:%d:%d: %s%s%s", relTo(dir, xe.File), xe.Line, xe.Column, xe.Message, hint(xe.Hint), stack(dir, xe.Stack))
		case errors.Is(err, script.ErrTimeout) || errors.Is(err, context.DeadlineExceeded):
			// The file was read: its top-level code ran past the load
			// deadline (a loop, a long computation), a load failure.
			b.Errorf("script", "Script failed to load", "%s (its top-level code ran longer than %s).", strings.Replace(err.Error(), dir+string(filepath.Separator), "", 1), script.DefaultLoadTimeout)
		default:
			b.Errorf("script", "Missing or unreadable script", "%s.", strings.Replace(err.Error(), dir+string(filepath.Separator), "", 1))
		}
		return nil
	}
	return pool.Handler(prog, hb.Allow...)
}

func relTo(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// isTypeScript reports whether a script file is TypeScript.
func isTypeScript(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ts", ".mts", ".cts":
		return true
	}
	return false
}

// byLang chooses a diagnostic's summary by language; the summaries are
// written whole, so that each has its code (hcl.CodeOf).
func byLang(ts bool, js, typescript string) string {
	if ts {
		return typescript
	}
	return js
}

// hint puts a hint on a line of its own.
func hint(h string) string {
	if h == "" {
		return ""
	}
	return "\n" + h
}

// stack lists the frames of a script's stack below the innermost one
// (the error's position already names it), relative to the
// configuration.
func stack(dir string, s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) < 2 {
		return ""
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("\n  " + strings.ReplaceAll(strings.TrimSpace(l), dir+string(filepath.Separator), ""))
	}
	return b.String()
}
