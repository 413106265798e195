package lint

import (
	"regexp"
	"slices"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
)

// failOpen warns about each hook that can block an event but whose
// failure (an error, a timeout, a panic, a `when` that cannot be
// evaluated) is ignored: its on_error resolves to "ignore", so when it
// fails the other hooks decide and the action it guards goes ahead.
//
// on_error resolves as the engine applies it (Engine.failed): "block"
// fails closed; "ignore" fails open; unset or "retry" (after its tries)
// follow the event, which fails closed only where the catalog says so
// (FailClosed: PreModelSwitch, OpenClaw's gates); a hook settings.required
// lists fails closed whatever it says (assemble.checkRequired).
//
// A hook can block when it is on the chain (not observe, background or
// disabled) of an event that takes a blocking decision, and either runs
// code (js, ts, script, command, http, prompt, agent: what it returns is
// not known before it runs) or is declarative with a blocking result and
// a `when`, the one part of it that can fail. A hook that writes
// on_error = "ignore" has said it fails open and is not warned about.
// Built-in hooks are left to their own package.
func failOpen(cfg *hcl.Config, eng *engine.Engine) []hcl.Diagnostic {
	var diags []hcl.Diagnostic
	for _, hb := range cfg.Hooks {
		h := hb.Hook
		if hb.Invalid || h.Disabled || h.Observe || h.Background {
			continue
		}
		if slices.Contains(cfg.Settings.Required, h.ID) {
			continue
		}
		switch h.OnError.Policy {
		case engine.ErrorBlock, engine.ErrorIgnore:
			continue // fails closed, or said to fail open
		}
		if !canFailBlocking(cfg, hb) {
			continue
		}
		for _, spec := range hookEvents(eng, h) {
			if spec.FailClosed || spec.BlockDecision() == "" {
				continue
			}
			if res, static := engine.StaticResult(h.Handler); static && !blocks(spec, res) {
				continue
			}
			r := hb.Range
			how := "on_error is not set"
			if or, ok := hb.Ranges["on_error"]; ok {
				r, how = or, `on_error = "retry" follows the event once its tries are spent`
			}
			d := hcl.NewDiagnostic(hcl.SeverityWarning, r, "Guard fails open", hcl.Detailf(
				"Hook %q can %s %s, but if it fails (an error, a timeout, a panic, a condition that cannot be evaluated) the failure is ignored and the action goes ahead: %s, and %s fails open. "+
					"To fail closed, set on_error = \"block\" in the hook (a failure then counts as %q), or list it in settings { required = [%q] }; "+
					"to keep failing open on purpose, write on_error = \"ignore\".",
				h.ID, spec.BlockDecision(), spec.Name, how, spec.Name, spec.BlockDecision(), h.ID))
			d.Suggestion = `on_error = "block"`
			diags = append(diags, d)
			break // one warning per hook
		}
	}
	return diags
}

// canFailBlocking reports whether a hook may both fail and block: code
// may do either, unless it is an inline js or ts body that names no way
// to block (mayBlock); a declarative hook fails only in its condition.
// A body that throws (or rejects) on purpose is a guard: a throw is its
// author's "no", which on_error = "ignore" turns into a yes.
func canFailBlocking(cfg *hcl.Config, hb *hcl.HookBlock) bool {
	if _, static := engine.StaticResult(hb.Hook.Handler); static || hb.Kind == "declarative" {
		_, hasWhen := hb.Ranges["when"]
		return hasWhen
	}
	for _, attr := range []string{"js", "ts"} {
		if r, ok := hb.Ranges[attr]; ok {
			src := cfg.Source(r.Filename)
			if r.Start.Byte < 0 || r.End.Byte > len(src) || r.Start.Byte > r.End.Byte {
				return true
			}
			return mayBlock.Match(src[r.Start.Byte:r.End.Byte])
		}
	}
	return true
}

// mayBlock matches the text of a js or ts body that may block: one that
// may return a blocking result (hookctl/decision's deny, block, blockStop
// and stop, a decision, outcome or continue key, cancel, or a module of
// its own, by a relative require or import, that could return any of
// them) or that fails on purpose (throw, a rejected promise: the
// JavaScript twin of a command's exit 2). A body that matches none (one
// that only allows, adds context or writes the kv store) cannot block,
// and its failure, whatever it is, changes no outcome. Words in comments
// and strings count: the check errs towards warning.
var mayBlock = regexp.MustCompile(`\b(deny|block|blockStop|cancel|throw)\b|\bstop\s*\(|\breject\s*\(|\b(decision|outcome|continue)["']?\s*[:=]|\brequire\s*\(\s*["'][./]|\bfrom\s*["'][./]`)

// blocks reports whether a declarative result blocks the event: its
// decision is the event's blocking one, it stops the agent (continue =
// false), or it sets a blocking field (block, cancel).
func blocks(spec engine.EventSpec, res engine.Result) bool {
	field := "decision"
	if spec.DecisionField != "" {
		field = spec.DecisionField
	}
	for _, f := range []string{field, "decision"} {
		if d, ok := res[f].(string); ok && (d == "deny" || d == "block" || d == "cancel") {
			return true
		}
	}
	if c, ok := res["continue"].(bool); ok && !c {
		return true
	}
	for _, f := range []string{"block", "cancel"} {
		if b, ok := res[f].(bool); ok && b {
			return true
		}
	}
	return false
}
