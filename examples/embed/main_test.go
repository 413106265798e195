package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// TestToyAgentLoop builds and runs the program and checks what the hooks
// made the toy agent do.
func TestToyAgentLoop(t *testing.T) {
	bin := t.TempDir() + "/embed"
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	got := stdout.String()
	for _, want := range []string{
		`tool Bash "pip install requests": runs as "uv pip install requests"`,
		`tool Bash "rm -rf ~": blocked (`,
		`tool Bash "ls": runs as "ls"`,
		`stop 1: keep working: Run the tests and report the result before stopping.`,
		`stop 3: the agent stops`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}
