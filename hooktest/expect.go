package hooktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/jsonx"
)

// Failure is one expectation a test's outcome did not meet.
type Failure struct {
	// At is where the expectation is written, file:line.
	At string `json:"at"`
	// Field names what differed: decision, blocked, reason,
	// additional_context, updated_input.command, output.replicas,
	// state.rewrote, hooks.no-rm.
	Field string `json:"field"`
	// Want and Got say what was expected and what the outcome had.
	Want string `json:"want"`
	Got  string `json:"got"`
}

func (f Failure) String() string {
	return fmt.Sprintf("%s: %s: want %s, got %s", f.At, f.Field, f.Want, f.Got)
}

// compare checks an outcome against the test's expectations, in a fixed
// order: decision, blocked, reason, additional_context (whole, then
// contains), updated_input,
// output, state, then each hook by id; last, the hooks that failed when
// the test did not expect it.
//
// bg are the final traces of the background hooks the fire queued: a
// hook expected "error" or "timeout" may be one of them (the outcome says
// "queued"), and one that failed fails the test unless so expected.
func compare(tb *hcl.TestBlock, out engine.Outcome, bg []engine.HookTrace) []Failure {
	final := make(map[string]engine.HookTrace, len(bg))
	for _, tr := range bg {
		final[tr.ID] = tr
	}
	var fs []Failure
	e := tb.Expect
	if e == nil {
		e = &hcl.Expect{}
	}
	at := func(attr string) string {
		if r, ok := e.Ranges[attr]; ok {
			return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line)
		}
		return fmt.Sprintf("%s:%d", tb.Range.Filename, tb.Range.Start.Line)
	}
	fail := func(attr, field, want, got string) {
		fs = append(fs, Failure{At: at(attr), Field: field, Want: want, Got: got})
	}
	if e.Has("decision") && string(out.Decision) != e.Decision {
		fail("decision", "decision", decisionText(e.Decision), decisionText(string(out.Decision)))
	}
	if e.Has("blocked") && out.Blocked != e.Blocked {
		fail("blocked", "blocked", fmt.Sprint(e.Blocked), fmt.Sprint(out.Blocked)+blockedWhy(out))
	}
	if e.Has("reason_contains") && !strings.Contains(out.Reason, e.ReasonContains) {
		fail("reason_contains", "reason", "it to contain "+quote(e.ReasonContains), quote(out.Reason))
	}
	if e.Has("additional_context") && out.AdditionalContext != e.AdditionalContext {
		fail("additional_context", "additional_context", quote(e.AdditionalContext), quote(out.AdditionalContext))
	}
	if e.Has("additional_context_contains") && !strings.Contains(out.AdditionalContext, e.AdditionalContextContains) {
		fail("additional_context_contains", "additional_context", "it to contain "+quote(e.AdditionalContextContains), quote(out.AdditionalContext))
	}
	if e.Has("updated_input") {
		switch {
		case e.UpdatedInput == nil && out.UpdatedInput != nil:
			fail("updated_input", "updated_input", "null (no rewrite)", render(out.UpdatedInput))
		case e.UpdatedInput != nil && out.UpdatedInput == nil:
			fail("updated_input", "updated_input", render(e.UpdatedInput), "null (no rewrite)")
		case e.UpdatedInput != nil:
			for _, d := range subset("updated_input", e.UpdatedInput, out.UpdatedInput) {
				fail("updated_input", d.Field, d.Want, d.Got)
			}
		}
	}
	for _, m := range []struct {
		attr      string
		want, got map[string]any
	}{{"output", e.Output, out.Output}, {"state", e.State, out.State}} {
		if e.Has(m.attr) {
			for _, d := range subset(m.attr, m.want, m.got) {
				fail(m.attr, d.Field, d.Want, d.Got)
			}
		}
	}
	for _, id := range sortedKeys(e.Hooks) {
		want := e.Hooks[id]
		tr, ok := out.Hook(id)
		got := "not in the outcome"
		if ok {
			if tr.Status == want {
				continue
			}
			if f, ran := final[id]; ran && tr.Status == engine.StatusQueued {
				if f.Status == want {
					continue
				}
				tr = f
			}
			got = statusText(tr)
		}
		r := e.HookRanges[id]
		fs = append(fs, Failure{At: fmt.Sprintf("%s:%d", r.Filename, r.Start.Line), Field: "hooks." + id, Want: string(want), Got: got})
	}
	// In the order they are written; the hook failures nobody expected,
	// at the test's line, last.
	sort.SliceStable(fs, func(i, j int) bool { return atLess(fs[i].At, fs[j].At) })
	for _, tr := range out.Hooks {
		if tr.Status != engine.StatusError && tr.Status != engine.StatusTimeout {
			continue
		}
		if _, expected := e.Hooks[tr.ID]; expected {
			continue
		}
		fs = append(fs, Failure{At: at(""), Field: "hooks." + tr.ID, Want: "no failure (expect hooks = { " + tr.ID + " = \"" + string(tr.Status) + "\" } if it should fail)", Got: statusText(tr)})
	}
	for _, tr := range bg {
		if tr.Status != engine.StatusError && tr.Status != engine.StatusTimeout {
			continue
		}
		if want, listed := e.Hooks[tr.ID]; listed && want != engine.StatusQueued {
			continue // expected this failure, or already reported as a mismatch
		}
		fs = append(fs, Failure{At: at(""), Field: "hooks." + tr.ID, Want: "no failure of the background hook (expect hooks = { " + tr.ID + " = \"" + string(tr.Status) + "\" } if it should fail)", Got: statusText(tr)})
	}
	return fs
}

