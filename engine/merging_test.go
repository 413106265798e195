package engine

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestMergingAgreesWithItsTables: the merge table worked out once per
// spec gives every field the rule, and says it is known, exactly as
// reading Merge, then the universal rules, then MergeLast did; and it
// lists the fields equivalents reads, by name, and no other.
func TestMergingAgreesWithItsTables(t *testing.T) {
	plain := func(s *EventSpec, field string) (FieldRule, bool) {
		known := field == fieldDecision || field == fieldReason || field == s.DecisionField
		if r, ok := s.Merge[field]; ok {
			return r, true
		}
		if r, ok := universalMerge[field]; ok {
			return r, true
		}
		return FieldRule{Rule: MergeLast}, known
	}
	custom := EventSpec{Name: "custom", DecisionField: "action", Merge: map[string]FieldRule{
		"reason": {Rule: MergeConcat}, "additional_context": {Rule: MergeFirst},
		"stop": {Rule: MergeSticky, Blocks: true, Terminal: true}, "halt": {Rule: MergeSticky, Terminal: true},
	}}
	for _, s := range append(BuiltinEvents(), custom) {
		registered := s
		registered.merging = newMerging(&registered)
		fields := append(s.ResultFields(), "", "no_such_field", "Decision", "permissionDecision")
		for _, sp := range []*EventSpec{&s, &registered} {
			for _, f := range fields {
				want, wantKnown := plain(&s, f)
				got, known := sp.ruleOf(f)
				if !reflect.DeepEqual(got, want) || known != wantKnown {
					t.Errorf("%s %q: rule %+v known %v, want %+v %v", s.Name, f, got, known, want, wantKnown)
				}
			}
		}
		m := registered.merging
		if _, ok := s.Merge[fieldReason]; m.reasonRule != ok {
			t.Errorf("%s: reasonRule %v", s.Name, m.reasonRule)
		}
		var want []string
		for f, r := range s.Merge {
			if r.Rule == MergeSticky && r.Blocks && r.Terminal || r.Input || r.Ask {
				want = append(want, f)
			}
		}
		slices.Sort(want)
		var got []string
		for _, eq := range m.equiv {
			got = append(got, eq.field)
			if !reflect.DeepEqual(eq.rule, s.Merge[eq.field]) {
				t.Errorf("%s %s: rule %+v", s.Name, eq.field, eq.rule)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: equivalents read %v, want %v", s.Name, got, want)
		}
		if registered.clone().merging != nil {
			t.Errorf("%s: a clone keeps the merging of the spec it copies (its Merge may change)", s.Name)
		}
	}
}

// TestFinishReadsWhatLookupsRead: finish's one pass over the merged
// fields fills the outcome as a look-up of each field it names did, for
// random merged outputs (wrong types, absent fields, a decision field of
// the event's own).
func TestFinishReadsWhatLookupsRead(t *testing.T) {
	lookups := func(spec *EventSpec, out map[string]any, blocked bool) Outcome {
		o := Outcome{Continue: true, Output: out}
		d, _ := out[spec.decisionField()].(string)
		o.Decision = Decision(d)
		o.Reason, _ = out[fieldReason].(string)
		if c, ok := out[fieldContinue].(bool); ok && !c {
			o.Continue = false
		}
		o.StopReason, _ = out["stop_reason"].(string)
		if ui, ok := out["updated_input"].(map[string]any); ok {
			o.UpdatedInput = ui
		}
		o.AdditionalContext, _ = out["additional_context"].(string)
		o.SystemMessage, _ = out["system_message"].(string)
		o.Blocked = blocked || !o.Continue
		return o
	}
	keys := []string{"decision", "action", "reason", "continue", "stop_reason", "updated_input", "additional_context", "system_message", "other"}
	values := []any{"deny", "", "text", true, false, 1.5, nil, map[string]any{"command": "ls"}, []any{"x"}}
	specs := []*EventSpec{
		{Name: "Notification"}, // Source custom: equivalents leave out alone
		{Name: "custom", DecisionField: "action"},
	}
	r := rand.New(rand.NewPCG(28, 5))
	for i := range 4000 {
		spec := specs[i%len(specs)]
		out := map[string]any{}
		for range r.IntN(len(keys) + 1) {
			out[keys[r.IntN(len(keys))]] = values[r.IntN(len(values))]
		}
		if r.IntN(8) == 0 {
			out = nil
		}
		blocked := r.IntN(2) == 0
		want := lookups(spec, out, blocked)
		m := merger{spec: spec, out: out, blocked: blocked}
		got := Outcome{Continue: true}
		m.finish(&got)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s %v: finish gave %+v, look-ups %+v", spec.Name, out, got, want)
		}
	}
}

