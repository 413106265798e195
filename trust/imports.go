package trust

import (
	"regexp"
	"strings"
	"sync"
)

// ES module and TypeScript files load modules with import and export
// ... from, which the runtime turns into require() calls (package script):
// they pin what they name as require() does.

var (
	// importFromRE matches the module name of `import ... from "x"`,
	// `export ... from "x"` and `import "x"` (TypeScript's `import x =
	// require("x")` is a require call).
	importFromRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\bimport\s*["']([^"'\n]+)["']|\b(?:import|export)\b[^;'"` + "`" + `]*?\bfrom\s*["']([^"'\n]+)["'])`)
	})
	// dynamicImportRE is a dynamic import(); dynamicImportLiteralRE one
	// with a literal name.
	dynamicImportRE        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bimport\s*\(`) })
	dynamicImportLiteralRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bimport\s*\(\s*(?:"([^"\n]*)"|'([^'\n]*)')\s*\)`)
	})
)

// imports returns the module names src's import and export statements
// and dynamic import() calls name, and whether a dynamic import has a
// name that is not a literal.
func imports(src string) (names []string, computed bool) {
	for _, m := range importFromRE().FindAllStringSubmatch(src, -1) {
		names = append(names, m[1]+m[2])
	}
	lits := dynamicImportLiteralRE().FindAllStringSubmatch(src, -1)
	for _, m := range lits {
		names = append(names, m[1]+m[2])
	}
	return names, len(dynamicImportRE().FindAllStringIndex(src, -1)) > len(lits)
}

// tsFiles returns the TypeScript files the runtime loads for the module
// file f when f itself does not exist: lib.ts for "./lib.js" or
// "./lib" (and .mts, .cts for .mjs, .cjs).
func tsFiles(f string) []string {
	switch {
	case strings.HasSuffix(f, ".js"):
		return []string{strings.TrimSuffix(f, ".js") + ".ts"}
	case strings.HasSuffix(f, ".mjs"):
		return []string{strings.TrimSuffix(f, ".mjs") + ".mts"}
	case strings.HasSuffix(f, ".cjs"):
		return []string{strings.TrimSuffix(f, ".cjs") + ".cts"}
	}
	return nil
}