// atLess orders file:line positions by file, then line.
func atLess(a, b string) bool {
	fa, la := splitAt(a)
	fb, lb := splitAt(b)
	if fa != fb {
		return fa < fb
	}
	return la < lb
}

func splitAt(s string) (string, int) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0
	}
	n, _ := strconv.Atoi(s[i+1:])
	return s[:i], n
}

func decisionText(d string) string {
	if d == "" {
		return `"" (no decision)`
	}
	return quote(d)
}

// blockedWhy says what blocked an outcome that is not a decision's doing.
func blockedWhy(out engine.Outcome) string {
	if out.Blocked && !out.Continue {
		return " (continue = false)"
	}
	return ""
}

// statusText is a hook's status with why: the skip reason, the error.
func statusText(tr engine.HookTrace) string {
	s := string(tr.Status)
	switch {
	case tr.Status == engine.StatusSkipped && tr.SkipReason != "":
		s += " (" + tr.SkipReason + ")"
	case tr.Error != "":
		s += ": " + tr.Error
	case tr.Status == engine.StatusDecided && tr.Decision != "":
		s += " (" + string(tr.Decision) + ")"
	}
	return s
}

// subset compares want with got key by key, recursing into objects: every
// key of want must be in got with an equal value (numbers compare by
// value: 4 equals 4.0); a key whose wanted value is null must be absent
// or null. Keys of got that want does not name are not compared.
func subset(path string, want, got map[string]any) []Failure {
	var fs []Failure
	for _, k := range sortedKeys(want) {
		w := want[k]
		g, present := got[k]
		field := path + "." + k
		if w == nil {
			if present && g != nil {
				fs = append(fs, Failure{Field: field, Want: "absent", Got: render(g)})
			}
			continue
		}
		if !present {
			fs = append(fs, Failure{Field: field, Want: render(w), Got: "absent"})
			continue
		}
		wm, wIsMap := w.(map[string]any)
		gm, gIsMap := normalize(g).(map[string]any)
		if wIsMap && gIsMap {
			fs = append(fs, subset(field, wm, gm)...)
			continue
		}
		if !reflect.DeepEqual(normalize(w), normalize(g)) {
			fs = append(fs, Failure{Field: field, Want: render(w), Got: render(g)})
		}
	}
	return fs
}

// normalize turns a value into what the payload decoder (jsonx.Decode)
// makes of its JSON, so that int64(4), float64(4) and json.Number("4")
// are equal, structs and typed maps compare as objects, and integers
// compare exactly (9007199254740993 is not 9007199254740992).
func normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	out, err := jsonx.Decode(b)
	if err != nil {
		return string(b)
	}
	return out
}

// render writes a value as compact JSON, <, > and & as they are.
func render(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func quote(s string) string { return render(s) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
