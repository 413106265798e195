package bench

import "testing"

// TestShellFormKeepsWords: a process peer run through sh -c gets its
// arguments as given, spaces and quotes included.
func TestShellFormKeepsWords(t *testing.T) {
	out, err := ShellForm("printf", "%s|", "a b", "it's", `"$HOME"`, "").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), `a b|it's|"$HOME"||`; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
