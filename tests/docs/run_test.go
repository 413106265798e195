package docs_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// block is a shell code block of the README: its commands, the section it is
// in and what its info string asks of it.
//
// The info string is "sh" and then words: "norun" (shown, not run: a command
// that needs the network, a host or is the test suite itself), "exit=N" (the
// block must exit with status N; 0 when not given), "stdout=TEXT" and
// "stderr=TEXT" (the output must contain TEXT; TEXT may be a Go-quoted string
// with spaces). GitHub renders such a block as sh.
type block struct {
	section string
	line    int
	script  string
	norun   bool
	exit    int
	stdout  []string
	stderr  []string
}

// readmeBlocks returns the sh blocks of the README's first screen, Install
// and Quickstart sections (everything before the contents).
func readmeBlocks(t *testing.T, readme string) []block {
	t.Helper()
	var blocks []block
	section := "first screen"
	lines := strings.Split(readme, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "## ") {
			section = strings.TrimPrefix(l, "## ")
			if section == "Documentation" {
				break
			}
			continue
		}
		if !strings.HasPrefix(l, "```") {
			continue
		}
		words, err := infoWords(strings.TrimPrefix(l, "```"))
		if err != nil {
			t.Fatalf("README.md:%d: %v", i+1, err)
		}
		start := i + 1
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
		}
		if len(words) == 0 || words[0] != "sh" {
			continue
		}
		b := block{section: section, line: start, script: strings.Join(lines[start:i], "\n") + "\n"}
		for _, w := range words[1:] {
			key, value, _ := strings.Cut(w, "=")
			switch key {
			case "norun":
				b.norun = true
			case "exit":
				n, err := strconv.Atoi(value)
				if err != nil {
					t.Fatalf("README.md:%d: %q: %v", start, w, err)
				}
				b.exit = n
			case "stdout":
				b.stdout = append(b.stdout, value)
			case "stderr":
				b.stderr = append(b.stderr, value)
			default:
				t.Fatalf("README.md:%d: unknown word %q in the info string (norun, exit=N, stdout=TEXT, stderr=TEXT)", start, w)
			}
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// infoWords splits a code block's info string into words; a value after = may
// be a Go-quoted string.
func infoWords(info string) ([]string, error) {
	var words []string
	for info = strings.TrimSpace(info); info != ""; info = strings.TrimSpace(info) {
		end := strings.IndexAny(info, " \t")
		if eq := strings.Index(info, "=\""); eq >= 0 && (end < 0 || eq < end) {
			q, err := strconv.QuotedPrefix(info[eq+1:])
			if err != nil {
				return nil, err
			}
			v, _ := strconv.Unquote(q)
			words = append(words, info[:eq+1]+v)
			info = info[eq+1+len(q):]
			continue
		}
		if end < 0 {
			end = len(info)
		}
		words = append(words, info[:end])
		info = info[end:]
	}
	return words, nil
}

// TestReadmeRuns runs the commands the README's first screen, Install and
// Quickstart show, in order, with bash: the first screen's and Install's in
// the repository (go install puts hookctl and hookctl-client into a temporary
// GOBIN, first on PATH), the Quickstart's in a new project directory, with a
// temporary HOME (and so trust file and settings) and no HOOKCTL_ or CLAUDE_
// variable. Each block must exit with its status.
func TestReadmeRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs hookctl")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the README's commands are POSIX shell")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash:", err)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool:", err)
	}
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := readmeBlocks(t, string(b))
	repo, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}

	// The go tool keeps its caches where they are, whatever HOME is.
	out, err := exec.Command(goTool, "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatal(err)
	}
	goenv := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(goenv) != 3 {
		t.Fatalf("go env: %q", out)
	}
	tmp := t.TempDir()
	gobin, home, project := filepath.Join(tmp, "bin"), filepath.Join(tmp, "home"), filepath.Join(tmp, "project")
	for _, d := range []string{gobin, home, project} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "HOOKCTL_"), strings.HasPrefix(k, "CLAUDE_"), strings.HasPrefix(k, "XDG_"),
			k == "HOME", k == "PATH", k == "GOBIN", k == "GOCACHE", k == "GOMODCACHE", k == "GOPATH", k == "TRACEPARENT":
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+home,
		"PATH="+gobin+string(os.PathListSeparator)+filepath.Dir(goTool)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOBIN="+gobin,
		"GOCACHE="+goenv[0], "GOMODCACHE="+goenv[1], "GOPATH="+goenv[2],
	)

	ran := map[string]int{}
	for _, bl := range blocks {
		if bl.norun {
			continue
		}
		dir := repo
		if strings.HasPrefix(bl.section, "Quickstart") {
			dir = project
		}
		ran[bl.section]++
		cmd := exec.CommandContext(context.Background(), bash, "-e", "-o", "pipefail", "-c", bl.script)
		cmd.Dir, cmd.Env = dir, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if err != nil {
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("README.md:%d: %v", bl.line, err)
			}
			code = exit.ExitCode()
		}
		if code != bl.exit {
			t.Fatalf("README.md:%d (%s): exit status %d, want %d\n%s\nstdout:\n%s\nstderr:\n%s", bl.line, bl.section, code, bl.exit, bl.script, &stdout, &stderr)
		}
		for _, want := range bl.stdout {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("README.md:%d: stdout lacks %q:\n%s", bl.line, want, &stdout)
			}
		}
		for _, want := range bl.stderr {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("README.md:%d: stderr lacks %q:\n%s", bl.line, want, &stderr)
			}
		}
	}
	for _, s := range []string{"first screen", "Install"} {
		if ran[s] == 0 {
			t.Errorf("no command of the README's %s ran", s)
		}
	}
	quick := 0
	for s, n := range ran {
		if strings.HasPrefix(s, "Quickstart") {
			quick += n
		}
	}
	if quick == 0 {
		t.Error("no command of the README's Quickstart ran")
	}
}
