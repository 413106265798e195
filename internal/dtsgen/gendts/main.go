// Command gendts rewrites the events section of a TypeScript declaration
// file from hookctl's event catalog (package dtsgen):
//
//	go run ./internal/dtsgen/gendts stdlib/hookctl.d.ts
package main

import (
	"fmt"
	"os"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/dtsgen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gendts FILE.d.ts")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gendts:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := dtsgen.Splice(string(b), dtsgen.Render(engine.BuiltinEvents()))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if out == string(b) {
		return nil
	}
	return os.WriteFile(path, []byte(out), 0o644)
}
