package engine

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/internal/fastpath"
	"github.com/hookctl/hookctl/internal/suggest"
)

// EventID is an event's index in an engine's catalog. Resolve a name once
// with Engine.Resolve and fire by ID on hot paths to skip the name lookup.
// IDs are stable for the engine's lifetime; 0 is never a valid ID.
type EventID uint32

// compiledHook is a registered hook with its matcher and condition compiled.
type compiledHook struct {
	Hook
	seq     uint64
	events  []string // canonical event names
	matcher *Matcher // in Claude Code syntax, for listings
	// matchers holds the matcher compiled in each syntax the hook's events
	// use (nil: matches everything).
	matchers  [MatcherLiteral + 1]*Matcher
	cond      *conditions.Program
	kind      string
	inline    bool
	selfTimed bool
	fromCfg   bool
	// static is the prepared result of a declarative hook, which never
	// needs its handler called; staticRules are its fields' merge rules
	// on each of its events, looked up once at registration.
	static      *prepared
	staticRules []staticRules
	// declared marks a declarative hook (StaticResult), whose result was
	// checked when it was registered.
	declared bool
	// wrapped marks a hook run through middleware, which may change the
	// handler's result: a constant one (Call.Constant) is read anew.
	wrapped bool
}

// eventEntry is one event of a snapshot with its hooks in firing order.
type eventEntry struct {
	id   EventID
	spec *EventSpec
	// all holds every hook registered for the event in firing order
	// (priority descending, declaration order on ties), disabled included.
	all []*compiledHook
	// chain: modifying/sync hooks run in sequence (void events: none).
	chain []*compiledHook
	// parallel: hooks that run concurrently: every non-background hook of
	// a void event, the observe hooks of a modifying or sync event.
	parallel []*compiledHook
	// background: queued hooks.
	background []*compiledHook
	// needsTool: the event is a tool event and a hook may read the
	// payload's ToolField (a condition that names it, a handler that is
	// not ToolAware), so the fire adds it.
	needsTool bool
	// entrant, when set, is the Entrant the chain and the inline parallel
	// hooks run inside (see Entrant), entered at the first of its hooks
	// that runs; entryKey is its key.
	entrant  Entrant
	entryKey any
}

// enters reports whether h is a hook of the event's Entrant.
func (e *eventEntry) enters(h *compiledHook) bool {
	en, ok := h.Handler.(Entrant)
	return ok && en.EntryKey() == e.entryKey
}

// settings are the engine-wide knobs a config may set.
type settings struct {
	maxConcurrency int
	defaultTimeout time.Duration
	stopBlockCap   int
}

// snapshot is an immutable view of the registry: catalog, hooks and
// settings. Fires load it once through an atomic pointer, so registration
// and config swaps never disturb a fire in progress.
type snapshot struct {
	events   []*eventEntry // by EventID; index 0 and removed events are nil
	byName   map[string]EventID
	names    nameTable // the same as byName, faster
	settings settings
}

// registry is the mutable source the snapshots are built from. Guarded by
// Engine.mu.
type registry struct {
	specs    []*EventSpec // by EventID; nil = removed
	names    map[string]EventID
	cfgSpecs map[EventID]bool // events that came from the loaded config

	goHooks  []*compiledHook
	cfgHooks []*compiledHook
	disabled map[string]bool // enable/disable overrides by hook id
	seq      uint64

	off     fastpath.Set // the optimisations turned off
	base    settings     // from options
	cfgSet  Settings     // from the loaded config
	hasCfg  bool
	cfgName string
}

func (r *registry) init(base settings, extra []EventSpec) error {
	r.specs = []*EventSpec{nil}
	r.names = map[string]EventID{}
	r.cfgSpecs = map[EventID]bool{}
	r.disabled = map[string]bool{}
	r.base = base
	for _, s := range BuiltinEvents() {
		// Fresh copies, valid (TestBuiltinEventsValidate): neither
		// validated nor cloned again on every New.
		if _, err := r.add(s, false, true); err != nil {
			return fmt.Errorf("built-in catalog: %w", err)
		}
	}
	for _, s := range extra {
		if _, err := r.addSpec(s, false); err != nil {
			return err
		}
	}
	return nil
}

// addSpec validates and adds an event. A name taken by a removed event gets
// its old ID back.
func (r *registry) addSpec(s EventSpec, fromCfg bool) (EventID, error) {
	return r.add(s, fromCfg, false)
}

