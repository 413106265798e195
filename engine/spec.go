package engine

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Strategy is how the hooks of one event run.
type Strategy uint8

const (
	// Modifying hooks run one after another, highest priority first; each
	// sees the payload as changed by the hooks before it and their results
	// merge field by field.
	Modifying Strategy = iota + 1
	// Void hooks only observe: they run in parallel, bounded by the
	// engine's worker pool, and their results are not merged.
	Void
	// Sync hooks run like modifying hooks, inline on the caller's goroutine
	// with no pool and no per-hook timer, for hot paths.
	Sync
)

var strategyNames = map[Strategy]string{Modifying: "modifying", Void: "void", Sync: "sync"}

// String returns the strategy's HCL name.
func (s Strategy) String() string {
	if n, ok := strategyNames[s]; ok {
		return n
	}
	return fmt.Sprintf("Strategy(%d)", uint8(s))
}

// ParseStrategy turns "modifying", "void" or "sync" into a Strategy.
func ParseStrategy(s string) (Strategy, error) {
	for k, v := range strategyNames {
		if v == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown strategy %q (want modifying, void or sync)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (s Strategy) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// MergeRule says how the values one result field takes in several hooks
// combine into the outcome.
type MergeRule uint8

const (
	// MergeLast keeps the last defined value: a lower priority hook may
	// override a higher one. It is the rule for fields the catalog does
	// not name.
	MergeLast MergeRule = iota
	// MergeRestrictive keeps the most restrictive value of an ordered
	// precedence list (FieldRule.Order, most restrictive first).
	MergeRestrictive
	// MergeSticky keeps FieldRule.Value (true unless set) once any hook
	// returned it; with Terminal it stops the chain.
	MergeSticky
	// MergeFirst keeps the first defined value in priority order.
	MergeFirst
	// MergeConcat joins strings with a blank line; empty strings are
	// ignored and never erase what came before.
	MergeConcat
	// MergeChain replaces the payload field FieldRule.Target for the next
	// hook; the outcome keeps the last value.
	MergeChain
	// MergeMerge merges maps shallowly, later keys winning.
	MergeMerge
	// MergeAppend concatenates lists.
	MergeAppend
	// MergeIntersect keeps the items every list has; "*" is the identity
	// and a value that is not a list of strings denies everything.
	MergeIntersect
	// MergeUnion keeps every distinct item, in first-seen order.
	MergeUnion
	// MergeIgnore drops the field: the event does not honour it (Claude
	// Code ignores continue on TaskCreated, context on PreModelSwitch).
	MergeIgnore
)

var mergeRuleNames = [...]string{
	MergeLast: "last", MergeRestrictive: "restrictive", MergeSticky: "sticky",
	MergeFirst: "first", MergeConcat: "concat", MergeChain: "chain",
	MergeMerge: "merge", MergeAppend: "append", MergeIntersect: "intersect",
	MergeUnion: "union", MergeIgnore: "ignore",
}

// String returns the rule's HCL name.
func (r MergeRule) String() string {
	if int(r) < len(mergeRuleNames) {
		return mergeRuleNames[r]
	}
	return fmt.Sprintf("MergeRule(%d)", uint8(r))
}

// MarshalText implements encoding.TextMarshaler.
func (r MergeRule) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// ParseMergeRule turns a rule name ("last", "concat", ...) into a MergeRule.
func ParseMergeRule(s string) (MergeRule, error) {
	for i, n := range mergeRuleNames {
		if n == s {
			return MergeRule(i), nil
		}
	}
	return 0, fmt.Errorf("unknown merge rule %q (want one of %s)", s, strings.Join(mergeRuleNames[:], ", "))
}

// FieldRule is the merge rule of one result field.
type FieldRule struct {
	Rule MergeRule
	// Order lists the values of a restrictive field, most restrictive first.
	Order []string
	// Value is the sticky value of a sticky field (true when nil).
	Value any
	// Terminal stops the modifying chain when a sticky field takes its
	// sticky value, or when a restrictive field takes a terminal decision
	// (deny, block or cancel).
	Terminal bool
	// Blocks makes that terminal state count as blocked in the outcome.
	Blocks bool
	// Target is the payload field a chain field replaces.
	Target string
	// FreezeAfter names a field that, once merged, freezes this one:
	// OpenClaw freezes before_tool_call params once a hook asked for
	// approval, so what the operator reviews cannot change.
	FreezeAfter string
	// Input marks the field that is the event's rewritten input in
	// another vocabulary (OpenClaw's params on before_tool_call): when no
	// hook set updated_input, the outcome's UpdatedInput is this field.
	Input bool
	// Ask marks a field whose presence asks the user (OpenClaw's
	// requireApproval): the outcome's decision becomes ask unless a more
	// restrictive one was merged.
	Ask bool
}

// MatcherMode selects the matcher syntax of an event.
type MatcherMode uint8

const (
	// MatcherClaude is Claude Code's usual syntax: a string of letters,
	// digits, '_', ' ', '-', ',' and '|' is a list of exact names; anything
	// else is an unanchored regular expression.
	MatcherClaude MatcherMode = iota
	// MatcherNarrow is the narrower exact set of StopFailure: only
	// letters, digits, '_' and '|' make a list of names ('|' separates).
	MatcherNarrow
	// MatcherLiteral is FileChanged's: always literal names split on '|',
	// never a regular expression.
	MatcherLiteral
)

// terminalDecisions are the values that stop a chain (SPEC §2).
var terminalDecisions = map[string]bool{"deny": true, "block": true, "cancel": true}

// EventSpec describes one event: what fires it, how its hooks run and how
// their results merge. The built-in catalog is a list of EventSpecs; custom
// events use the same type.
type EventSpec struct {
	// Name is the canonical name, e.g. "PreToolUse".
	Name string
	// Aliases are other names that fire the same event.
	Aliases []string
	// Strategy is how the event's hooks run.
	Strategy Strategy
	// MatcherField is the payload field a hook's matcher tests ("" = none).
	MatcherField string
	// MatchBasename makes the matcher test the base name of MatcherField
	// (Claude Code's FileChanged).
	MatchBasename bool
	// MatcherMode is the matcher syntax (Claude Code's by default).
	MatcherMode MatcherMode
	// Decisions lists the decision values the event accepts, most
	// restrictive first. Empty means the event takes no decision.
	Decisions []string
	// DecisionField is the result field that carries the decision besides
	// "decision" itself (OpenClaw: "action", "outcome"); the merged value is
	// reported under it.
	DecisionField string
	// JoinReasons lists decisions whose reasons are joined with a blank
	// line when several hooks return them (OpenClaw's revise).
	JoinReasons []string
	// StrictDecisions makes a decision the event does not know count as
	// its blocking decision (OpenClaw's before_agent_run: an unknown
	// outcome blocks) instead of being ignored.
	StrictDecisions bool
	// Merge maps result fields to their merge rules. Fields not listed use
	// the universal rules (continue, stop_reason, additional_context,
	// system_message, updated_input, ...) and then MergeLast. "reason"
	// follows the winning decision unless the table gives it a rule.
	Merge map[string]FieldRule
	// DefaultTimeout is the per-hook timeout when neither the hook nor the
	// engine settings give one.
	DefaultTimeout time.Duration
	// FailClosed makes a failing or timed-out hook block by default.
	FailClosed bool
	// StopGuard enables the Stop loop guard (stop_hook_active, loop_count,
	// block cap) for the event.
	StopGuard bool
	// Source says where the event comes from: "claude-code", "openclaw",
	// "seed" or "custom".
	Source string
	// Description is one line for `hookctl events`.
	Description string

	// matcherAlt is the camelCase spelling of MatcherField.
	matcherAlt string
	// toolEvent is set when MatcherField is tool_name: the payload gets
	// ToolField and matchers match canonical tool names too.
	toolEvent bool
	// merging is Merge worked out for the merger when the spec is
	// registered (nil before: merge works it out per call).
	merging *merging
}

// merging is an event's merge table as the merger reads it, per result
// field: one look-up gives a field's rule and whether the event knows it.
type merging struct {
	// rules is Merge over the universal rules.
	rules map[string]FieldRule
	// reasonRule says Merge gives "reason" a rule of its own.
	reasonRule bool
	// equiv lists, by name, the fields of Merge that equivalents turns
	// into a decision or a rewrite.
	equiv []equivRule
	// input is the payload field of a chain field marked Input (OpenClaw's
	// params), "" when there is none.
	input string
}

// equivRule is one field of merging.equiv.
type equivRule struct {
	field string
	rule  FieldRule
}

// newMerging works out s's merging.
func newMerging(s *EventSpec) *merging {
	m := &merging{rules: make(map[string]FieldRule, len(universalMerge)+len(s.Merge))}
	maps.Copy(m.rules, universalMerge)
	maps.Copy(m.rules, s.Merge)
	_, m.reasonRule = s.Merge[fieldReason]
	for f, r := range s.Merge {
		if r.Rule == MergeSticky && r.Blocks && r.Terminal || r.Input || r.Ask {
			m.equiv = append(m.equiv, equivRule{f, r})
		}
		if r.Input && r.Rule == MergeChain && (m.input == "" || r.Target < m.input) {
			m.input = r.Target
		}
	}
	slices.SortFunc(m.equiv, func(a, b equivRule) int { return strings.Compare(a.field, b.field) })
	return m
}

// merge is s's merging.
func (s *EventSpec) merge() *merging {
	if s.merging != nil {
		return s.merging
	}
	return newMerging(s)
}

// universalMerge holds the rules every event shares unless its own Merge
// table overrides a field.
var universalMerge = map[string]FieldRule{
	"continue":           {Rule: MergeSticky, Value: false, Terminal: true, Blocks: true},
	"stop_reason":        {Rule: MergeFirst},
	"additional_context": {Rule: MergeConcat},
	"system_message":     {Rule: MergeConcat},
	"suppress_output":    {Rule: MergeSticky},
	"updated_input":      {Rule: MergeChain, Target: "tool_input"},
	"updated_output":     {Rule: MergeChain, Target: "tool_response"},
	// ignored lists what a host adapter dropped from a hook's output (a
	// decision in a channel the event does not read), for the trace.
	"ignored": {Rule: MergeAppend},
}

// dialectFields are the camelCase spellings of Claude Code's JSON output
// that hookctl accepts in results.
var dialectFields = []string{
	"permissionDecision", "permissionDecisionReason", "updatedInput", "updatedToolOutput",
	"additionalContext", "systemMessage", "stopReason", "suppressOutput",
}

// ResultFields returns the event's result vocabulary, sorted: decision,
// reason, the universal fields, the event's own fields and the camelCase
// spellings of Claude Code's output that hookctl accepts.
func (s *EventSpec) ResultFields() []string {
	set := map[string]bool{fieldDecision: true, fieldReason: true}
	if s.DecisionField != "" {
		set[s.DecisionField] = true
	}
	for f := range universalMerge {
		set[f] = true
	}
	for f := range s.Merge {
		set[f] = true
	}
	for _, f := range dialectFields {
		set[f] = true
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// Reserved result field names with engine-defined meaning.
const (
	fieldDecision = "decision"
	fieldReason   = "reason"
	fieldContinue = "continue"
)

var specNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.:\-]*$`) })

// Validate reports the first problem with the spec.
func (s *EventSpec) Validate() error {
	if !specNameRE().MatchString(s.Name) {
		return fmt.Errorf("event name %q: want a letter then letters, digits, '_', '.', ':' or '-'", s.Name)
	}
	for _, a := range s.Aliases {
		if !specNameRE().MatchString(a) {
			return fmt.Errorf("event %s: alias %q: want a letter then letters, digits, '_', '.', ':' or '-'", s.Name, a)
		}
	}
	if s.MatcherMode > MatcherLiteral {
		return fmt.Errorf("event %s: unknown matcher mode", s.Name)
	}
	for _, d := range s.JoinReasons {
		if !slices.Contains(s.Decisions, d) {
			return fmt.Errorf("event %s: join_reasons names %q, which is not one of its decisions", s.Name, d)
		}
	}
	if _, ok := strategyNames[s.Strategy]; !ok {
		return fmt.Errorf("event %s: strategy must be modifying, void or sync", s.Name)
	}
	seen := map[string]bool{}
	for _, d := range s.Decisions {
		if d == "" || seen[d] {
			return fmt.Errorf("event %s: decisions must be distinct and non-empty", s.Name)
		}
		seen[d] = true
	}
	for f, r := range s.Merge {
		if f == "" {
			return fmt.Errorf("event %s: empty merge field name", s.Name)
		}
		if f == fieldDecision || f == s.DecisionField {
			return fmt.Errorf("event %s: %q merges by the decision precedence; set Decisions instead", s.Name, f)
		}
		if int(r.Rule) >= len(mergeRuleNames) {
			return fmt.Errorf("event %s: field %s: unknown merge rule", s.Name, f)
		}
		if r.Rule == MergeRestrictive && len(r.Order) == 0 {
			return fmt.Errorf("event %s: field %s: a restrictive rule needs an order", s.Name, f)
		}
		if r.Rule == MergeChain && r.Target == "" {
			return fmt.Errorf("event %s: field %s: a chain rule needs a target payload field", s.Name, f)
		}
	}
	if s.DefaultTimeout < 0 {
		return fmt.Errorf("event %s: negative default timeout", s.Name)
	}
	return nil
}

// rule returns the merge rule of a result field for this event.
func (s *EventSpec) rule(field string) FieldRule {
	r, _ := s.ruleOf(field)
	return r
}

// ruleOf is field's merge rule and whether field is in the event's result
// vocabulary (decision, reason, the decision field, Merge, the universal
// fields).
func (s *EventSpec) ruleOf(field string) (FieldRule, bool) {
	if r, ok := s.merge().rules[field]; ok {
		return r, true
	}
	known := field == fieldDecision || field == fieldReason || field == s.DecisionField
	return FieldRule{Rule: MergeLast}, known
}

// AcceptsDecision reports whether d (after normalisation) is one of the
// event's decisions.
func (s *EventSpec) AcceptsDecision(d string) bool {
	_, ok := s.normalizeDecision(d)
	return ok
}

// normalizeDecision maps the decision vocabularies real hooks use onto the
// event's own: legacy "approve" is "allow"; "block" and "deny" stand for
// each other where only one is accepted; "cancel" is "block" where cancel
// is not accepted.
func (s *EventSpec) normalizeDecision(d string) (string, bool) {
	if slices.Contains(s.Decisions, d) {
		return d, true
	}
	var alt []string
	switch d {
	case "approve":
		alt = []string{"allow", "pass"} // as "allow" reads on an event of "pass"
	case "block":
		alt = []string{"deny", "cancel"}
	case "deny":
		alt = []string{"block", "cancel"}
	case "cancel":
		alt = []string{"block", "deny"}
	case "pass":
		alt = []string{"allow"}
	case "allow":
		alt = []string{"pass"}
	}
	for _, a := range alt {
		if slices.Contains(s.Decisions, a) {
			return a, true
		}
	}
	return "", false
}

// isDecision reports whether v is one of the event's decisions (after
// normalisation).
func (s *EventSpec) isDecision(v any) bool {
	d, _ := v.(string)
	_, ok := s.normalizeDecision(d)
	return ok
}

// moreRestrictive reports whether decisions a and b are both the event's
// and a is the more restrictive (a b that is none of them is left to the
// merge's own rules: StrictDecisions blocks on it).
func (s *EventSpec) moreRestrictive(a, b any) bool {
	as, _ := a.(string)
	na, ok := s.normalizeDecision(as)
	if !ok {
		return false
	}
	bs, _ := b.(string)
	nb, ok := s.normalizeDecision(bs)
	return ok && slices.Index(s.Decisions, na) < slices.Index(s.Decisions, nb)
}

// decisionField is the name the merged decision is reported under.
func (s *EventSpec) decisionField() string {
	if s.DecisionField != "" {
		return s.DecisionField
	}
	return fieldDecision
}

// BlockDecision is the decision a fail-closed hook contributes, the
// event's most restrictive terminal decision ("deny", "block", "cancel");
// "" when the event takes none, and no decision blocks it.
func (s *EventSpec) BlockDecision() string { return s.blockDecision() }

// blockDecision is the decision a fail-closed hook contributes: the event's
// most restrictive terminal decision.
func (s *EventSpec) blockDecision() string {
	for _, d := range s.Decisions {
		if terminalDecisions[d] {
			return d
		}
	}
	return ""
}

// clone returns a deep copy so callers cannot change a registered spec.
func (s EventSpec) clone() *EventSpec {
	c := s
	c.merging = nil // the copy's Merge may be changed
	c.Aliases = slices.Clone(s.Aliases)
	c.Decisions = slices.Clone(s.Decisions)
	c.JoinReasons = slices.Clone(s.JoinReasons)
	if s.Merge != nil {
		c.Merge = make(map[string]FieldRule, len(s.Merge))
		for k, v := range s.Merge {
			v.Order = slices.Clone(v.Order)
			c.Merge[k] = v
		}
	}
	return &c
}