// TestResultFieldsReadAsLookups: a result read in one pass (fieldsOf,
// readResult) gives what looking each field up gave: the same result or
// error, decision and reason, and a result with no camelCase name left,
// for random results in every output shape (hookSpecificOutput,
// PermissionRequest's decision object, camelCase names, wrong types), put
// in canonical form first as the engine puts them, on events with and
// without a decision.
func TestResultFieldsReadAsLookups(t *testing.T) {
	anyUpper := func(r Result) bool {
		for k := range r {
			if hasUpper(k) {
				return true
			}
		}
		return false
	}
	lookups := func(spec *EventSpec, res Result) (Result, string, string, bool, error) {
		hso, hasHSO := res["hookSpecificOutput"]
		dec, hasDec := res[fieldDecision]
		if !hasDec {
			dec, hasDec = res["permissionDecision"]
		}
		if hasHSO || hasDec && !acceptedDecision(spec, dec) {
			var err error
			if res, err = readOutputShapes(spec, res, hso, hasHSO, dec, hasDec, nil); err != nil {
				return res, "", "", false, err
			}
		}
		d, _ := res[fieldDecision].(string)
		if d == "" {
			d, _ = res["permissionDecision"].(string)
		}
		reason, _ := res[fieldReason].(string)
		return res, d, reason, anyUpper(res), nil
	}
	keys := []string{"decision", "permissionDecision", "reason", "hookSpecificOutput", "additional_context", "additionalContext", "updatedInput", "continue"}
	innerKeys := []string{"hookEventName", "permissionDecision", "permissionDecisionReason", "additionalContext", "decision"}
	values := []any{"deny", "allow", "ask", "DENY", "", nil, 3.0, true, "text",
		map[string]any{"behavior": "allow", "message": "m"}, map[string]any{"behavior": 1}, map[string]any{"command": "ls"}}
	var specs []*EventSpec
	for _, s := range BuiltinEvents() {
		if s.Name == "PreToolUse" || s.Name == "PermissionRequest" || s.Name == "Notification" || s.Name == "Stop" {
			specs = append(specs, &s)
		}
	}
	r := rand.New(rand.NewPCG(28, 7))
	for i := range 20000 {
		spec := specs[i%len(specs)]
		res := Result{}
		for range r.IntN(4) {
			k := keys[r.IntN(len(keys))]
			if k == "hookSpecificOutput" && r.IntN(4) != 0 {
				inner := map[string]any{}
				for range r.IntN(4) {
					inner[innerKeys[r.IntN(len(innerKeys))]] = values[r.IntN(len(values))]
				}
				res[k] = inner
				continue
			}
			res[k] = values[r.IntN(len(values))]
		}
		res = canonicalResult(spec, res)
		wantRes, wantD, wantReason, wantUpper, wantErr := lookups(spec, res)
		f := fieldsOf(res)
		gotRes, gf, gotErr := readResult(spec, res, f, nil)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(gotRes, wantRes) {
			t.Fatalf("%s %v: readResult %v, %v; look-ups %v, %v", spec.Name, res, gotRes, gotErr, wantRes, wantErr)
		}
		if gotErr != nil {
			continue
		}
		d, _ := gf.dec.(string)
		reason, _ := gf.reason.(string)
		if d != wantD || reason != wantReason || wantUpper || gf.alias {
			t.Fatalf("%s %v: decision %q reason %q camelCase %v; look-ups %q %q %v", spec.Name, res, d, reason, gf.alias, wantD, wantReason, wantUpper)
		}
	}
}

// TestLoadReadsWhatFieldsOfReads: a chain hook's result is read as it
// is loaded for the merge (prepared.load), in one pass where fieldsOf and
// then load took two: what the pass finds must be what fieldsOf finds,
// and the prepared result what a load after fieldsOf gives, on random
// results of every shape, loaded into one reused buffer.
func TestLoadReadsWhatFieldsOfReads(t *testing.T) {
	keys := []string{"decision", "Decision", "permissionDecision", "reason", "hookSpecificOutput", "additional_context",
		"additionalContext", "updatedInput", "updated_input", "continue", "ignored", "block", "params"}
	values := []any{"deny", "allow", "", nil, 3.0, true, "text", Decision("deny"), Result{"a": 1},
		map[string]string{"a": "b"}, map[string]any{"behavior": "allow"}, map[string]any{"k": Decision("x")},
		map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny"}}
	var spec *EventSpec
	for _, s := range BuiltinEvents() {
		if s.Name == "PreToolUse" {
			spec = &s
		}
	}
	r := rand.New(rand.NewPCG(28, 11))
	var reused prepared
	for range 20000 {
		res := Result{}
		for range r.IntN(5) {
			res[keys[r.IntN(len(keys))]] = values[r.IntN(len(values))]
		}
		want := fieldsOf(res)
		var info resultFields
		if reused.loadSeeing(res, &info); !reflect.DeepEqual(info, want) {
			t.Fatalf("%v: load read %+v, fieldsOf %+v", res, info, want)
		}
		// The merge loads canonical results (two spellings of one field
		// are settled by canonicalResult first).
		res = canonicalResult(spec, res)
		var plain prepared
		plain.load(res)
		info = resultFields{}
		got := reused.loadSeeing(res, &info)
		if want := fieldsOf(res); !reflect.DeepEqual(info, want) {
			t.Fatalf("%v: load read %+v, fieldsOf %+v", res, info, want)
		}
		if !reflect.DeepEqual(*got, plain) && !(len(got.fields) == 0 && len(plain.fields) == 0) {
			t.Fatalf("%v: loaded into a reused buffer %+v, fresh %+v", res, *got, plain)
		}
	}
}