// add is addSpec; builtin says s is a fresh copy of a built-in event,
// valid and shared with nothing.
func (r *registry) add(s EventSpec, fromCfg, builtin bool) (EventID, error) {
	if s.Source == "" {
		s.Source = SourceCustom
	}
	if !builtin {
		if err := s.Validate(); err != nil {
			return 0, err
		}
	}
	names := append([]string{s.Name}, s.Aliases...)
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return 0, fmt.Errorf("event %s: name %q given twice", s.Name, n)
		}
		seen[n] = true
		if id, ok := r.names[n]; ok && r.specs[id] != nil {
			return 0, fmt.Errorf("event %s: name %q is already taken by event %s", s.Name, n, r.specs[id].Name)
		}
	}
	id, ok := r.names[s.Name]
	if !ok || r.specs[id] != nil {
		id = EventID(len(r.specs))
		r.specs = append(r.specs, nil)
	}
	c := &s
	if !builtin {
		c = s.clone()
	}
	if alt := camelField(c.MatcherField); alt != c.MatcherField {
		c.matcherAlt = alt
	}
	c.toolEvent = c.MatcherField == "tool_name"
	c.merging = newMerging(c)
	r.specs[id] = c
	for _, n := range names {
		r.names[n] = id
	}
	if fromCfg {
		r.cfgSpecs[id] = true
	}
	return id, nil
}

func (r *registry) removeCfgSpecs() {
	for id := range r.cfgSpecs {
		r.specs[id] = nil
	}
	clear(r.cfgSpecs)
}

func (r *registry) lookup(name string) (*EventSpec, bool) {
	id, ok := r.names[name]
	if !ok || r.specs[id] == nil {
		return nil, false
	}
	return r.specs[id], true
}

func (r *registry) unknown(name string) error {
	return &UnknownEventError{Name: name, Suggestion: r.suggest(name)}
}

// suggest finds a known name close to an unknown one.
func (r *registry) suggest(name string) string {
	names := make([]string, 0, len(r.names))
	for n, id := range r.names {
		if r.specs[id] != nil {
			names = append(names, n)
		}
	}
	return suggest.Closest(name, names)
}

