// Package fastpath names the optimisations of the engine and of the
// condition language that have a plain path beside them giving the same
// outcome. Each can be turned off (engine and conditions take a Set of
// those to turn off, through options only the module's tests use), so that
// differential tests run the same configuration and payload both ways and
// compare.
package fastpath

// Set is a set of optimisations (those turned off, where an option takes
// one). The zero Set is none.
type Set uint16

const (
	// CondClosures runs conditions as trees of Go closures instead of on
	// the expr virtual machine (conditions/fast.go). Off, every condition
	// runs on the virtual machine, and the ones below do not apply.
	CondClosures Set = 1 << iota
	// CondFieldCache reads a field path a condition names twice once per
	// evaluation.
	CondFieldCache
	// CondLiterals answers `matches` with a literal pattern (plain,
	// anchored at the start or the end) with a string function.
	CondLiterals
	// CondPrefilter rules a regex out by the literals every match holds.
	CondPrefilter
	// CondSharedAtoms remembers the result of a sub-condition several
	// conditions share, for the payload in hand (Evaluator.Within).
	CondSharedAtoms
	// CondCompileCache makes a condition compiled twice the same Program.
	CondCompileCache
	// EngineCondMemo remembers a whole condition's result within a fire,
	// for the hooks that repeat it on the same payload.
	EngineCondMemo
	// EngineStatic merges a declarative hook's result prepared at
	// registration instead of calling its handler.
	EngineStatic
	// EngineToolSkip adds the canonical tool field to the payload only when
	// a hook may read it.
	EngineToolSkip
	// EngineEntrant runs a fire inside the Entrant its hooks share.
	EngineEntrant
	// EngineNoHooks answers an event without hooks without a fire.
	EngineNoHooks
	// EngineConstant merges a result a handler returns again and again
	// (a script's constant return: Call.Constant) as read once, instead
	// of reading it on every call.
	EngineConstant

	// All is every optimisation.
	All Set = 1<<iota - 1
)

// Has reports whether s holds every one of x.
func (s Set) Has(x Set) bool { return s&x == x }
