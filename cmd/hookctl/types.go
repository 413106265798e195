package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/stdlib"
)

func newTypesCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "types",
		Short: "Print the TypeScript declarations of hook scripts (hookctl.d.ts): every event's payload and result, ctx, the standard library",
		Long: `Print hookctl.d.ts, the TypeScript declarations of hook scripts, for editors:

  hookctl types > hooks/hookctl.d.ts

then /// <reference path="./hookctl.d.ts" /> in a .ts or .js hook, or list it
in tsconfig.json ("lib": ["es2020"]), and type a handler by its event:

  export default ((event, ctx) => { ... }) satisfies Handler<"PreToolUse">;`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := io.WriteString(a.stdout, stdlib.TypeDeclarations())
			return err
		},
	}
}
