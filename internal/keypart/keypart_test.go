package keypart

import (
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"":                                     "",
		"4b9c2a1e-1f0e-4a7a-9d3f-2f7c9a1b0c3d": "4b9c2a1e-1f0e-4a7a-9d3f-2f7c9a1b0c3d",
		"a/b":                                  "a%2Fb",
		"a%2Fb":                                "a%252Fb",
		"%/":                                   "%25%2F",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEscapedPartsDoNotCollide(t *testing.T) {
	// A scope's part escaped, then a key that may hold "/".
	if x, y := Escape("a")+"/b/x", Escape("a/b")+"/x"; x == y {
		t.Errorf("session a key b/x and session a/b key x are both %q", x)
	}
	if x, y := Escape("a%2Fb"), Escape("a/b"); x == y {
		t.Errorf("a%%2Fb and a/b both escape to %q", x)
	}
}

func FuzzEscapeInjective(f *testing.F) {
	f.Add("a/b", "a%2Fb")
	f.Fuzz(func(t *testing.T, a, b string) {
		ea, eb := Escape(a), Escape(b)
		if strings.Contains(ea, "/") {
			t.Fatalf("Escape(%q) = %q has a /", a, ea)
		}
		if a != b && ea == eb {
			t.Fatalf("Escape(%q) == Escape(%q) == %q", a, b, ea)
		}
	})
}

// TestNoneIsNoEscapedID: the part of no id is no real id's.
func TestNoneIsNoEscapedID(t *testing.T) {
	if ID("") != None {
		t.Fatalf("ID(\"\") = %q, want None", ID(""))
	}
	for _, id := range []string{"none", "%none", "%25none", None} {
		if ID(id) == None {
			t.Errorf("ID(%q) is None", id)
		}
	}
}

func FuzzIDNeverNone(f *testing.F) {
	f.Add("%none")
	f.Fuzz(func(t *testing.T, id string) {
		if id != "" && ID(id) == None {
			t.Fatalf("ID(%q) is None", id)
		}
	})
}
