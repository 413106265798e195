package engine

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/internal/suggest"
)

// kv is one result field.
type kv struct {
	k string
	v any
}

// prepared is a result ready to merge: field names in canonical snake_case,
// decision and reason pulled out. Declarative hooks have theirs prepared at
// registration; other results are prepared per call into a reused buffer.
type prepared struct {
	res         Result // canonical names, for traces
	decision    any
	reason      any
	hasDecision bool
	hasReason   bool
	fields      []kv // every other field
}

// load prepares r, reusing p's buffers. r is not modified: camelCase names
// produce a canonical copy.
func (p *prepared) load(r Result) *prepared { return p.loadSeeing(r, nil) }

// loadSeeing is load that also reads r's fields into info, as fieldsOf
// does, in the same pass: a chain hook's result is read once before it
// merges.
func (p *prepared) loadSeeing(r Result, info *resultFields) *prepared {
	*p = prepared{fields: p.fields[:0], res: r}
	copied := false
	for k, v := range r {
		if info != nil {
			info.see(k, v)
		}
		if hasUpper(k) {
			if !copied {
				p.res = make(Result, len(r))
				for k2, v2 := range r {
					if !hasUpper(k2) {
						p.res[k2] = v2
					}
				}
				copied = true
			}
			k = canonicalField(k)
			if _, dup := r[k]; dup {
				continue // the snake_case spelling wins
			}
			p.res[k] = v
		}
		switch k {
		case fieldDecision:
			p.decision, p.hasDecision = v, true
		case fieldReason:
			p.reason, p.hasReason = v, true
		default:
			p.fields = append(p.fields, kv{k, v})
		}
	}
	if len(p.fields) > 1 {
		// In name order, as a declarative result's: fields that freeze
		// one another (require_approval, params) merge the same way on
		// every call.
		slices.SortFunc(p.fields, func(a, b kv) int { return strings.Compare(a.k, b.k) })
	}
	return p
}

// prepareStatic prepares a declarative result once, fields in name order.
func prepareStatic(r Result) *prepared {
	p := new(prepared).load(r)
	p.fields = slices.Clone(p.fields)
	slices.SortFunc(p.fields, func(a, b kv) int { return strings.Compare(a.k, b.k) })
	return p
}

func (p *prepared) empty() bool { return !p.hasDecision && !p.hasReason && len(p.fields) == 0 }

// decisionString and reasonString give the trace's view of the result.
func (p *prepared) decisionString(spec *EventSpec) string {
	if s, _ := p.decision.(string); s != "" || spec.DecisionField == "" {
		return s
	}
	for _, f := range p.fields {
		if f.k == spec.DecisionField {
			s, _ := f.v.(string)
			return s
		}
	}
	return ""
}
func (p *prepared) reasonString() string { s, _ := p.reason.(string); return s }

// concatAcc collects the parts of one concat field until the merge ends, so
// that n hooks cost one join rather than n growing copies.
type concatAcc struct {
	field string
	parts []string
}

// merger folds hook results into one outcome, field by field, following the
// event's merge rules, and chains rewritten fields into the payload seen by
// the next hook. It never modifies a Result or the caller's payload.
type merger struct {
	spec *EventSpec
	out  map[string]any
	// spare, an empty map, becomes out when a hook first adds a field
	// (FireInto's, reused).
	spare map[string]any

	payload      map[string]any
	payloadOwned bool
	// readInput and inputFields are the fire's Event's.
	readInput   func(tool string, in map[string]any) map[string]any
	inputFields []string
	// payloadGen counts the writes to payload, so that a condition result
	// remembered in this fire is used only on the payload it saw.
	payloadGen uint64

	concat []concatAcc

	decRank   int  // index of the merged decision in spec.Decisions; -1 none
	unknown   bool // the last add met a field the event does not know
	reasonSet bool
	blocked   bool
	stoppedBy string
}

func (m *merger) init(spec *EventSpec, payload map[string]any) {
	*m = merger{spec: spec, payload: payload, decRank: -1, concat: m.concat[:0]}
}

