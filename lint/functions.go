package lint

import "github.com/hookctl/hookctl/hcl"

// lintFunctions warns about a function block no hook's condition calls:
// often a misspelt declaration (the call of the right name then fails to
// compile too) or one left behind.
func lintFunctions(cfg *hcl.Config, warn func(hcl.Range, string, string, ...any)) {
	for _, fb := range cfg.Functions {
		called := false
		for _, hb := range cfg.Hooks {
			if c := hb.Hook.Condition; c != nil && c.Calls(fb.Name) {
				called = true
				break
			}
		}
		if !called {
			warn(fb.Range, "Unused function", "No hook's `when` calls %s: the declaration checks nothing.", fb.Name)
		}
	}
}
