// Package lint finds the traps in a decoded configuration that load but do
// not do what their author meant, as warnings with file:line:column:
// matchers and `when` regexes that can never match (a^b, $x, [^\s\S]),
// and matchers that differ from a Claude Code tool or matcher value only
// by case (bash for Bash: matchers are case-sensitive). The decoder's own
// warnings (a matcher on an event without a matcher field, permission-rule
// syntax in a matcher) come with the configuration. `hookctl validate`
// prints both. Check is safe for concurrent use.
package lint
