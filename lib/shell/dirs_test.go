package shell

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// dirsText renders a segment's directory changes as "cd a; ?cd b", a
// question mark marking a change that may not have happened.
func dirsText(ds []Chdir) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		t := strings.Join(d.Argv, " ")
		if len(d.Argv) == 0 {
			t = "<overflow>"
		}
		if d.Maybe {
			t = "?" + t
		}
		parts[i] = t
	}
	return strings.Join(parts, "; ")
}

func TestDirs(t *testing.T) {
	tests := []struct {
		line string
		seg  string // the segment to look at, by its words
		want string
	}{
		{"rm -rf x", "rm -rf x", ""},
		{"cd .. && rm -rf shop", "rm -rf shop", "cd .."},
		{"cd ..; rm -rf shop", "rm -rf shop", "?cd .."},
		{"cd .. || rm -rf shop", "rm -rf shop", ""},
		{"cd .. || exit 1; rm -rf shop", "rm -rf shop", "?cd .."},
		{"cd a && cd b && rm x", "rm x", "cd a; cd b"},
		{"cd a && cd b; rm x", "rm x", "?cd a; ?cd b"},
		{"(cd /tmp && ls); rm x", "rm x", ""},
		{"(cd /tmp && ls); rm x", "ls", "cd /tmp"},
		{"{ cd /tmp && ls; }; rm x", "rm x", "?cd /tmp"},
		{"cd /tmp | true; rm x", "rm x", ""},
		{"cd /tmp & rm x", "rm x", ""},
		{"echo $(cd / && pwd); rm x", "rm x", ""},
		{"echo $(cd / && pwd); rm x", "pwd", "cd /"},
		{"bash -c 'cd /'; rm x", "rm x", ""},
		{"bash -c 'cd / && rm x'", "rm x", "cd /"},
		{"cd .. && bash -c 'rm x'", "rm x", "cd .."},
		{"eval 'cd ..' && rm x", "rm x", "cd .."},
		{"eval cd ..; rm x", "rm x", "?cd .."},
		{"pushd /etc && popd && rm x", "rm x", "pushd /etc; popd"},
		{"command cd / && rm x", "rm x", "cd /"},
		{"builtin cd / && rm x", "rm x", "cd /"},
		{"sudo cd / && rm x", "rm x", ""},
		{"xargs cd / && rm x", "rm x", ""},
		{"if true; then cd ..; fi; rm x", "rm x", "?cd .."},
		{"if cd ..; then rm x; fi", "rm x", "cd .."},
		{"if cd ..; then :; else rm x; fi", "rm x", ""},
		{"! cd .. || rm x", "rm x", "cd .."},
		{"for d in a b; do cd $d; done; rm x", "rm x", "?cd $d"},
		{"while true; do cd ..; done; rm x", "rm x", "?cd .."},
		{"case y in y) cd ..;; esac; rm x", "rm x", "?cd .."},
		{"up() { cd ..; }; up; rm x", "rm x", "?cd .."},
		{"up() { cd ..; }; rm x", "rm x", ""},
		{"cd; rm x", "rm x", "?cd"},
		{"cd -P -- .. && rm x", "rm x", "cd -P -- .."},
		{"time cd .. && rm x", "rm x", "cd .."},
		{"cd .. && rm x 'unterminated", "rm x", ""},     // not bash: no segments compared
		{"bash -c 'cd ..; rm x \"'", "rm x ", "?cd .."}, // the fallback tokenizer
	}
	for _, tt := range tests {
		segs, err := Parse(tt.line)
		if err != nil {
			continue
		}
		found := false
		for _, s := range segs {
			if strings.Join(s.Argv, " ") != tt.seg {
				continue
			}
			found = true
			if got := dirsText(s.Dirs); got != tt.want {
				t.Errorf("%q: %q runs after %q, want %q", tt.line, tt.seg, got, tt.want)
			}
		}
		if !found {
			t.Errorf("%q: no segment %q in%s", tt.line, tt.seg, format(segs))
		}
	}
}

func TestDirsOverflow(t *testing.T) {
	line := strings.Repeat("cd a; ", MaxChdirs+10) + "rm x"
	segs, err := Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	last := segs[len(segs)-1]
	if len(last.Dirs) != MaxChdirs+1 || len(last.Dirs[MaxChdirs].Argv) != 0 {
		t.Fatalf("got %d changes, last %q", len(last.Dirs), dirsText(last.Dirs[len(last.Dirs)-1:]))
	}
}

func TestHeredocBody(t *testing.T) {
	segs, err := Parse("python3 <<'EOF'\nimport shutil\nshutil.rmtree('/opt')\nEOF")
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) != 1 || len(segs[0].Redirects) != 1 || segs[0].Redirects[0].Body != "import shutil\nshutil.rmtree('/opt')\n" {
		t.Fatalf("got%s", format(segs))
	}
}

func TestLaunchers(t *testing.T) {
	segs, err := Parse(`sudo -u root env -S 'A=1' xargs -a list.txt rm -rf`)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(segs[0].Launchers)
	if want := "[[sudo -u root] [env -S A=1] [xargs -a list.txt]]"; got != want || segs[0].Name != "rm" {
		t.Fatalf("launchers %s, want %s%s", got, want, format(segs))
	}
}

func TestRunnablePrefix(t *testing.T) {
	for line, want := range map[string]string{
		"ls":                               "",
		"rm -rf ~\n\"":                     "rm -rf ~",
		"cd ..\nrm -rf shop\necho 'x":      "cd ..\nrm -rf shop",
		"rm -rf / 'x":                      "",
		"a\nif true; then\nb\n'":           "a",
		"echo ok\necho \"multi\nline\" 'x": "echo ok",
		"echo \"multi\nline\"\nrm x\n)":    "echo \"multi\nline\"\nrm x",
		strings.Repeat("\n", 100) + "'":    "",
		"x\n" + strings.Repeat("(\n", 100): "x",
	} {
		if got := RunnablePrefix(line); got != want {
			t.Errorf("RunnablePrefix(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestTrapScript(t *testing.T) {
	segs, err := Parse(`trap 'rm -rf ~' EXIT; trap - INT; trap -p`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"trap 'rm -rf ~' EXIT", "rm -rf ~", "trap - INT", "trap -p"}
	var got []string
	for _, s := range segs {
		got = append(got, strings.Join(s.Argv, " "))
	}
	if strings.Join(got, "|") != "trap rm -rf ~ EXIT|rm -rf ~|trap - INT|trap -p" || !slices.Contains(segs[1].Wrappers, "trap") {
		t.Fatalf("got %q, want %q%s", got, want, format(segs))
	}
}

// TestDirsAssigns: a directory change keeps the assignments that apply to
// it, its own and an enclosing script's, since cd reads HOME, OLDPWD,
// CDPATH and PWD.
func TestDirsAssigns(t *testing.T) {
	for line, want := range map[string][]string{
		"HOME=/ cd && ls":                       {"HOME=/"},
		"OLDPWD=/x cd - && ls":                  {"OLDPWD=/x"},
		"HOME=/ bash -c 'CDPATH=/a cd b && ls'": {"HOME=/", "CDPATH=/a"},
		"cd /x && ls":                           nil,
	} {
		segs, err := Parse(line)
		if err != nil {
			t.Fatal(err)
		}
		dirs := segs[len(segs)-1].Dirs
		if len(dirs) != 1 || !slices.Equal(dirs[0].Assigns, want) {
			t.Errorf("%q: Dirs %+v, want one with Assigns %q", line, dirs, want)
		}
	}
}
