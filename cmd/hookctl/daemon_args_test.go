package main

import (
	"io"
	"testing"

	"github.com/spf13/pflag"

	"github.com/hookctl/hookctl/internal/daemon"
)

// TestDaemonParserKnowsEveryHookFlag: every flag of hookctl claude and
// hookctl hook (their own and the persistent ones) is one the client's
// parser reads into the daemon's request, so that no flag is dropped on
// the way to the daemon; --help is left to hookctl itself.
func TestDaemonParserKnowsEveryHookFlag(t *testing.T) {
	root := newRoot(&app{stdin: nil, stdout: io.Discard, stderr: io.Discard})
	for _, name := range []string{"claude", "hook"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil || cmd.Name() != name {
			t.Fatalf("no command %s: %v", name, err)
		}
		cmd.InitDefaultHelpFlag()
		bare, ok := daemon.ParseArgs([]string{name})
		if !ok {
			t.Fatalf("ParseArgs(%s) refused", name)
		}
		seen := 0
		check := func(f *pflag.Flag) {
			seen++
			forms := [][]string{{"--" + f.Name}}
			if f.Value.Type() != "bool" {
				forms = [][]string{{"--" + f.Name, "x"}, {"--" + f.Name + "=x"}}
				if f.Shorthand != "" {
					forms = append(forms, []string{"-" + f.Shorthand, "x"}, []string{"-" + f.Shorthand + "x"})
				}
			}
			for _, form := range forms {
				args := append([]string{name}, form...)
				got, ok := daemon.ParseArgs(args)
				switch {
				case f.Name == "help":
					if ok {
						t.Errorf("ParseArgs(%q) took --help, which hookctl itself answers", args)
					}
				case !ok:
					t.Errorf("hookctl %s has the flag --%s, which daemon.ParseArgs does not know (%q)", name, f.Name, args)
				case got == bare:
					t.Errorf("ParseArgs(%q) dropped the flag --%s", args, f.Name)
				}
			}
		}
		cmd.LocalFlags().VisitAll(check)
		cmd.InheritedFlags().VisitAll(check)
		if seen < 6 {
			t.Fatalf("hookctl %s: only %d flags walked", name, seen)
		}
	}
}
