package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestGoreleaserRecord: .ci/goreleaser-check --is-recorded, which decides
// whether CI runs GoReleaser's own check, says yes for the configuration
// recorded and no for any other (one byte changed, no record), so a
// changed configuration is always checked by GoReleaser in CI.
func TestGoreleaserRecord(t *testing.T) {
	if _, err := exec.LookPath("sha256sum"); err != nil {
		t.Skip("sha256sum not found")
	}
	script, err := filepath.Abs("../goreleaser-check")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	record, err := os.ReadFile("../goreleaser-checked")
	if err != nil {
		t.Fatal(err)
	}
	// A copy of the layout the script expects: REPO/.ci/goreleaser-check.
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".ci"), 0o755); err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	copyScript := filepath.Join(repo, ".ci", "goreleaser-check")
	if err := os.WriteFile(copyScript, body, 0o755); err != nil {
		t.Fatal(err)
	}
	recorded := func(cfgBytes, rec []byte) bool {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo, ".goreleaser.yaml"), cfgBytes, 0o644); err != nil {
			t.Fatal(err)
		}
		recPath := filepath.Join(repo, ".ci", "goreleaser-checked")
		os.Remove(recPath)
		if rec != nil {
			if err := os.WriteFile(recPath, rec, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		err := exec.Command("bash", copyScript, "--is-recorded").Run()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatal(err)
		}
		return err == nil
	}
	// The record is the repository's own: it says yes for the content it
	// was written from (a configuration changed without a new record is
	// checked by GoReleaser in CI, and .ci/goreleaser-check --record
	// records it).
	m := regexp.MustCompile(`(?m)^version=(\S+)$`).FindSubmatch(body)
	if m == nil {
		t.Fatal("no version= line in .ci/goreleaser-check")
	}
	if !recorded(cfg, []byte(string(m[1])+" "+sha256Hex(cfg)+"\n")) {
		t.Fatal("the configuration's own record was not recognised")
	}
	if !recorded(cfg, record) {
		t.Log("the repository's configuration is not the one recorded: CI runs goreleaser check itself")
	}
	changed := append([]byte{}, cfg...)
	changed[len(changed)-2] ^= 1
	if recorded(changed, record) {
		t.Error("a changed configuration passed as recorded")
	}
	if recorded(cfg, nil) {
		t.Error("no record passed as recorded")
	}
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
