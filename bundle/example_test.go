package bundle_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"aead.dev/minisign"

	"github.com/hookctl/hookctl/bundle"
)

// An organisation signs its policy directory into a bundle; a user who
// trusts the organisation's public key opens it.
func Example() {
	dir, _ := os.MkdirTemp("", "policy")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "hooks.hcl"), []byte("hook \"guard\" {\n  event = \"PreToolUse\"\n  js    = \"return {}\"\n}\n"), 0o644)

	pub, priv, _ := bundle.GenerateKey("") // unencrypted: for the example
	var pk minisign.PublicKey
	bundle.ParsePublicKey(pub, &pk)
	var sk minisign.PrivateKey
	sk.UnmarshalText(priv)

	var buf bytes.Buffer
	if err := bundle.Build(context.Background(), dir, sk, &buf); err != nil {
		fmt.Println(err)
		return
	}
	file := filepath.Join(dir, "policy.bundle")
	os.WriteFile(file, buf.Bytes(), 0o644)

	m, err := bundle.Verify(file, []minisign.PublicKey{pk})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range m.Files {
		fmt.Println(f.Path, f.Size)
	}
	opened, err := bundle.Open(context.Background(), file, []minisign.PublicKey{pk}, filepath.Join(dir, "cache"))
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(filepath.Join(opened, "hooks.hcl"))
	fmt.Println(len(b))
	// Output:
	// hooks.hcl 62
	// 62
}
