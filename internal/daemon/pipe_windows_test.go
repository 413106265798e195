//go:build windows

package daemon

import (
	"strings"
	"testing"
)

// TestPipeDirIsMine: on Windows Dir is the prefix of this user's
// daemons' pipes, and Socket a pipe under it.
func TestPipeDirIsMine(t *testing.T) {
	sid, err := MySID()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := PipeDir(sid)
	dir, err := Dir()
	if err != nil || dir != want {
		t.Fatalf("Dir = %q %v, want %q", dir, err, want)
	}
	if s := Socket(dir, "id", `C:\w`, ProcessAttrs(), nil); !strings.HasPrefix(s, dir+"-") || len(s) != len(dir)+1+24 {
		t.Fatalf("Socket = %q", s)
	}
	if a := ProcessAttrs(); !strings.HasPrefix(a, "integrity=") || a == "integrity=?" {
		t.Fatalf("ProcessAttrs = %q", a)
	}
}
