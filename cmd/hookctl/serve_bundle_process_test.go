package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aead.dev/minisign"

	"github.com/hookctl/hookctl/bundle"
)

// signedPolicy writes a policy directory whose guard denies rm -rf with
// reason, and returns its bundle signed with sk.
func signedPolicy(t *testing.T, sk minisign.PrivateKey, reason string) []byte {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "hooks.hcl"), `
hook "guard" {
  event    = "PreToolUse"
  matcher  = "Bash"
  script   = "guard.js"
  on_error = "block"
}
`)
	writeFile(t, filepath.Join(dir, "guard.js"), `module.exports = function (event) {
  if (event.tool_input.command.includes("rm -rf")) return { decision: "deny", reason: "`+reason+`" };
};
`)
	var buf bytes.Buffer
	if err := bundle.Build(context.Background(), dir, sk, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func newKeys(t *testing.T, dir, name string) (string, minisign.PrivateKey) {
	t.Helper()
	pub, priv, err := bundle.GenerateKey("")
	if err != nil {
		t.Fatal(err)
	}
	if err := bundle.WriteKeyPair(filepath.Join(dir, name), pub, priv); err != nil {
		t.Fatal(err)
	}
	var sk minisign.PrivateKey
	if err := sk.UnmarshalText(priv); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, name+".pub"), sk
}

// replace puts b at path atomically, as a deploy would.
func replace(t *testing.T, path string, b []byte) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

const bundleRmPayload = `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`

// TestServeProcessBundleSwap: a real `hookctl serve --bundle file://...`
// serves the signed policy, swaps in a new signed bundle, keeps the last
// good one when the next is signed by another key (or tampered), with
// /readyz failing its bundle check naming why, and recovers with the
// next good one.
func TestServeProcessBundleSwap(t *testing.T) {
	dir := t.TempDir()
	pub, sk := newKeys(t, dir, "org")
	_, other := newKeys(t, dir, "other")
	file := filepath.Join(dir, "policy.bundle")
	replace(t, file, signedPolicy(t, sk, "v1 denies"))
	p := startServeArgs(t, "--bundle", "file://"+file, "--bundle-pub", pub, "--bundle-poll", "50ms")
	if r := request("GET", p.base+"/readyz", ""); r.code != 200 {
		t.Fatalf("/readyz: %d %s", r.code, r.raw)
	}
	if r := request("POST", p.base+"/claude", bundleRmPayload); !strings.Contains(r.raw, "v1 denies") {
		t.Fatalf("v1: %d %s", r.code, r.raw)
	}

	// A new signed bundle is swapped in.
	replace(t, file, signedPolicy(t, sk, "v2 denies"))
	if r := waitReply(t, p.base+"/healthz", func(r httpReply) bool { return strings.Contains(p.stderr.String(), "a new signed policy is serving") }); r.err != nil {
		t.Fatal(r.err)
	}
	if r := request("POST", p.base+"/claude", bundleRmPayload); !strings.Contains(r.raw, "v2 denies") {
		t.Fatalf("v2: %d %s\n%s", r.code, r.raw, p.stderr)
	}

	// Signed by another key: refused, v2 keeps serving, /readyz says why.
	replace(t, file, signedPolicy(t, other, "evil allows"))
	r := waitReply(t, p.base+"/readyz", func(r httpReply) bool { return r.code == 503 })
	if r.code != 503 || !strings.Contains(r.raw, `"bundle"`) || !strings.Contains(r.raw, "signature not verified") {
		t.Fatalf("/readyz after a bad signature: %d %s", r.code, r.raw)
	}
	if r := request("POST", p.base+"/claude", bundleRmPayload); !strings.Contains(r.raw, "v2 denies") {
		t.Fatalf("after a bad signature: %d %s", r.code, r.raw)
	}

	// Signed by the right key but not a configuration that loads: refused,
	// v2 keeps serving, /readyz says why.
	bad := t.TempDir()
	writeFile(t, filepath.Join(bad, "hooks.hcl"), "hook \"guard\" {\n  event = \"NoSuchEvent\"\n  js = \"return {}\"\n}\n")
	var buf bytes.Buffer
	if err := bundle.Build(context.Background(), bad, sk, &buf); err != nil {
		t.Fatal(err)
	}
	replace(t, file, buf.Bytes())
	r = waitReply(t, p.base+"/readyz", func(r httpReply) bool { return r.code == 503 && strings.Contains(r.raw, "does not load") })
	if r.code != 503 || !strings.Contains(r.raw, "does not load") {
		t.Fatalf("/readyz after a bundle that does not load: %d %s", r.code, r.raw)
	}
	if r := request("POST", p.base+"/claude", bundleRmPayload); !strings.Contains(r.raw, "v2 denies") {
		t.Fatalf("after a bundle that does not load: %d %s", r.code, r.raw)
	}

	// The next good one is swapped in and /readyz recovers.
	replace(t, file, signedPolicy(t, sk, "v3 denies"))
	if r := waitReply(t, p.base+"/readyz", func(r httpReply) bool { return r.code == 200 }); r.code != 200 {
		t.Fatalf("/readyz after a good bundle: %d %s", r.code, r.raw)
	}
	if r := request("POST", p.base+"/claude", bundleRmPayload); !strings.Contains(r.raw, "v3 denies") {
		t.Fatalf("v3: %d %s", r.code, r.raw)
	}
}

// TestServeProcessBundleNeverGood: with no good bundle ever, a real serve
// blocks every guarded event, naming why, and is not ready.
func TestServeProcessBundleNeverGood(t *testing.T) {
	dir := t.TempDir()
	pub, _ := newKeys(t, dir, "org")
	_, other := newKeys(t, dir, "other")
	file := filepath.Join(dir, "policy.bundle")
	replace(t, file, signedPolicy(t, other, "evil"))
	p := startServeArgs(t, "--bundle", "file://"+file, "--bundle-pub", pub, "--bundle-poll", "50ms")
	if r := request("GET", p.base+"/readyz", ""); r.code != 503 || !strings.Contains(r.raw, "no signed policy has verified yet") {
		t.Fatalf("/readyz: %d %s", r.code, r.raw)
	}
	r := request("POST", p.base+"/claude", `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if !strings.Contains(r.raw, `"permissionDecision":"deny"`) || !strings.Contains(r.raw, "signature not verified") {
		t.Fatalf("/claude: %d %s", r.code, r.raw)
	}
	if r := request("POST", p.base+"/v1/fire/PreToolUse", `{"tool_name":"Bash"}`); r.code != 503 {
		t.Fatalf("/v1/fire: %d %s", r.code, r.raw)
	}

	// The first good bundle is swapped in: ready, and its hooks run.
	_, sk := newKeysFrom(t, dir, "org")
	replace(t, file, signedPolicy(t, sk, "first good"))
	if r := waitReply(t, p.base+"/readyz", func(r httpReply) bool { return r.code == 200 }); r.code != 200 {
		t.Fatalf("/readyz after a good bundle: %d %s\n%s", r.code, r.raw, p.stderr)
	}
	if r := request("POST", p.base+"/claude", bundleRmPayload); !strings.Contains(r.raw, "first good") {
		t.Fatalf("after a good bundle: %d %s", r.code, r.raw)
	}
}

// newKeysFrom reads the private key newKeys wrote.
func newKeysFrom(t *testing.T, dir, name string) (string, minisign.PrivateKey) {
	t.Helper()
	sk, err := bundle.ReadPrivateKey(filepath.Join(dir, name+".key"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, name+".pub"), sk
}
