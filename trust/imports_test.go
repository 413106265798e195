package trust

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestPinsFollowImports: TypeScript and ES module scripts load what their
// import and export ... from statements and literal import() calls name,
// and "./lib.js" or "./lib" is lib.ts when that is the file there; all of
// it is pinned, the TypeScript files a missing name could load included
// (pinned absent).
func TestPinsFollowImports(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hooks.hcl": `
hook "ts" {
  event  = "PreToolUse"
  script = "hooks/check.ts"
}
hook "esm" {
  event  = "PreToolUse"
  script = "hooks/esm.mjs"
}
`,
		"hooks/check.ts": `import { rules, type Rule } from "./rules.js";
import "./side";
export { helper } from "./helper";
export default async function (event: unknown) { return (await import("./lazy.ts")).f(rules); }`,
		"hooks/rules.ts":     `export const rules: string[] = [];`,
		"hooks/side.ts":      ``,
		"hooks/helper.js":    `export const helper = 1;`,
		"hooks/lazy.ts":      `import x from "./deeper/x.mjs"; export const f = () => x;`,
		"hooks/deeper/x.mts": `export default 1;`,
		"hooks/esm.mjs":      `import lib from "./lib/index.js"; export default () => lib;`,
		"hooks/lib/index.ts": `export default {};`,
		"hooks/unused.ts":    `import "./nothing";`,
	})
	p, files := pins(t, filepath.Join(dir, "hooks.hcl"))
	if p.Walk {
		t.Fatalf("walk: %v", p.Why)
	}
	want := []string{"hooks.hcl", "hooks/check.ts", "hooks/deeper/x.mts", "hooks/esm.mjs", "hooks/helper.js",
		"hooks/lazy.ts", "hooks/lib/index.ts", "hooks/rules.ts", "hooks/side.ts"}
	if got := present(files); !slices.Equal(got, want) {
		t.Fatalf("pinned\n%v\nwant\n%v", got, want)
	}
	for _, absent := range []string{"hooks/rules.js", "hooks/side.js", "hooks/helper.ts", "hooks/lib/index.js"} {
		if files[absent] != Absent {
			t.Errorf("%s: %q, want it pinned absent", absent, files[absent])
		}
	}
}

// TestImportWithAComputedNameWalks: import(name) could load any file.
func TestImportWithAComputedNameWalks(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hooks.hcl": `
hook "ts" {
  event  = "PreToolUse"
  script = "check.ts"
}
`,
		"check.ts": `export default async (event: any) => (await import("./rules/" + event.tool_name)).default;`,
	})
	p, _ := pins(t, filepath.Join(dir, "hooks.hcl"))
	if !p.Walk || !slices.Contains(p.Why, "import() with a computed name in check.ts") {
		t.Fatalf("walk %v: %v", p.Walk, p.Why)
	}
}
