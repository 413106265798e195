package lint

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
)

// A declared function no condition calls warns at its block; one a
// condition calls does not, nor does a payload field read beside it.
func TestUnusedFunctionWarns(t *testing.T) {
	eng, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	cfg := hcl.ParseSource("hooks.hcl", []byte(`function "isOnCall" {
  params = ["string"]
  result = "bool"
}
function "owner" {
  params = ["string"]
  result = "string"
}
hook "a" {
  event    = "PreToolUse"
  when     = "isOnCall(session_id) && $env.owner == 'x'"
  decision = "deny"
}
`), ".", hcl.WithCatalog(eng))
	if d := cfg.Diagnostics(); d.HasErrors() {
		t.Fatal(d)
	}
	var got []string
	for _, d := range Check(cfg, eng) {
		if d.Summary == "Unused function" {
			got = append(got, fmt.Sprintf("%d:%d %s", d.Line, d.Column, d.Detail))
		}
	}
	if strings.Join(got, "\n") != "5:1 No hook's `when` calls owner: the declaration checks nothing." {
		t.Fatalf("%q", got)
	}
}
