package assemble_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/script"
)

// TestTypeScriptHooks: a ts body and a .ts script file build and run;
// errors in them are diagnostics at the author's file, line and column.
func TestTypeScriptHooks(t *testing.T) {
	path := writeConfig(t, map[string]string{
		"hooks.hcl": `hook "inline" {
  event = "PreToolUse"
  ts    = <<-TS
    const cmd: string = event.tool_input.command ?? "";
    if (cmd.startsWith("rm ")) return { decision: "deny", reason: "inline ts" };
  TS
}
hook "file" {
  event  = "PreToolUse"
  script = "check.ts"
}
`,
		"check.ts": `import { ask } from "hookctl/decision";
export default (event: { tool_input: { command?: string } }) => (event.tool_input.command === "make" ? ask("file ts") : undefined);
`,
	})
	e := newEngine(t)
	loadInto(t, e, path)
	rm := fire(t, e, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}})
	mk := fire(t, e, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "make"}})
	if rm.Reason != "inline ts" || mk.Reason != "file ts" {
		t.Fatalf("%q %q", rm.Reason, mk.Reason)
	}

	bad := writeConfig(t, map[string]string{
		"hooks.hcl": `hook "inline" {
  event = "PreToolUse"
  ts    = <<-TS
    const n: number = ;
  TS
}
hook "file" {
  event  = "PreToolUse"
  script = "bad.ts"
}
`,
		"bad.ts": "export default function (event: any) {\n  let x: = 1;\n}\n",
	})
	_, err := assemble.Load(bad, assemble.WithEngine(newEngine(t)))
	var d *hcl.Diagnostics
	if !errors.As(err, &d) {
		t.Fatalf("%v", err)
	}
	var got []string
	for _, x := range d.Errors() {
		got = append(got, x.At()+" "+x.Summary+": "+x.Detail)
	}
	want := []string{
		filepath.Base(bad) + `:4:23 TypeScript syntax error: Unexpected ";"`,
		filepath.Base(bad) + `:9:12 TypeScript syntax error: bad.ts:2:10: Unexpected "="`,
	}
	for i := range got {
		got[i] = strings.Replace(got[i], filepath.Dir(bad)+string(filepath.Separator), "", 1)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestReloadReusesTransforms: a watcher's reloads share one transform
// cache, so a .ts file that did not change is not transformed again.
func TestReloadReusesTransforms(t *testing.T) {
	path := writeConfig(t, map[string]string{
		"hooks.hcl": `hook "file" {
  event  = "PreToolUse"
  script = "check.ts"
}
`,
		"check.ts": `export default (event: unknown) => ({ reason: "ts" });
`,
	})
	cache := script.NewTransformCache(0, 0)
	w, err := assemble.Watch(newEngine(t), path, assemble.WithLoadOptions(assemble.WithScriptOptions(script.WithTransformCache(cache))))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		w.Close()
		w.Config().Close()
	}()
	first := cache.Stats()
	if first.Misses != 1 {
		t.Fatalf("first load: %+v", first)
	}
	if err := os.WriteFile(path, []byte("# reloaded\n"+mustRead(t, path)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := w.Reload(); err != nil {
		t.Fatal(err)
	}
	if s := cache.Stats(); s.Misses != first.Misses || s.Hits <= first.Hits {
		t.Fatalf("the reload transformed check.ts again: %+v after %+v", s, first)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
