package main

import (
	"io"
	"math/rand/v2"
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

// TestDaemonParserAgreesWithCobra: on argument vectors made of the hook
// commands' flags in every spelling (and things that are not flags), the
// client's parser takes exactly what hookctl's own flag parser takes
// (no --help, no argument), with the same values; what it leaves to
// hookctl itself, hookctl refuses or answers otherwise (--help).
func TestDaemonParserAgreesWithCobra(t *testing.T) {
	tokens := []string{"--config", "-c", "-c=", "-cx", "-c=x", "--config=", "--config=y", "x", "--host", "crush",
		"--host=", "--event", "E", "--allow-untrusted", "--allow-untrusted=false", "--allow-untrusted=1",
		"--allow-untrusted=maybe", "--on-ask", "allow", "--on-ask=", "--log-level", "debug", "--", "-", "-h",
		"--help", "--bogus", "-x", "--on-untrusted=warn", "--on-config-error", "--hos", "=", "-ch", "--log-level=", "--host-timeout", "2s",
		"--host-timeout=", "--host-timeout=90s"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		name := []string{"claude", "hook"}[rng.IntN(2)]
		args := []string{name}
		for range rng.IntN(6) {
			args = append(args, tokens[rng.IntN(len(tokens))])
		}
		got, ok := daemon.ParseArgs(args)
		root := newRoot(&app{stdout: io.Discard, stderr: io.Discard})
		cmd, _, _ := root.Find([]string{name})
		cmd.InitDefaultHelpFlag()
		err := cmd.ParseFlags(args[1:])
		fl := cmd.Flags()
		help, _ := fl.GetBool("help")
		takes := err == nil && !help && len(fl.Args()) == 0 && fl.ArgsLenAtDash() < 0
		emptyMode := false
		for _, m := range []string{"on-ask", "on-untrusted", "on-config-error"} {
			if v, _ := fl.GetString(m); fl.Changed(m) && v == "" {
				emptyMode = true
			}
		}
		if ok != (takes && !emptyMode) {
			t.Fatalf("%q: ParseArgs ok=%v; hookctl's parser: err=%v help=%v args=%q", args, ok, err, help, fl.Args())
		}
		if !ok {
			continue
		}
		given := func(f string) string {
			if !fl.Changed(f) {
				return ""
			}
			v, _ := fl.GetString(f)
			return v
		}
		want := daemon.Hook{Command: name, Config: given("config"), LogLevel: given("log-level"),
			OnUntrusted: given("on-untrusted"), OnConfigError: given("on-config-error"), OnAsk: given("on-ask"),
			HostTimeout: given("host-timeout")}
		want.AllowUntrusted, _ = fl.GetBool("allow-untrusted")
		if name == "hook" {
			want.Host, want.Event = given("host"), given("event")
		}
		if got != want {
			t.Fatalf("%q: ParseArgs %+v, hookctl's parser %+v", args, got, want)
		}
	}
}
