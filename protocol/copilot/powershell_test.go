package copilot

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hookctl/hookctl/protocol"
)

// psVerbatim reads a PowerShell verbatim string literal at the start of
// s as the language specification defines it (a quote character ends
// it, two in a row are one) and returns its value and the rest.
func psVerbatim(s string) (string, string, bool) {
	r, n := utf8.DecodeRuneInString(s)
	if !strings.ContainsRune(psQuoteChars, r) {
		return "", s, false
	}
	s = s[n:]
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		s = s[n:]
		if strings.ContainsRune(psQuoteChars, r) {
			r2, n2 := utf8.DecodeRuneInString(s)
			if len(s) > 0 && strings.ContainsRune(psQuoteChars, r2) {
				b.WriteRune(r2)
				s = s[n2:]
				continue
			}
			return b.String(), s, true
		}
		b.WriteRune(r)
	}
	return "", "", false
}

// FuzzPSWord: a word quoted for PowerShell reads back as itself and ends
// where the quoting ends.
func FuzzPSWord(f *testing.F) {
	for _, s := range []string{`C:\Users\me\my proj\hooks.hcl`, "it's", "a\u2019b", "$(calc)", "`x", "''", "\u2018\u2019", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		q, err := psWord(s)
		if err != nil {
			return
		}
		got, rest, ok := psVerbatim(q + " tail")
		if !ok || got != s || rest != " tail" {
			t.Fatalf("%q quoted as %s reads back as %q, rest %q", s, q, got, rest)
		}
	})
}

// TestInstallWritesPowerShell: every entry has the powershell command
// Copilot CLI runs on Windows, its words quoted for PowerShell, with the
// entry's timeout as --host-timeout as the bash command has it.
func TestInstallWritesPowerShell(t *testing.T) {
	res, err := New().Install(nil, protocol.InstallRequest{Events: []string{"PreToolUse"}, Program: `C:\Program Files\hookctl\hookctl.exe`, Config: `C:\it's\hooks.hcl`})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Hooks map[string][]map[string]any `json:"hooks"`
	}
	json.Unmarshal(res.Data, &doc)
	e := doc.Hooks["preToolUse"][0]
	want := `& 'C:\Program Files\hookctl\hookctl.exe' hook --host copilot --config 'C:\it''s\hooks.hcl' --host-timeout 30s --event preToolUse`
	if e["powershell"] != want {
		t.Fatalf("powershell: %v\nwant %s", e["powershell"], want)
	}
	if b, _ := e["bash"].(string); !strings.HasPrefix(b, `'C:\Program Files\hookctl\hookctl.exe' hook --host copilot`) || !strings.HasSuffix(b, ` --host-timeout 30s --event preToolUse`) {
		t.Fatalf("bash: %v", e["bash"])
	}
}
