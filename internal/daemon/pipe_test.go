package daemon

import (
	"errors"
	"strings"
	"testing"
)

const (
	aliceSID = "S-1-5-21-3623811015-3361044348-30300820-1013"
	bobSID   = "S-1-5-21-3623811015-3361044348-30300820-1014"
)

// TestPipeDir: a user's daemons' pipes share a prefix under \\.\pipe\
// made from the user's SID; another user's differ; anything that is not
// a SID (an SDDL fragment above all) is refused.
func TestPipeDir(t *testing.T) {
	a, err := PipeDir(aliceSID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a, `\\.\pipe\hookctl-`) || len(a) != len(`\\.\pipe\hookctl-`)+16 || strings.Contains(a[len(`\\.\pipe\`):], `\`) {
		t.Fatalf("pipe dir %q", a)
	}
	if again, _ := PipeDir(aliceSID); again != a {
		t.Fatalf("not stable: %q %q", a, again)
	}
	if b, _ := PipeDir(bobSID); b == a {
		t.Fatal("two users share a pipe prefix")
	}
	if !IsPipe(a) || !IsPipe(`\\.\PIPE\x`) || IsPipe("/run/user/1000/hookctl/x.sock") || IsPipe(`C:\pipe\x`) {
		t.Fatal("IsPipe")
	}
	name := pipeName(a, strings.Repeat("0", 24))
	if name != a+"-"+strings.Repeat("0", 24) || len(name) > 256 {
		t.Fatalf("pipe name %q", name)
	}
	for _, bad := range []string{"", "S-1-", "S-1-5-", "S-1-5--1", "s-1-5-18", "S-1-5-18)(A;;GA;;;WD", "S-1-5-18;WD", "WD", "S-1-5-18 ", "S-1-99999999999"} {
		if _, err := PipeDir(bad); err == nil {
			t.Errorf("PipeDir(%q) accepted", bad)
		}
		if _, err := PipeSecurity(bad); err == nil {
			t.Errorf("PipeSecurity(%q) accepted", bad)
		}
	}
}

// TestPipeSecurity: the pipe is owned by its user, whose one entry in a
// protected DACL (no inherited entry) gives all access; nobody else is
// named, so nobody else may open it or add an instance of it.
func TestPipeSecurity(t *testing.T) {
	sd, err := PipeSecurity(aliceSID)
	if err != nil {
		t.Fatal(err)
	}
	if want := "O:" + aliceSID + "D:P(A;;GA;;;" + aliceSID + ")"; sd != want {
		t.Fatalf("%q, want %q", sd, want)
	}
	if sd2, _ := PipeSecurity("S-1-5-18"); sd2 != "O:S-1-5-18D:P(A;;GA;;;S-1-5-18)" {
		t.Fatalf("SYSTEM: %q", sd2)
	}
}

// TestCheckPipeOwner: the client writes its request only to a pipe its
// own user owns: one another user created first, or whose owner cannot be
// read, gets nothing.
func TestCheckPipeOwner(t *testing.T) {
	owner := func(sid string, err error) func() (string, error) {
		return func() (string, error) { return sid, err }
	}
	if err := checkPipeOwner(owner(aliceSID, nil), aliceSID); err != nil {
		t.Fatalf("own pipe: %v", err)
	}
	if err := checkPipeOwner(owner(bobSID, nil), aliceSID); !errors.Is(err, ErrNotMyPipe) {
		t.Fatalf("another user's pipe: %v", err)
	}
	if err := checkPipeOwner(owner("S-1-5-32-544", nil), aliceSID); !errors.Is(err, ErrNotMyPipe) {
		t.Fatalf("Administrators' pipe: %v", err)
	}
	if err := checkPipeOwner(owner(aliceSID, errors.New("access denied")), aliceSID); err == nil {
		t.Fatal("an unreadable owner passed")
	}
	if err := checkPipeOwner(owner("", nil), ""); err == nil {
		t.Fatal("no SID on either side passed")
	}
}

// TestCountPipes: Live on Windows counts the pipes under the user's
// prefix as \\.\pipe\ lists them (case does not matter there), not
// another user's nor other programs'.
func TestCountPipes(t *testing.T) {
	a, _ := PipeDir(aliceSID)
	b, _ := PipeDir(bobSID)
	base := func(dir string) string { return strings.TrimPrefix(dir, `\\.\pipe\`) }
	names := []string{
		base(a) + "-0123456789abcdef01234567",
		strings.ToUpper(base(a)) + "-0123456789abcdef01234568",
		base(a) + "-",   // the prefix alone: not a daemon's
		base(a) + "0-x", // a longer hash
		base(b) + "-0123456789abcdef01234567",
		"InitShutdown", "lsass", "docker_engine",
	}
	if n := countPipes(names, a); n != 2 {
		t.Fatalf("counted %d, want 2", n)
	}
	if n := countPipes(names, b); n != 1 {
		t.Fatalf("bob: counted %d, want 1", n)
	}
}

// TestCheckPipeServer: the client writes its request only to a pipe
// served by a process that runs as it does: the same user at the same
// integrity level, sandboxed exactly when it is; one that cannot be read
// is refused too.
func TestCheckPipeServer(t *testing.T) {
	me := serverIdentity{SID: "S-1-5-21-1-2-3-1001", Integrity: 0x2000}
	read := func(id serverIdentity, err error) func() (serverIdentity, error) {
		return func() (serverIdentity, error) { return id, err }
	}
	if err := checkPipeServer(read(me, nil), me); err != nil {
		t.Fatalf("its own daemon refused: %v", err)
	}
	low, sandboxed, other := me, me, me
	low.Integrity = 0x1000
	sandboxed.Sandboxed = true
	other.SID = "S-1-5-21-1-2-3-1002"
	for name, c := range map[string]func() (serverIdentity, error){
		"low integrity": read(low, nil), "sandboxed": read(sandboxed, nil), "another user": read(other, nil),
		"unreadable": read(serverIdentity{}, errors.New("access denied")),
	} {
		if err := checkPipeServer(c, me); !errors.Is(err, ErrNotMyDaemon) {
			t.Errorf("%s: %v, want ErrNotMyDaemon", name, err)
		}
	}
	if err := checkPipeServer(read(me, nil), serverIdentity{}); !errors.Is(err, ErrNotMyDaemon) {
		t.Errorf("a client that cannot read its own token: %v", err)
	}
}