// compile checks a hook against the catalog and compiles its matcher and
// condition. It reports every problem it finds.
func (r *registry) compile(h Hook, cc *conditions.Compiler, mw []Middleware) (*compiledHook, error) {
	var errs []error
	fail := func(field string, err error) {
		errs = append(errs, &HookConfigError{ID: h.ID, Source: h.Source, Field: field, Err: err})
	}
	if strings.TrimSpace(h.ID) == "" {
		fail("id", errors.New("a hook needs an id"))
	}
	if h.Handler == nil {
		fail("handler", errors.New("a hook needs a handler"))
	}
	names := h.events()
	staticHSO := false
	if len(names) == 0 {
		fail("event", errors.New("a hook needs an event"))
	}
	c := &compiledHook{Hook: h}
	staticRes, isStatic := StaticResult(h.Handler)
	var staticRead Result
	if isStatic && decisionSpellings(staticRes) > 1 {
		fail("decision", errors.New("the result gives its decision under two names (decision, Decision, permissionDecision): give it once"))
	}
	for _, n := range names {
		spec, ok := r.lookup(n)
		if !ok {
			fail("event", r.unknown(n))
			continue
		}
		if !slices.Contains(c.events, spec.Name) {
			c.events = append(c.events, spec.Name)
		}
		if isStatic {
			if _, hso := staticRes["hookSpecificOutput"]; hso && !staticHSO {
				// Its deny would be an unknown field, noted and lost.
				staticHSO = true
				fail("result", errors.New("hookSpecificOutput is Claude Code's output shape; a declarative result takes hookctl's fields (decision, reason, additional_context, ...)"))
				continue
			}
			// Read as a handler's result is read on every call, once:
			// its names canonical, a decision object's behavior, a
			// decision that is none of the catalog's refused.
			canon := canonicalResult(spec, staticRes)
			accepts := func(d string) bool {
				switch {
				case d == "" || spec.AcceptsDecision(d):
					return true
				case len(spec.Decisions) == 0:
					fail("decision", fmt.Errorf("event %s takes no decision", spec.Name))
				default:
					fail("decision", fmt.Errorf("event %s accepts %s, not %q", spec.Name, strings.Join(spec.Decisions, ", "), d))
				}
				return false
			}
			if d, ok := canon[fieldDecision].(string); ok && !accepts(d) {
				continue
			}
			res, _, err := readResult(spec, canon, fieldsOf(canon), nil)
			if err != nil {
				fail("decision", err)
				continue
			}
			if d, ok := res[fieldDecision].(string); ok && !accepts(d) {
				continue
			}
			staticRead = res
		}
	}
	m, err := CompileMatcher(h.Matcher)
	if err != nil {
		fail("matcher", err)
	}
	c.matcher = m
	for _, n := range c.events {
		spec, _ := r.lookup(n)
		if spec == nil || c.matchers[spec.MatcherMode] != nil {
			continue
		}
		mm, err := CompileMatcherMode(h.Matcher, spec.MatcherMode)
		if err != nil {
			if spec.MatcherMode != MatcherClaude {
				fail("matcher", err)
			}
			continue
		}
		if !mm.MatchesAll() {
			c.matchers[spec.MatcherMode] = mm
		}
	}
	switch {
	case h.Condition != nil:
		c.cond = h.Condition
		for _, name := range h.Condition.Unsupplied() {
			if cc.Supplies(name) {
				// It would fail at every call although this engine has
				// the function: the configuration was compiled for
				// another program (assembled without WithEngine).
				fail("when", fmt.Errorf("calls %s, which this engine supplies, but the condition was compiled without it: assemble the configuration for this engine (assemble.WithEngine, hcl.WithCatalog)", name))
			}
		}
	case strings.TrimSpace(h.When) != "":
		p, err := cc.Compile(h.When)
		if err != nil {
			fail("when", err)
		}
		c.cond = p
	}
	if h.Timeout < 0 {
		fail("timeout", errors.New("must not be negative"))
	}
	if h.OnError.Policy > ErrorRetry {
		fail("on_error", errors.New("unknown policy"))
	}
	if h.OnError.Attempts < 0 || h.OnError.Backoff < 0 {
		fail("retry", errors.New("attempts and backoff must not be negative"))
	}
	if h.Background && h.Observe {
		fail("observe", errors.New("a hook cannot be both background and observe"))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if c.matcher != nil && c.matcher.MatchesAll() {
		c.matcher = nil
	}
	if staticRead != nil {
		h.Handler = Static(staticRead)
		c.Hook.Handler = h.Handler
	}
	c.kind = handlerKind(h.Handler)
	_, c.declared = StaticResult(h.Handler)
	if in, ok := h.Handler.(Inliner); ok {
		c.inline = in.Inline()
	}
	if st, ok := h.Handler.(SelfTimed); ok {
		c.selfTimed = st.SelfTimed()
	}
	if len(mw) > 0 {
		// Every hook runs through the middleware, declarative ones too,
		// so none is left static; the wrapped handler keeps the kind and,
		// unless it says otherwise, the inlining and timing of the
		// handler it wraps.
		c.Handler = wrap(h.Handler, c.info(), mw)
		c.wrapped = true
		if in, ok := c.Handler.(Inliner); ok {
			c.inline = in.Inline()
		}
		if st, ok := c.Handler.(SelfTimed); ok {
			c.selfTimed = st.SelfTimed()
		}
		return c, nil
	}
	if res, ok := StaticResult(h.Handler); ok && !r.off.Has(fastpath.EngineStatic) {
		c.static = prepareStatic(res)
		for _, n := range c.events {
			if spec, ok := r.lookup(n); ok {
				c.staticRules = append(c.staticRules, rulesOf(spec, c.static))
			}
		}
	}
	return c, nil
}

// staticRules are the merge rules of a declarative result's fields on one
// event: what ruleOf gives each, in the order of prepared.fields.
type staticRules struct {
	spec  *EventSpec
	rules []FieldRule
	known []bool
}

// rulesOf looks up the rules of p's fields on spec.
func rulesOf(spec *EventSpec, p *prepared) staticRules {
	sr := staticRules{spec: spec, rules: make([]FieldRule, len(p.fields)), known: make([]bool, len(p.fields))}
	for i, f := range p.fields {
		sr.rules[i], sr.known[i] = spec.ruleOf(f.k)
	}
	return sr
}

// rulesFor returns the hook's static rules on spec, nil when they were
// looked up for another spec (one registered again since): the merge
// then looks each up.
func (c *compiledHook) rulesFor(spec *EventSpec) *staticRules {
	for i := range c.staticRules {
		if c.staticRules[i].spec == spec {
			return &c.staticRules[i]
		}
	}
	return nil
}

// decisionSpellings counts the names a result gives a decision under
// (decision, Decision, permissionDecision, ...) with a value that says
// something.
func decisionSpellings(res Result) int {
	n := 0
	for k, v := range res {
		if canonicalField(k) == fieldDecision && given(v) {
			n++
		}
	}
	return n
}

func (r *registry) hookExists(id string) bool {
	for _, h := range r.goHooks {
		if h.ID == id {
			return true
		}
	}
	for _, h := range r.cfgHooks {
		if h.ID == id {
			return true
		}
	}
	return false
}

// effectiveSettings layers the loaded config over the options.
func (r *registry) effectiveSettings() settings {
	s := r.base
	if r.hasCfg {
		if r.cfgSet.MaxConcurrency > 0 {
			s.maxConcurrency = r.cfgSet.MaxConcurrency
		}
		if r.cfgSet.DefaultTimeout > 0 {
			s.defaultTimeout = r.cfgSet.DefaultTimeout
		}
		if r.cfgSet.StopBlockCap != nil {
			s.stopBlockCap = *r.cfgSet.StopBlockCap
		}
	}
	return s
}

// build makes a new immutable snapshot.
func (r *registry) build() *snapshot {
	s := &snapshot{
		events:   make([]*eventEntry, len(r.specs)),
		byName:   make(map[string]EventID, len(r.names)),
		settings: r.effectiveSettings(),
	}
	for n, id := range r.names {
		if r.specs[id] != nil {
			s.byName[n] = id
		}
	}
	s.names = newNameTable(s.byName)
	byEvent := map[string]*eventEntry{}
	for id, spec := range r.specs {
		if spec == nil {
			continue
		}
		e := &eventEntry{id: EventID(id), spec: spec}
		s.events[id] = e
		byEvent[spec.Name] = e
	}
	add := func(h *compiledHook) {
		if r.disabled[h.ID] {
			cp := *h
			cp.Disabled = true
			h = &cp
		}
		for _, n := range h.events {
			if e := byEvent[n]; e != nil {
				e.all = append(e.all, h)
			}
		}
	}
	for _, h := range r.cfgHooks {
		add(h)
	}
	for _, h := range r.goHooks {
		add(h)
	}
	for _, e := range s.events {
		if e == nil || len(e.all) == 0 {
			continue
		}
		slices.SortStableFunc(e.all, func(a, b *compiledHook) int {
			if c := cmp.Compare(a.Rank, b.Rank); c != 0 {
				return c
			}
			if c := cmp.Compare(b.Priority, a.Priority); c != 0 {
				return c
			}
			return cmp.Compare(a.seq, b.seq)
		})
		for _, h := range e.all {
			if e.spec.toolEvent && readsTool(h) {
				e.needsTool = true
			}
			switch {
			case h.Background:
				e.background = append(e.background, h)
			case e.spec.Strategy == Void || h.Observe:
				e.parallel = append(e.parallel, h)
			default:
				e.chain = append(e.chain, h)
			}
		}
		if r.off.Has(fastpath.EngineEntrant) {
			continue
		}
		if e.entrant = entrantOf(e); e.entrant != nil {
			e.entryKey = e.entrant.EntryKey()
		}
	}
	return s
}

// entrantOf returns the Entrant an event's fires run inside: one whose
// key two or more of the synchronous hooks share, when all of those are
// inline and every Entrant among them can share a setup (a nil key says
// it cannot).
func entrantOf(e *eventEntry) Entrant {
	var first Entrant
	var key any
	n := 0
	for _, hooks := range [2][]*compiledHook{e.chain, e.parallel} {
		for _, h := range hooks {
			if !h.inline && h.static == nil {
				return nil
			}
			en, ok := h.Handler.(Entrant)
			if !ok || h.Disabled {
				continue
			}
			switch k := en.EntryKey(); {
			case k == nil:
				return nil // a hook that cannot share the setup would wait on it
			case first == nil:
				first, key, n = en, k, 1
			case k == key:
				n++
			}
		}
	}
	if n < 2 {
		return nil
	}
	return first
}

// readsTool reports whether a hook may read the payload's ToolField.
func readsTool(h *compiledHook) bool {
	if h.cond != nil && h.cond.Reads(ToolField) {
		return true
	}
	if h.static != nil {
		return false
	}
	ta, ok := h.Handler.(ToolAware)
	return !ok || !ta.ToolAware()
}

// camelField spells a snake_case field in camelCase (tool_name -> toolName).
func camelField(s string) string {
	if !strings.Contains(s, "_") {
		return s
	}
	var b strings.Builder
	up := false
	for _, r := range s {
		if r == '_' {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String()
}
