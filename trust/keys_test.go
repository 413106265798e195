package trust

import (
	"crypto/rand"
	"path/filepath"
	"testing"

	"aead.dev/minisign"
)

func TestTrustKey(t *testing.T) {
	tf := filepath.Join(t.TempDir(), "trusted.json")
	t.Setenv(FileEnv, tf)
	pk, _, err := minisign.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if ks, err := Keys(); err != nil || len(ks) != 0 {
		t.Fatalf("%v %v", ks, err)
	}
	if _, again, err := TrustKey(tf, pk, "org.pub"); err != nil || again {
		t.Fatal(again, err)
	}
	if _, again, err := TrustKey(tf, pk, "org.pub"); err != nil || !again {
		t.Fatal(again, err)
	}
	ks, err := NewIndex().Keys()
	if err != nil || len(ks) != 1 || !ks[0].Equal(pk) {
		t.Fatalf("%v %v", ks, err)
	}
	if err := RevokeKey(tf, pk); err != nil {
		t.Fatal(err)
	}
	if ks, _ := Keys(); len(ks) != 0 {
		t.Fatal("revoked key still trusted")
	}
	if err := RevokeKey(tf, pk); err == nil {
		t.Fatal("revoked twice")
	}
}