// reset forgets a fire, keeping the concat buffers for the next one.
func (m *merger) reset() {
	for i := range m.concat {
		clear(m.concat[i].parts)
		m.concat[i].parts = m.concat[i].parts[:0]
	}
	*m = merger{concat: m.concat[:0]}
}

// add merges one hook's result. It reports whether the result ends the
// chain (a terminal decision or field), and a note when part of the result
// was ignored.
//
// rules, when given, are the rules of p's fields on this event, looked up
// at registration (a declarative result's).
func (m *merger) add(hookID string, p *prepared, rules *staticRules) (terminal bool, note string) {
	m.unknown = false
	// The payload the hooks so far saw stays as they saw it: this hook's
	// rewrites go to a copy.
	m.payloadOwned = false
	if p.empty() {
		return false, ""
	}
	if m.out == nil {
		if m.out, m.spare = m.spare, nil; m.out == nil {
			m.out = make(map[string]any, len(p.fields)+2)
		}
	}
	reasonHasRule := m.spec.merge().reasonRule
	var notes []string
	dec, hasDec := p.decision, p.hasDecision
	altField := m.spec.DecisionField != "" && m.spec.DecisionField != fieldDecision
	if altField {
		// The event's own decision field (OpenClaw's outcome, action)
		// beside decision: an empty one (null, "") says nothing, and of
		// two, the more restrictive of the event's stands.
		for _, f := range p.fields {
			if f.k == m.spec.DecisionField && given(f.v) && (!hasDec || !given(dec) || m.spec.moreRestrictive(f.v, dec)) {
				dec, hasDec = f.v, true
				break
			}
		}
	}
	if hasDec {
		t, n := m.addDecision(dec, p, reasonHasRule)
		terminal = t
		if n != "" {
			notes = append(notes, n)
		}
	} else if p.hasReason && !reasonHasRule && m.decRank < 0 && !m.reasonSet {
		// A reason without a decision counts only while no hook decided.
		if s, ok := p.reason.(string); ok && s != "" {
			m.out[fieldReason] = p.reason
			m.reasonSet = true
		}
	}
	if p.hasReason && reasonHasRule {
		t, n := m.addField(fieldReason, p.reason)
		terminal = terminal || t
		if n != "" {
			notes = append(notes, n)
		}
	}
	for i, f := range p.fields {
		if altField && f.k == m.spec.DecisionField {
			continue
		}
		var rule FieldRule
		var known bool
		if rules != nil {
			rule, known = rules.rules[i], rules.known[i]
		} else {
			rule, known = m.spec.ruleOf(f.k)
		}
		if !known {
			notes = append(notes, m.unknownField(f.k))
			m.unknown = true
		}
		t, n := m.addRule(f.k, f.v, rule)
		terminal = terminal || t
		if n != "" {
			notes = append(notes, n)
		}
	}
	if terminal && m.stoppedBy == "" {
		m.stoppedBy = hookID
	}
	if len(notes) > 0 {
		slices.Sort(notes)
		note = strings.Join(notes, "; ")
	}
	return terminal, note
}

func (m *merger) addDecision(v any, p *prepared, reasonHasRule bool) (terminal bool, note string) {
	spec := m.spec
	s, ok := v.(string)
	if !ok {
		if v == nil {
			return false, ""
		}
		s = fmt.Sprint(v)
	}
	if s == "" && ok {
		return false, ""
	}
	reason := p.reason
	hasReason := p.hasReason
	d, known := spec.normalizeDecision(s)
	switch {
	case !known && spec.StrictDecisions && spec.blockDecision() != "":
		d = spec.blockDecision()
		note = fmt.Sprintf("%s %q is not a valid decision: counted as %s", spec.decisionField(), s, d)
		reason, hasReason = fmt.Sprintf("%s returned an invalid decision %q", spec.Name, s), true
		v = d
	case !known && !ok:
		return false, fmt.Sprintf("decision must be a string, got %T", v)
	case !known && len(spec.Decisions) == 0:
		return false, fmt.Sprintf("decision %q ignored: %s takes no decision", s, spec.Name)
	case !known:
		return false, fmt.Sprintf("decision %q ignored: %s accepts %s", s, spec.Name, strings.Join(spec.Decisions, ", "))
	}
	key := spec.decisionField()
	rank := slices.Index(spec.Decisions, d)
	switch {
	case m.decRank < 0 || rank < m.decRank:
		m.decRank = rank
		if d == s && ok {
			m.out[key] = v
		} else {
			m.out[key] = d
		}
		if !reasonHasRule {
			if _, isStr := reason.(string); isStr && hasReason {
				m.out[fieldReason] = reason
				m.reasonSet = true
			} else {
				delete(m.out, fieldReason)
				m.reasonSet = false
			}
		}
	case rank == m.decRank && !reasonHasRule && slices.Contains(spec.JoinReasons, d):
		if rs, _ := reason.(string); rs != "" {
			if cur, _ := m.out[fieldReason].(string); cur != "" {
				m.out[fieldReason] = cur + "\n\n" + rs
			} else {
				m.out[fieldReason] = rs
			}
			m.reasonSet = true
		}
	}
	if terminalDecisions[d] {
		m.blocked = true
		return true, note
	}
	return false, note
}

