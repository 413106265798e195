package lint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/schema"
)

// check writes files into a directory (hooks.hcl and what it loads),
// parses hooks.hcl and returns its lint warnings as "line:col code
// detail [suggestion]".
func check(t *testing.T, files map[string]string) []string {
	t.Helper()
	var got []string
	for _, d := range lintFiles(t, files) {
		got = append(got, fmt.Sprintf("%s:%d:%d %s %s [%s]", filepath.Base(d.File), d.Line, d.Column, d.Code, d.Detail, d.Suggestion))
	}
	return got
}

// lintFiles writes files into a directory (hooks.hcl and what it loads),
// parses hooks.hcl and returns its lint diagnostics.
func lintFiles(t *testing.T, files map[string]string) []hcl.Diagnostic {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	eng, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	cfg, err := hcl.Parse(filepath.Join(dir, "hooks.hcl"), hcl.WithCatalog(eng))
	if err != nil {
		t.Fatal(err)
	}
	return Check(cfg, eng)
}

func hook(event, matcher, when string) string {
	m := ""
	if matcher != "" {
		m = fmt.Sprintf("  matcher = %q\n", matcher)
	}
	ev := fmt.Sprintf("event = %q", event)
	if names := strings.Split(event, ","); len(names) > 1 {
		ev = fmt.Sprintf("events = [%q, %q]", names[0], names[1])
	}
	return fmt.Sprintf("hook \"h\" {\n  %s\n%s  when = %q\n  decision = \"deny\"\n}\n", ev, m, when)
}

// TestConditionPaths: a condition reading a nested payload path the event
// or the matched tools do not have warns, with the closest name as the
// suggestion; correct paths, open objects and fields other hosts or
// hookctl add do not.
func TestConditionPaths(t *testing.T) {
	for _, c := range []struct {
		event, matcher, when string
		want                 string // a substring of the one warning; "" for none
	}{
		{"PreToolUse", "Bash", "tool_input.comand matches 'rm'", `hooks.hcl:4:22 HK1409 tool_input.comand: Bash has no field "comand"; did you mean "command"? It is always missing here, so the condition reads nil. [command]`},
		{"PreToolUse", "Bash", `tool_input["comand"] matches 'rm'`, `HK1409 tool_input.comand: Bash has no field "comand"; did you mean "command"?`},
		{"PreToolUse", "Bash", "tool_input?.comand matches 'rm'", `did you mean "command"?`},
		{"PreToolUse", "Bash", "$env.tool_input.comand matches 'rm'", `did you mean "command"?`},
		{"PreToolUse", "Bash", "tool_input.command matches 'rm'", ""},
		{"PreToolUse", "Bash", "tool_input.file_path == ''", `HK1409 tool_input.file_path: Bash has no field "file_path". It is always missing here`},
		{"PreToolUse", "Bash|Write", "tool_input.file_path != '' or tool_input.command != ''", ""},
		{"PreToolUse", "Bash,Write", "tool_input.content != ''", ""},
		{"PreToolUse", "Bash|Write", "tool_input.file_pth != ''", `Bash or Write has no field "file_pth"; did you mean "file_path"?`},
		{"PreToolUse", "run_shell_command", "tool_input.directory != ''", ""},
		{"PreToolUse", "Edit", "tool_input.edits[0].old_sting != ''", `tool_input.edits.0.old_sting: tool_input.edits.0 has no field "old_sting"; did you mean "old_string"?`},
		{"PreToolUse", "Edit", "tool_input[tool].command != ''", ""},
		// MCP tools, regular expressions and no matcher: open.
		{"PreToolUse", "mcp__github__create_issue", "tool_input.title != ''", ""},
		{"PreToolUse", "Bash|mcp__github__create_issue", "tool_input.title != ''", ""},
		{"PreToolUse", "mcp__.*", "tool_input.anything != ''", ""},
		{"PreToolUse", "", "tool_input.anything != ''", ""},
		{"PreToolUse", "", "tool_input.comand != ''", `tool_input.comand: tool_input has no field "comand"; did you mean "command"?`},
		{"PreToolUse", "Bash", "tool == 'Bash' and permission_mode == 'plan' and effort.level == 'high'", ""},
		{"PostToolUse", "Write", "tool_response.filePath != ''", ""},
		{"Stop", "", "loop_count > 2 and stop_hook_active", ""},
		{"PreToolUse", "Bash", "state.count > 1 and let x = tool_input; x.command != ''", ""},
		{"PreToolUse", "Bash", "let t = tool_input; t.comand matches 'rm'", `tool_input.comand: Bash has no field "comand"; did you mean "command"?`},
		{"PreToolUse", "Bash", "let t = tool_input; let t = 1; t.comand != nil", ""},
		{"PreToolUse", "Bash", "let c = tool_input.command; c.x != nil or (let s = state; s.comand != nil)", ""},
		{"PreToolUse", "Bash", `get(tool_input, 'comand') matches 'rm'`, `hooks.hcl:4:27 HK1409 tool_input.comand: Bash has no field "comand"; did you mean "command"?`},
		{"PreToolUse", "Bash", `get(tool_input, "command") matches 'rm' and get(tool_input, k) != nil`, ""},
		{"PreToolUse", "MultiEdit", "any(tool_input.edits, #.old_strin contains 'x')", `tool_input.edits.*.old_strin: tool_input.edits.* has no field "old_strin"; did you mean "old_string"?`},
		{"PreToolUse", "MultiEdit", "tool_input.edits | any(.old_strin contains 'x')", `did you mean "old_string"?`},
		{"PreToolUse", "MultiEdit", "any(tool_input.edits, #.old_string contains 'x' and all(['a'], #.old_strin == nil)) or any(tool_input, #.x)", ""},
		{"PreToolUse", "Bash", "any(tool_input.command, {.foo == 1}) or upper(tool_input.command) == 'X'", ""},
		// A field of one of the hook's events is fine on the others.
		{"PreToolUse,PostToolUse", "Bash", "tool_response.stdout != '' or tool_input.comand != ''", `did you mean "command"?`},
		// Events whose payload is not known, aliases: unchecked.
		{"before_tool_call", "", "params.comand != ''", ""},
	} {
		var got []string
		for _, w := range check(t, map[string]string{"hooks.hcl": hook(c.event, c.matcher, c.when)}) {
			if strings.Contains(w, " HK1409 ") || strings.Contains(w, " HK1209 ") {
				got = append(got, w)
			}
		}
		switch {
		case c.want == "" && len(got) != 0, c.want != "" && (len(got) != 1 || !strings.Contains(got[0], c.want)):
			t.Errorf("%s %q %q:\n got %q\nwant %q", c.event, c.matcher, c.when, got, c.want)
		}
	}
}

