package hosts_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
)

// FuzzInstallEdit: whatever file install is given, it either refuses it
// or returns JSON in which every key but "hooks" (and a host's default
// "version") is what it was, each entry that is not an earlier install's
// is still there, and a second install changes nothing.
func FuzzInstallEdit(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `{"a":1}`, "{\n  \"a\": [1, 2],\n  \"hooks\": {}\n}\n", `{"hooks": null}`,
		`{"hooks": {"PreToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": "hookctl claude --config /p/h.hcl"}]}, {"command": "./x"}]}}`,
		"{\r\n\t\"hooks\": {\"Stop\": []},\r\n\t\"z\": \"\\u00e9\"\r\n}", `{"hooks": {"Stop": [{"bash": "hookctl hook --host copilot --config '/p/h.hcl' --event agentStop"}]}}`,
		`[]`, `{"hooks": []}`, `{"a": 1, "a": 2}`, `"x"`, `{"hooks": {"Stop": [1, "x", null, {}]}}`,
	} {
		f.Add(s)
	}
	reg := hosts.New()
	f.Fuzz(func(t *testing.T, existing string) {
		for _, name := range reg.Names() {
			h, _ := reg.Lookup(name)
			req := protocol.InstallRequest{Events: []string{"PreToolUse", "Stop"}, Program: "hookctl", Config: "/p/h.hcl", ProjectDir: "/p"}
			res, err := h.Install([]byte(existing), req)
			if err != nil {
				continue
			}
			var before, after map[string]any
			if !json.Valid(res.Data) || json.Unmarshal(res.Data, &after) != nil {
				t.Fatalf("%s: %q gave invalid JSON %q", name, existing, res.Data)
			}
			if len(existing) > 0 && json.Unmarshal([]byte(existing), &before) == nil {
				bh, _ := before["hooks"].(map[string]any)
				ah, _ := after["hooks"].(map[string]any)
				for ev, list := range bh {
					l, _ := list.([]any)
					for _, e := range l {
						if b, _ := json.Marshal(e); strings.Contains(string(b), "hookctl") {
							continue
						}
						found := false
						al, _ := ah[ev].([]any)
						for _, x := range al {
							found = found || reflect.DeepEqual(x, e)
						}
						if !found {
							t.Fatalf("%s: %q: the entry %v of %s is gone:\n%s", name, existing, e, ev, res.Data)
						}
					}
				}
				for k, v := range before {
					if k == "hooks" {
						continue
					}
					if !reflect.DeepEqual(after[k], v) {
						t.Fatalf("%s: %q: key %q changed to %v", name, existing, k, after[k])
					}
				}
			}
			again, err := h.Install(res.Data, req)
			if err != nil || string(again.Data) != string(res.Data) {
				t.Fatalf("%s: %q: a second install changed\n%s\ninto\n%s (%v)", name, existing, res.Data, again.Data, err)
			}
		}
	})
}
