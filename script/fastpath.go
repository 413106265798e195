package script

// fastPath names an optimisation that has a plain path beside it giving
// the same outcome. Each can be turned off for a pool, so that the
// differential tests (differential_test.go) run every hostile hook both
// ways and compare.
type fastPath uint8

const (
	// fastReturns rewrites returned object literals into calls of the
	// result helper, and constant ones into tokens (results.go).
	fastReturns fastPath = 1 << iota
	// fastConsts is the constant returns alone.
	fastConsts
	// fastPrefilter answers RegExp.prototype.test itself (prefilter.go).
	fastPrefilter
	// fastLiterals makes a regex literal that is only the receiver of a
	// test call once per program load (package internal/jsrewrite).
	fastLiterals
)

// withoutFastPaths turns the fast paths off off.
func withoutFastPaths(off fastPath) Option {
	return func(p *Pool) { p.off |= off }
}
