package shquote

import (
	"os/exec"
	"testing"
)

func TestQuoteRoundTrips(t *testing.T) {
	for _, s := range []string{"plain/path.sh", "it's mine", "a b", "$HOME", "`x`", "tab\there", "bell\a", ""} {
		out, err := exec.Command("sh", "-c", "printf %s "+Quote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("%q quoted as %s gives %q (%v)", s, Quote(s), out, err)
		}
	}
	if Quote("plain/path.sh") != "plain/path.sh" {
		t.Error("a word that needs no quoting was quoted")
	}
}