// unknownField is the note of a result field the event does not know
// (kept in the output, but nothing reads it): a misspelled decision would
// otherwise vanish silently.
func (m *merger) unknownField(k string) string {
	note := fmt.Sprintf("unknown result field %q: %s does not take it", k, m.spec.Name)
	if s := suggest.Closest(k, m.spec.ResultFields()); s != "" {
		note += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return note
}

// addField merges one non-decision field by its rule (one function per
// rule, mergeRules).
func (m *merger) addField(k string, v any) (terminal bool, note string) {
	return m.addRule(k, v, m.spec.rule(k))
}

// addRule is addField with the field's rule looked up.
func (m *merger) addRule(k string, v any, rule FieldRule) (terminal bool, note string) {
	if rule.FreezeAfter != "" {
		if _, frozen := m.out[rule.FreezeAfter]; frozen {
			return false, fmt.Sprintf("%s ignored: frozen once %s was set", k, rule.FreezeAfter)
		}
	}
	if int(rule.Rule) >= len(mergeRules) || mergeRules[rule.Rule] == nil {
		return false, ""
	}
	cur, have := m.out[k]
	return mergeRules[rule.Rule](m, field{k: k, v: v, cur: cur, have: have, rule: rule})
}

// field is one field being merged: its name, the hook's value, the value
// merged so far (have: whether there is one) and its rule.
type field struct {
	k      string
	v, cur any
	have   bool
	rule   FieldRule
}

// mergeRules holds the function of each merge rule. Each returns whether
// the value ends the chain and a note when it was ignored.
var mergeRules = [...]func(m *merger, f field) (terminal bool, note string){
	MergeIgnore:      mergeIgnore,
	MergeLast:        mergeLast,
	MergeFirst:       mergeFirst,
	MergeSticky:      mergeSticky,
	MergeRestrictive: mergeRestrictive,
	MergeConcat:      mergeConcat,
	MergeChain:       mergeChain,
	MergeMerge:       mergeObjects,
	MergeAppend:      mergeAppend,
	MergeUnion:       mergeUnion,
	MergeIntersect:   mergeIntersect,
}

// mergeIgnore drops the value, saying so.
func mergeIgnore(m *merger, f field) (bool, string) {
	if f.v == nil {
		return false, ""
	}
	return false, fmt.Sprintf("%s ignored: %s does not honour it", f.k, m.spec.Name)
}

// mergeLast keeps the last defined value.
func mergeLast(m *merger, f field) (bool, string) {
	if f.v != nil {
		m.out[f.k] = f.v
	}
	return false, ""
}

// mergeFirst keeps the first defined value.
func mergeFirst(m *merger, f field) (bool, string) {
	if !f.have && f.v != nil {
		m.out[f.k] = f.v
	}
	return false, ""
}

// mergeSticky keeps the rule's value once a hook returned it.
func mergeSticky(m *merger, f field) (bool, string) {
	want := f.rule.Value
	if want == nil {
		want = true
	}
	if f.have && valueEqual(f.cur, want) || f.v == nil {
		return false, ""
	}
	if valueEqual(f.v, want) {
		m.out[f.k] = want
		if f.rule.Blocks {
			m.blocked = true
		}
		return f.rule.Terminal, ""
	}
	if !f.have {
		m.out[f.k] = f.v
	}
	return false, ""
}

// mergeRestrictive keeps the most restrictive value of the rule's order.
func mergeRestrictive(m *merger, f field) (bool, string) {
	s, ok := f.v.(string)
	if !ok || s == "" {
		if f.v == nil || s == "" && ok {
			return false, ""
		}
		return false, fmt.Sprintf("%s must be a string, got %T", f.k, f.v)
	}
	order := f.rule.Order
	rank := slices.Index(order, s)
	if rank < 0 {
		return false, fmt.Sprintf("%s %q ignored: want one of %s", f.k, s, strings.Join(order, ", "))
	}
	if cs, ok := f.cur.(string); !f.have || !ok || rank < slices.Index(order, cs) {
		m.out[f.k] = s
	}
	if rank == 0 && f.rule.Terminal {
		if f.rule.Blocks {
			m.blocked = true
		}
		return true, ""
	}
	return false, ""
}

// mergeConcat collects strings, joined with a blank line when the merge
// ends (flush).
func mergeConcat(m *merger, f field) (bool, string) {
	s, ok := f.v.(string)
	if !ok {
		if f.v == nil {
			return false, ""
		}
		return false, fmt.Sprintf("%s must be a string, got %T", f.k, f.v)
	}
	if s == "" {
		return false, ""
	}
	for i := range m.concat {
		if m.concat[i].field == f.k {
			m.concat[i].parts = append(m.concat[i].parts, s)
			return false, ""
		}
	}
	if n := len(m.concat); n < cap(m.concat) {
		// Reuse the buffers of an earlier fire.
		m.concat = m.concat[:n+1]
		m.concat[n].field, m.concat[n].parts = f.k, append(m.concat[n].parts[:0], s)
	} else {
		m.concat = append(m.concat, concatAcc{field: f.k, parts: []string{s}})
	}
	m.out[f.k] = f.v // a single part needs no join
	return false, ""
}

// mergeChain keeps the last value and rewrites the payload for the next
// hooks.
func mergeChain(m *merger, f field) (bool, string) {
	if f.v == nil {
		return false, ""
	}
	if _, isObj := f.v.(map[string]any); !isObj && (f.rule.Target == "tool_input" || f.rule.Input) {
		// A tool's input is an object: another value would leave the
		// next hooks judging no command at all while the host, which
		// takes only an object, runs the input as it was.
		return false, fmt.Sprintf("%s ignored: a rewritten tool input must be an object (the whole input), got %T", f.k, f.v)
	}
	m.out[f.k] = f.v
	seen := f.v // what the next hooks judge
	toolInput := f.rule.Target == "tool_input" || f.rule.Input
	if toolInput && m.readInput != nil {
		// As the host's decoder reads the input it sends: the host gets
		// the rewrite as the hook returned it, the next hooks its
		// reading (fields derived from the ones it runs, never stale).
		tool, _ := m.payload["tool_name"].(string)
		seen = m.readInput(tool, f.v.(map[string]any))
	}
	m.setPayload(f.rule.Target, seen)
	if toolInput {
		for _, k := range m.inputFields {
			if _, has := m.payload[k]; has {
				m.setPayload(k, seen)
			}
		}
	}
	switch in := m.spec.merge().input; {
	case f.rule.Input:
		// The event's rewritten input in another vocabulary (OpenClaw's
		// params on PreToolUse) is the rewritten input: the next hooks
		// judge it as tool_input, and the last rewrite, in either
		// spelling, is what the host runs.
		m.out["updated_input"] = f.v
		m.setPayload("tool_input", seen)
	case in != "" && f.rule.Target == "tool_input":
		// updated_input: hooks that read the other vocabulary see it too.
		if _, has := m.payload[in]; has {
			m.setPayload(in, seen)
		}
	}
	return false, ""
}

// mergeObjects merges objects key by key, later keys winning.
func mergeObjects(m *merger, f field) (bool, string) {
	vm, ok := f.v.(map[string]any)
	if !ok {
		if f.v == nil {
			return false, ""
		}
		return false, fmt.Sprintf("%s must be an object, got %T", f.k, f.v)
	}
	cm, _ := f.cur.(map[string]any)
	nm := make(map[string]any, len(cm)+len(vm))
	maps.Copy(nm, cm)
	maps.Copy(nm, vm)
	m.out[f.k] = nm
	return false, ""
}

// mergeAppend concatenates lists.
func mergeAppend(m *merger, f field) (bool, string) {
	l, ok := asList(f.v)
	if !ok {
		return false, fmt.Sprintf("%s must be a list, got %T", f.k, f.v)
	}
	cl, _ := f.cur.([]any)
	m.out[f.k] = append(slices.Clip(cl), l...)
	return false, ""
}

// mergeUnion adds the list's values not already present.
func mergeUnion(m *merger, f field) (bool, string) {
	l, ok := asList(f.v)
	if !ok {
		return false, fmt.Sprintf("%s must be a list, got %T", f.k, f.v)
	}
	cl, _ := f.cur.([]any)
	out := slices.Clone(cl)
	for _, x := range l {
		if !slices.ContainsFunc(out, func(y any) bool { return valueEqual(x, y) }) {
			out = append(out, x)
		}
	}
	m.out[f.k] = out
	return false, ""
}

// mergeIntersect keeps the strings every hook listed ("*" is the
// identity); a value that is not a list of strings denies all, as in
// OpenClaw.
func mergeIntersect(m *merger, f field) (bool, string) {
	l, ok := asStringList(f.v)
	if !ok {
		m.out[f.k] = []any{}
		return false, fmt.Sprintf("%s must be a list of strings: treated as empty", f.k)
	}
	if slices.Contains(l, "*") {
		if !f.have {
			m.out[f.k] = []any{"*"}
		}
		return false, ""
	}
	cl, cok := asStringList(f.cur)
	if !f.have || !cok || slices.Contains(cl, "*") {
		m.out[f.k] = toAnyList(l)
		return false, ""
	}
	out := []any{}
	for _, s := range cl {
		if slices.Contains(l, s) {
			out = append(out, s)
		}
	}
	m.out[f.k] = out
	return false, ""
}

// flush joins the collected concat fields into the output.
func (m *merger) flush() {
	for _, c := range m.concat {
		if len(c.parts) > 1 {
			m.out[c.field] = strings.Join(c.parts, "\n\n")
		}
	}
}

// setPayload replaces one payload field for the next hooks, copying the
// payload on a hook's first write: a map handed to a hook (or to the
// caller) is never written afterwards, so a hook that kept it, or a cache
// keyed by its identity, still sees what it saw.
func (m *merger) setPayload(k string, v any) {
	m.payloadGen++ // conditions remembered on the old payload no longer hold
	if !m.payloadOwned {
		p := make(map[string]any, len(m.payload)+1)
		maps.Copy(p, m.payload)
		m.payload = p
		m.payloadOwned = true
	}
	m.payload[k] = v
}

// fieldAliases maps the camelCase vocabularies of Claude Code and OpenClaw
// onto hookctl's snake_case result fields.
var fieldAliases = map[string]string{
	"permissionDecision":       fieldDecision,
	"permissionDecisionReason": fieldReason,
	"updatedToolOutput":        "updated_output",
	"updatedMCPToolOutput":     "updated_output",
}

// canonicalField returns the snake_case name of a result field.
func canonicalField(k string) string {
	if !hasUpper(k) {
		return k
	}
	if a, ok := fieldAliases[k]; ok {
		return a
	}
	return jsonx.SnakeCase(k)
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}

func asList(v any) ([]any, bool) {
	switch l := v.(type) {
	case []any:
		return l, true
	case []string:
		return toAnyList(l), true
	case nil:
		return nil, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, false
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

func asStringList(v any) ([]string, bool) {
	l, ok := asList(v)
	if !ok || v == nil {
		return nil, false
	}
	out := make([]string, 0, len(l))
	for _, x := range l {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func toAnyList(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

// valueEqual compares JSON-like values.
func valueEqual(a, b any) bool {
	switch x := a.(type) {
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case nil:
		return b == nil
	}
	return reflect.DeepEqual(a, b)
}