// TestScriptPaths: the event.<path> reads of js and ts bodies and script
// files are checked as conditions' are, at their line and column.
func TestScriptPaths(t *testing.T) {
	const bashJS = "hook \"h\" {\n  event   = \"PreToolUse\"\n  matcher = \"Bash\"\n  js      = <<-JS\n    const c = event.tool_input?.comand || \"\";\n    if (event.tool_input.command.includes(\"rm\")) return deny(\"no\");\n  JS\n}\n"
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"inline js", map[string]string{"hooks.hcl": bashJS},
			[]string{`hooks.hcl:5:33 HK1409 event.tool_input.comand: Bash has no field "comand"; did you mean "command"? It is always undefined here. [command]`}},
		{"inline quoted js", map[string]string{"hooks.hcl": "hook \"h\" {\n  event = \"PreToolUse\"\n  matcher = \"Write\"\n  js = \"return event.tool_input.file_pth ? null : null\"\n}\n"},
			[]string{`hooks.hcl:4:33 HK1409 event.tool_input.file_pth: Write has no field "file_pth"; did you mean "file_path"?`}},
		{"inline ts", map[string]string{"hooks.hcl": "hook \"h\" {\n  event   = \"PreToolUse\"\n  matcher = \"Bash\"\n  ts      = <<-TS\n    const n: number = 1;\n    const c: string = event.tool_input[\"comand\"] ?? \"\";\n  TS\n}\n"},
			[]string{`hooks.hcl:6:40 `, `event.tool_input.comand: Bash has no field "comand"; did you mean "command"?`}},
		{"script file", map[string]string{
			"hooks.hcl": "hook \"h\" {\n  event   = \"PreToolUse\"\n  matcher = \"Bash|Write\"\n  script  = \"s.js\"\n}\n",
			"s.js":      "module.exports = function (e, ctx) {\n  const p = e.tool_input.file_path || e.tool_input.command;\n  return e.tool_input.comand;\n};\n"},
			[]string{`s.js:3:23 HK1409 event.tool_input.comand: Bash or Write has no field "comand"; did you mean "command"?`}},
		{"ts module", map[string]string{
			"hooks.hcl": "hook \"h\" {\n  event   = \"Stop\"\n  script  = \"s.ts\"\n}\n",
			"s.ts":      "import { allow } from \"hookctl/decision\";\ninterface X { a: string }\nexport default function (event: StopEvent) {\n  if (event.loop_count > 1 && event.stop_hook_actve) return;\n}\n"},
			[]string{`s.ts:4:37 `, `event.stop_hook_actve: Stop's payload has no field "stop_hook_actve"; did you mean "stop_hook_active"?`}},
		{"constant", map[string]string{"hooks.hcl": "hook \"h\" {\n  event   = \"PreToolUse\"\n  matcher = \"Bash\"\n  js      = <<-JS\n    const input = event.tool_input;\n    if (input.command === \"\" || input.comand) return;\n  JS\n}\n"},
			[]string{`hooks.hcl:6:39 HK1409 event.tool_input.comand: Bash has no field "comand"; did you mean "command"?`}},
		{"destructuring", map[string]string{"hooks.hcl": "hook \"h\" {\n  event   = \"PreToolUse\"\n  matcher = \"Bash\"\n  js      = <<-JS\n    const { comand, description } = event.tool_input;\n  JS\n}\n"},
			[]string{`hooks.hcl:5:13 HK1409 event.tool_input.comand: Bash has no field "comand"; did you mean "command"?`}},
		{"shadowed constant", map[string]string{"hooks.hcl": "hook \"h\" {\n  event   = \"PreToolUse\"\n  matcher = \"Bash\"\n  js      = <<-JS\n    const input = event.tool_input;\n    let k = \"a\"; const dyn = event.tool_input[k];\n    const f = (input) => input.comand + dyn.comand;\n    let { command } = event.tool_input;\n    if (event.tool_input.hasOwnProperty(\"command\") || event.toString() || input.constructor) return;\n  JS\n}\n"},
			nil},
		{"correct and shadowed", map[string]string{
			"hooks.hcl": "hook \"h\" {\n  event   = \"PostToolUse\"\n  matcher = \"Bash\"\n  js      = <<-JS\n    const x = event.tool_input.command + event.tool_response.stdout + event.tool + event.duration_ms;\n    [1].map((event) => event.comand);\n    const k = \"x\"; const y = event.tool_input[k];\n    function helper(p) { return p.comand; }\n  JS\n}\n"},
			nil},
		{"nested destructuring", map[string]string{"hooks.hcl": bashBody("const { tool_input: { comand } } = event;\n    if (comand) return { decision: \"deny\" };")},
			[]string{`event.tool_input.comand: Bash has no field "comand"`}},
		{"renamed destructuring", map[string]string{"hooks.hcl": writeBody("const { tool_input: ti = {} } = event;\n    if (ti.file_pth) return;")},
			[]string{`hooks.hcl:7:12 HK1409 event.tool_input.file_pth: Write has no field "file_pth"`}},
		{"var alias", map[string]string{"hooks.hcl": bashBody("var ti = event.tool_input;\n    let t2 = event.tool_input;\n    if (ti.comand || t2.command) return;")},
			[]string{`hooks.hcl:8:12 HK1409 event.tool_input.comand`}},
		{"reassigned let", map[string]string{"hooks.hcl": bashBody("let ti = event.tool_input;\n    ti = {};\n    var t2 = event.tool_input; t2++;\n    if (ti.comand || t2.comand) return;")},
			nil},
		{"esm default arrow", map[string]string{
			"hooks.hcl": "hook \"h\" {\n  event   = \"PreToolUse\"\n  matcher = \"Bash\"\n  script  = \"s3.mjs\"\n}\n",
			"s3.mjs":    "export default (e) => {\n  if (e.tool_input.comand) return { decision: \"deny\" };\n};\n"},
			[]string{`s3.mjs:2:20 HK1409 event.tool_input.comand`}},
		{"ts default function", map[string]string{
			"hooks.hcl": "hook \"h\" {\n  event   = \"PreToolUse\"\n  matcher = \"Bash\"\n  script  = \"s2.ts\"\n}\n",
			"s2.ts":     "export default function (e: PreToolUseEvent) {\n  const x = (e.tool_input as any).comand;\n}\nexport function helper(x: any) { return x.tool_input.nope; }\n"},
			[]string{`event.tool_input.comand: Bash has no field "comand"`}},
		{"module.exports by name", map[string]string{
			"hooks.hcl": "hook \"h\" {\n  event   = \"PreToolUse\"\n  matcher = \"Bash\"\n  script  = \"s5.js\"\n}\n",
			"s5.js":     "function helper(x) { return x.tool_input.nope; }\nexports.helper = helper;\nconst f = function event() { return event.tool_input; };\nfunction handler(ev) {\n  if (ev.tool_input.comand) return { decision: \"deny\" };\n}\nmodule.exports = handler;\n"},
			[]string{`s5.js:5:21 HK1409 event.tool_input.comand`}},
		{"shadowing event", map[string]string{"hooks.hcl": bashBody(`for (const event of [{ tool_input: { foo: 1 } }]) { if (event.tool_input.foo) {} }
    { const event = { tool_input: { bar: 1 } }; if (event.tool_input.bar) {} }
    const f = ({ event }) => event.tool_input.baz;
    class K { m(event) { return event.tool_input.qux; } }
    const o = { m(event) { return event.tool_input.quux; } };
    try { x(); } catch (event) { event.tool_input.corge; }
    switch (1) { case 1: let event = {}; event.tool_input.grault; }
    const g = (...event) => event.tool_input.garply;
    function h() { var event = {}; return event.tool_input.waldo; }
    for (const event of []) { [1].map((event) => event.tool_input.fred); }
    const fe = function event() { return event.tool_input.plugh; };
    return {};`)},
			nil},
		{"event after shadowing", map[string]string{"hooks.hcl": bashBody("{ const event = {}; }\n    for (const event of []) {}\n    return event.tool_input.comand;")},
			[]string{`hooks.hcl:8:29 HK1409 event.tool_input.comand`}},
		{"syntax error", map[string]string{"hooks.hcl": "hook \"h\" {\n  event   = \"PreToolUse\"\n  matcher = \"Bash\"\n  script  = \"s.js\"\n}\n", "s.js": "module.exports = function (event) { event.tool_input.comand"},
			nil},
	} {
		var got []string
		for _, w := range check(t, c.files) {
			if strings.Contains(w, " HK1409 ") || strings.Contains(w, " HK1209 ") {
				got = append(got, w)
			}
		}
		if c.want == nil {
			if len(got) != 0 {
				t.Errorf("%s: %q", c.name, got)
			}
			continue
		}
		if len(got) != 1 {
			t.Errorf("%s: %q, want one warning", c.name, got)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(got[0], w) {
				t.Errorf("%s: %q does not contain %q", c.name, got[0], w)
			}
		}
	}
}

