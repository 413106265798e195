package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/runtime"
)

// Shell completion (hookctl completion bash|zsh|fish|powershell): event
// names where a command takes an event, host names where it takes a host,
// and the fixed values of a few flags. Suggestions carry a description
// after a tab, which zsh and fish show.

// completeEvents suggests the catalog's event names and the custom events
// of the configuration --config names (or the one discovered), with their
// descriptions. A configuration that cannot be found or parsed adds
// nothing: completion never prints its errors.
func (a *app) completeEvents(toComplete string) []cobra.Completion {
	var out []cobra.Completion
	add := func(spec engine.EventSpec) {
		if strings.HasPrefix(spec.Name, toComplete) {
			out = append(out, cobra.CompletionWithDesc(spec.Name, spec.Description))
		}
	}
	for _, spec := range engine.BuiltinEvents() {
		add(spec)
	}
	if path, err := runtime.Discover(a.configPath, "", os.Getenv); err == nil {
		if cfg, err := hcl.Parse(path); err == nil {
			for _, spec := range cfg.Events {
				add(spec)
			}
		}
	}
	return out
}

// eventArg completes the one EVENT argument of fire and bench.
func (a *app) eventArg(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return a.completeEvents(toComplete), cobra.ShellCompDirectiveNoFileComp
}

// eventFlag completes a flag whose value is an event (list --event).
func (a *app) eventFlag(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return a.completeEvents(toComplete), cobra.ShellCompDirectiveNoFileComp
}

// completeHosts suggests the names of the hosts' registry.
func (a *app) completeHosts(toComplete string) []cobra.Completion {
	var out []cobra.Completion
	for _, name := range a.registry().Names() {
		if strings.HasPrefix(name, toComplete) {
			out = append(out, name)
		}
	}
	return out
}

// hostFlag completes --host (install, import, doctor, hook).
func (a *app) hostFlag(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return a.completeHosts(toComplete), cobra.ShellCompDirectiveNoFileComp
}

// fixed completes a flag with one of a fixed set of values.
func fixed(values ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for _, v := range values {
			if strings.HasPrefix(v, toComplete) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
