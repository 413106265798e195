// Package relit finds the literal strings every match of a regular
// expression contains, so that a string missing one of them is ruled out
// without running the regular expression: the prefilter RE2, Hyperscan and
// ripgrep use. Hook conditions and scripts test a handful of patterns
// against a command line, and most of the time nothing matches; ruling
// those out costs a substring search.
package relit
