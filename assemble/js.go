package assemble

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/script"
)

// inlineJS compiles an inline js body; errors point into the HCL file.
func inlineJS(hb *hcl.HookBlock, x *Build) engine.Handler {
	b := hb.Body
	in, ok := b.Inline("js")
	if !ok {
		return nil
	}
	pool, err := x.Scripts()
	if err != nil {
		b.Errorf("js", "JavaScript unavailable", "%s.", err)
		return nil
	}
	prog, err := pool.CompileInline(in.File, in.Text, in.Line)
	if err != nil {
		var se *script.SyntaxError
		if errors.As(err, &se) {
			in.ErrorAt(se.Line, se.Column, "JavaScript syntax error", se.Message)
			return nil
		}
		b.Errorf("js", "Invalid JavaScript", "%s", err)
		return nil
	}
	return pool.Handler(prog, hb.Allow...)
}

// scriptFile compiles a CommonJS handler file, relative to the
// configuration.
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
			b.Errorf("script", "JavaScript syntax error", "%s:%d:%d: %s", relTo(dir, se.File), se.Line, se.Column, se.Message)
		case errors.As(err, &xe):
			b.Errorf("script", "Script failed to load", "%s:%d:%d: %s", relTo(dir, xe.File), xe.Line, xe.Column, xe.Message)
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