func bashBody(js string) string {
	return "hook \"h\" {\n  event   = \"PreToolUse\"\n  matcher = \"Bash\"\n  on_error = \"block\"\n  js      = <<-JS\n    " + js + "\n  JS\n}\n"
}

func writeBody(js string) string {
	return strings.Replace(bashBody(js), `"Bash"`, `"Write"`, 1)
}

// FuzzPayloadPaths: no condition or script source makes the path
// extraction or the schema check panic or hang.
func FuzzPayloadPaths(f *testing.F) {
	f.Add("tool_input.comand matches 'rm' and tool_input[\"x\"][0]?.y", "module.exports = function (e) { return e.tool_input?.comand; }", false)
	f.Add("let x = tool_input; x.a or $env.tool_calls[1].tool_nme", "export default (event: any) => event[\"tool_input\"][k].comand", true)
	f.Add("any(tool_input.edits, {.old_sting == ''})", "function f(event) { return (event) => event.a.b.c; }", false)
	f.Add("let t = t; let u = get(t, 'a'); any(u.edits, any(#.b, #.c == get(#, 0)))", "const { tool_input: { a: { b = 1 } = {} }, ...r } = event; for (const event of r) { let x = event.y; }", false)
	f.Add("tool_input.edits | map(.x) | filter(#.y) | reduce(#acc + #.z, 0)", "export default function handler(e) { var { t: [a, { b }] } = e; try {} catch ({ event }) {} }", true)
	f.Fuzz(func(t *testing.T, cond, js string, ts bool) {
		r := hcl.Range{Filename: "hooks.hcl"}
		r.Start.Line, r.Start.Column, r.End.Line = 1, 1, 1
		r.End.Column = len(cond) + 3
		paths := conditionPaths(cond, r, nil)
		paths = append(paths, jsPaths(js, "s.js", ts, true, nil)...)
		paths = append(paths, jsPaths("(async function (event, ctx) {"+js+"\n})", "hooks.hcl", ts, false, func(l, c int) (int, int) { return l, c })...)
		for _, p := range paths {
			for _, ev := range []string{"PreToolUse", "PostToolBatch", "Stop"} {
				_, _ = schema.Resolve(ev, []string{"Bash", "mcp__x"}, p.elems)
			}
			if p.at != nil {
				for i := range p.elems {
					p.at(i)
				}
			}
		}
	})
}
