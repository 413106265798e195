package script_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
)

func benchPayload() map[string]any {
	return map[string]any{
		"session_id":      "5571db9b-f86b-4717-a6e4-58d884fbb40d",
		"transcript_path": "/home/u/.claude/projects/p/5571db9b.jsonl",
		"cwd":             "/home/u/project",
		"prompt_id":       "f72db9b4-6a84-4a66-9659-bd960301572e",
		"permission_mode": "default",
		"effort":          map[string]any{"level": "medium"},
		"hook_event_name": "PreToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": "rm -rf /tmp/x", "description": "cleanup", "timeout": 120000.0, "run_in_background": false},
		"tool_use_id":     "toolu_48491c349dd8409bbc4d3ec6",
	}
}

// hookBody is the hook of the performance baseline: three regexes, a deny
// on the first.
const hookBody = `
	const c = event.tool_input.command;
	if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
	if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
	if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
`

func BenchmarkJSHookCall(b *testing.B) {
	p, err := script.NewPool("testdata/cfg")
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	prog, err := p.CompileInline("bench.hcl", hookBody, 1)
	if err != nil {
		b.Fatal(err)
	}
	h := p.Handler(prog)
	c := &engine.Call{Event: "PreToolUse", Hook: "h", Payload: benchPayload(), State: engine.NewState(nil), Timeout: 1e9}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := h.Handle(ctx, c)
		if err != nil || res["decision"] != "deny" {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkFireTenJSHooks fires PreToolUse through 5 modifying and 5
// observe JS hooks, each behind an expr condition (SPEC §8).
func BenchmarkFireTenJSHooks(b *testing.B) {
	p, err := script.NewPool("testdata/cfg")
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	e, err := engine.New()
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close(context.Background())
	const cond = `tool_name in ["Bash","Shell"] && (tool_input.command matches "^rm " || tool_input.command contains "sudo") && !(session_id startsWith "test-")`
	for i := range 10 {
		body := `if (event.tool_input.command.indexOf("x") < 0) return; return { additional_context: "checked ` + fmt.Sprint(i) + `" };`
		if i == 4 {
			body = hookBody
		}
		prog, err := p.CompileInline("bench.hcl", body, 1)
		if err != nil {
			b.Fatal(err)
		}
		if err := e.Register(engine.Hook{ID: fmt.Sprintf("h%d", i), Event: "PreToolUse", When: cond, Priority: -i, Observe: i >= 5, Handler: p.Handler(prog)}); err != nil {
			b.Fatal(err)
		}
	}
	id, _ := e.Resolve("PreToolUse")
	ev := engine.Event{ID: id, Payload: benchPayload()}
	ctx := context.Background()
	// Warm the pool first: the runtimes the fires use are made once, not
	// per fire (the background hooks need a second one).
	for range 10 {
		if _, err := e.Fire(ctx, ev); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Fire(ctx, ev); err != nil {
			b.Fatal(err)
		}
	}
}

// bigScanBody is a hook that scans a Write's content for secrets and
// dangerous code with a dozen regexes, none of which matches.
const bigScanBody = `
	const s = event.tool_input.content;
	const pats = [/AKIA[0-9A-Z]{16}/, /-----BEGIN [A-Z ]*PRIVATE KEY-----/, /ghp_[A-Za-z0-9]{36}/,
		/xox[baprs]-[A-Za-z0-9-]{10,}/, /sk-[A-Za-z0-9]{32,}/, /password\s*=\s*["'][^"']{8,}["']/i,
		/\beval\s*\(/, /rm\s+-rf\s+\//, /curl[^|\n]*\|\s*(ba)?sh/, /child_process/, /api[_-]?key\s*[:=]/i, /BEGIN CERTIFICATE/];
	for (const re of pats) if (re.test(s)) return { decision: "deny", reason: String(re) };
	if (/AWS_SECRET_ACCESS_KEY/.test(s)) return { decision: "deny", reason: "aws" };
	if (/-----BEGIN OPENSSH/.test(s)) return { decision: "deny", reason: "ssh" };
`

// bigContent is about size bytes of source code, ASCII unless tail is.
func bigContent(size int, tail string) string {
	line := "\tfor (let i = 0; i < items.length; i++) { total += items[i].price * items[i].count; } // sum\n"
	b := make([]byte, 0, size+len(tail))
	for len(b) < size {
		b = append(b, line...)
	}
	return string(b) + tail
}

// BenchmarkJSBigPayloadRegex: one JS hook testing 14 regexes against a
// 10 MB Write payload (ASCII, and with one non-ASCII character at the
// end).
func BenchmarkJSBigPayloadRegex(b *testing.B) {
	p, err := script.NewPool("testdata/cfg")
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	prog, err := p.CompileInline("bench.hcl", bigScanBody, 1)
	if err != nil {
		b.Fatal(err)
	}
	h := p.Handler(prog)
	for _, c := range []struct{ name, tail string }{{"ascii", ""}, {"non-ascii", "// caf\u00e9\n"}} {
		b.Run(c.name, func(b *testing.B) {
			payload := map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": "/p/big.js", "content": bigContent(10<<20, c.tail)}}
			call := &engine.Call{Event: "PreToolUse", Hook: "h", Payload: payload, State: engine.NewState(nil), Timeout: 60e9}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				res, err := h.Handle(ctx, call)
				if err != nil || res != nil {
					b.Fatal(res, err)
				}
			}
		})
	}
}
