package secrets_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lib/secrets"
)

func FuzzScan(f *testing.F) {
	for _, tc := range positives {
		f.Add(tc.text)
	}
	for _, tc := range negatives {
		f.Add(tc.text)
	}
	f.Add("-----BEGIN RSA PRIVATE KEY-----")
	f.Add("token=\"\\\"")
	f.Add("eyJ.eyJ.")
	f.Add("https://:@")
	f.Add("\xff\xfepassword=\xc3")
	kinds := secrets.Kinds()
	f.Fuzz(func(t *testing.T, text string) {
		found := secrets.Scan(text)
		for i, fd := range found {
			if fd.Start < 0 || fd.End > len(text) || fd.Start >= fd.End {
				t.Fatalf("bad span %+v for %d bytes", fd, len(text))
			}
			if text[fd.Start:fd.End] != fd.Match {
				t.Fatalf("Match %q is not text[%d:%d]", fd.Match, fd.Start, fd.End)
			}
			if !slices.Contains(kinds, fd.Kind) {
				t.Fatalf("unknown kind %q", fd.Kind)
			}
			if i > 0 && found[i-1].End > fd.Start {
				t.Fatalf("findings overlap or are unsorted: %+v then %+v", found[i-1], fd)
			}
		}
		if got := secrets.Contains(text); got != (len(found) > 0) {
			t.Fatalf("Contains = %v but Scan found %d", got, len(found))
		}
		if got := secrets.RedactWith(text, func(f secrets.Finding) string { return f.Match }); got != text {
			t.Fatalf("identity RedactWith changed the text")
		}
		if len(found) == 0 && secrets.Redact(text) != text {
			t.Fatalf("Redact changed text without findings")
		}
		// Replace each finding by one NUL: the NULs of the result are those
		// of the text outside the findings plus one per finding.
		kept := strings.Count(text, "\x00")
		for _, fd := range found {
			kept -= strings.Count(fd.Match, "\x00")
		}
		red := secrets.RedactWith(text, func(secrets.Finding) string { return "\x00" })
		if n := strings.Count(red, "\x00") - kept; n != len(found) {
			t.Fatalf("RedactWith made %d replacements for %d findings", n, len(found))
		}
	})
}
