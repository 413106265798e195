package dtsgen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/schema"
)

const declFile = "../../stdlib/hookctl.d.ts"

func readDecl(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(declFile)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDeclarationsAreUpToDate: the shipped file's events section is what
// the catalog gives; a catalog change without `go generate ./stdlib`
// fails here.
func TestDeclarationsAreUpToDate(t *testing.T) {
	file := readDecl(t)
	want, err := Splice(file, Render(engine.BuiltinEvents()))
	if err != nil {
		t.Fatal(err)
	}
	if file != want {
		t.Fatalf("%s is not what the event catalog gives: run go generate ./stdlib", declFile)
	}
}

// block returns the body of `interface name ... {` in file.
func block(file, name string) (string, bool) {
	re := regexp.MustCompile(`(?m)^interface ` + regexp.QuoteMeta(name) + `\b[^{]*\{\n`)
	loc := re.FindStringIndex(file)
	if loc == nil {
		return "", false
	}
	rest := file[loc[1]:]
	end := strings.Index(rest, "\n}\n")
	if end < 0 {
		return "", false
	}
	return rest[:end+1], true
}

// declares reports whether an interface body declares a property.
func declares(body, prop string) bool {
	q := regexp.QuoteMeta(prop)
	return regexp.MustCompile(`(?m)^  (?:` + q + `|"` + q + `")\??: `).MatchString(body)
}

// TestEveryEventAndFieldIsDeclared: every event of the catalog has a
// payload interface naming its hook_event_name and matcher field, and a
// result interface with its decisions and every result field it merges;
// both are in the maps a Handler<E> reads.
func TestEveryEventAndFieldIsDeclared(t *testing.T) {
	file := readDecl(t)
	events, _ := block(file, "HookEvents")
	results, _ := block(file, "HookResults")
	seen := map[string]string{}
	for _, s := range engine.BuiltinEvents() {
		name := TypeName(s.Name)
		if other, dup := seen[name]; dup {
			t.Errorf("%s and %s have the same type name %s", s.Name, other, name)
		}
		seen[name] = s.Name
		ev, ok := block(file, name+"Event")
		if !ok {
			t.Errorf("%s: no interface %sEvent", s.Name, name)
			continue
		}
		if !strings.Contains(ev, "  hook_event_name: "+strconv.Quote(s.Name)+";\n") {
			t.Errorf("%s: %sEvent does not name its hook_event_name", s.Name, name)
		}
		if s.MatcherField != "" && !declares(ev, s.MatcherField) {
			t.Errorf("%s: %sEvent does not declare its matcher field %s", s.Name, name, s.MatcherField)
		}
		res, ok := block(file, name+"Result")
		if !ok {
			t.Errorf("%s: no interface %sResult", s.Name, name)
			continue
		}
		if len(s.Decisions) > 0 && !strings.Contains(res, "  decision?: "+union(s.Decisions)+";\n") {
			t.Errorf("%s: %sResult does not list the decisions %v", s.Name, name, s.Decisions)
		}
		if s.DecisionField != "" && !declares(res, s.DecisionField) {
			t.Errorf("%s: %sResult does not declare its decision field %s", s.Name, name, s.DecisionField)
		}
		for f, r := range s.Merge {
			if r.Rule != engine.MergeIgnore && !declares(res, f) {
				t.Errorf("%s: %sResult does not declare the result field %s", s.Name, name, f)
			}
		}
		if !declares(events, s.Name) || !declares(results, s.Name) {
			t.Errorf("%s: missing from HookEvents or HookResults", s.Name)
		}
	}
}

// TestRealPayloadsAreDeclared: every field of every payload the real
// Claude Code CLI sent (testdata/claude-code, recorded) is declared, by
// the event's interface or by HookEventBase.
func TestRealPayloadsAreDeclared(t *testing.T) {
	file := readDecl(t)
	base, ok := block(file, "HookEventBase")
	if !ok {
		t.Fatal("no HookEventBase")
	}
	files, err := filepath.Glob("testdata/claude-code/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no payloads: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var payload map[string]any
		if err := json.Unmarshal(b, &payload); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		event, _ := payload["hook_event_name"].(string)
		ev, ok := block(file, TypeName(event)+"Event")
		if !ok {
			t.Errorf("%s: no interface for %q", f, event)
			continue
		}
		for k := range payload {
			if !declares(ev, k) && !declares(base, k) {
				t.Errorf("%s: %s is declared neither by %sEvent nor by HookEventBase", filepath.Base(f), k, TypeName(event))
			}
		}
	}
}

func TestTypeName(t *testing.T) {
	for in, want := range map[string]string{
		"PreToolUse": "PreToolUse", "before_model_resolve": "BeforeModelResolve",
		"command:new": "CommandNew", "session:auto-reset": "SessionAutoReset", "gateway:pre-restart": "GatewayPreRestart",
	} {
		if got := TypeName(in); got != want {
			t.Errorf("TypeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSpliceNeedsTheMarkers(t *testing.T) {
	if _, err := Splice("interface X {}\n", "y"); err == nil {
		t.Fatal("spliced a file without markers")
	}
	got, err := Splice("a\n"+Begin+"\nold\n"+End+"\nb\n", "new\n")
	if err != nil || got != "a\n"+Begin+"\nnew\n"+End+"\nb\n" {
		t.Fatalf("%q %v", got, err)
	}
}

// TestToolInputsAreDeclared: every tool whose input package schema knows
// has an interface declaring each of its members, named in ToolInputs;
// ToolInput declares them all; HookEventBase every common field.
func TestToolInputsAreDeclared(t *testing.T) {
	file := readDecl(t)
	all, ok := block(file, "ToolInput")
	if !ok {
		t.Fatal("no ToolInput")
	}
	inputs, ok := block(file, "ToolInputs")
	if !ok {
		t.Fatal("no ToolInputs")
	}
	for _, name := range schema.Tools() {
		in, _ := schema.ToolInput(name)
		body, ok := block(file, TypeName(name)+"Input")
		if !ok {
			t.Errorf("%s: no interface %sInput", name, TypeName(name))
			continue
		}
		for _, f := range in.Fields {
			if !declares(body, f.Name) || !declares(all, f.Name) {
				t.Errorf("%s: %s is not declared by %sInput and ToolInput", name, f.Name, TypeName(name))
			}
		}
		if !declares(inputs, name) {
			t.Errorf("%s: missing from ToolInputs", name)
		}
	}
	base, _ := block(file, "HookEventBase")
	for _, f := range schema.Common() {
		if !declares(base, f.Name) {
			t.Errorf("HookEventBase does not declare %s", f.Name)
		}
	}
}
