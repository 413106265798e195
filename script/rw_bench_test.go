package script

import (
	"testing"

	"github.com/dop251/goja/parser"
	"github.com/hookctl/hookctl/internal/jsrewrite"
)

const rwBody = `
    const c = event.tool_input.command;
    if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
    if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
    if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
    return { additional_context: "hook 0: ok" };
`

func BenchmarkRewriteParse(b *testing.B) {
	src := "(function (event, ctx) {" + rwBody + "\n})"
	for b.Loop() {
		parser.ParseFile(nil, "", src, 0)
	}
}

func BenchmarkRewrite(b *testing.B) {
	p, _ := NewPool(b.TempDir())
	defer p.Close()
	src := "(function (event, ctx) {" + rwBody + "\n})"
	for b.Loop() {
		jsrewrite.Rewrite(src, 24, 24+len(rwBody), p.rewriteOptions())
	}
}

func BenchmarkCompileInline(b *testing.B) {
	p, _ := NewPool(b.TempDir())
	defer p.Close()
	for b.Loop() {
		p.CompileInline("x.hcl", rwBody, 1)
	}
}
