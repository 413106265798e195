package shell

import (
	"slices"
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"ls -la",
		"cd repo && make test || echo failed; ls | wc -l & wait",
		`sudo env FOO=1 bash -c 'rm -rf ~'`,
		`git commit -m "fix; rm -rf x"`,
		"echo $(git rev-parse HEAD) `date` <(sort a) >(tee b)",
		"cat <<EOF > notes\n$(whoami)\nEOF\nbash <<'EOF'\nrm -rf /\nEOF",
		`eval "rm -rf $DIR"`,
		"f() { rm x; }; if a; then b; elif c; then d; else e; fi",
		"for f in $(ls); do rm \"$f\"; done; while read l; do echo $l; done < <(cmd)",
		"case $x in a) reboot;; b|c) halt;; esac",
		"find . -print0 | xargs -0 -n 1 -I {} sh -c 'rm \"$1\"' _ {}",
		`nice -n 10 timeout -s KILL 5 watch -n 1 "ls; rm x"`,
		`flock /tmp/l -c 'make' 2>&1 >> out.log`,
		`env -S 'A=1 bash -e' -c x`,
		`env -S 'a b c d e f' xargs -a f rm`,
		`echo "unterminated && sudo rm -rf /`,
		`printf '%s\n' $'a\tb' "${X:-$(id)}" ~ *.go`,
		"[[ -n $(x) ]] && (( $(y) > 1 )); let 'a = 1'; export A=$(b)",
		"time -p coproc { sleep 1; }",
		"true; \x80000000",
		"rm -rf ~\necho 'x",
		"cd .. && (cd /tmp; pushd x) || popd; f() { cd -; }; f; eval 'cd ~' && rm -rf shop",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		segs, err := Parse(line)
		names := Commands(line)
		HasCommand(line, "rm")
		if p := RunnablePrefix(line); p != "" {
			if !strings.HasPrefix(line, p) {
				t.Errorf("RunnablePrefix(%q) = %q, not a prefix", line, p)
			}
			if _, err := Parse(p); err != nil {
				t.Errorf("RunnablePrefix(%q) = %q, which does not parse: %v", line, p, err)
			}
		}
		if _, werr := Words(line); werr == nil {
			splitWords(line, true)
		}
		for _, s := range segs {
			if len(s.Argv) > 0 && s.Name != baseName(s.Argv[0]) {
				t.Errorf("segment %q has name %q", s.Argv, s.Name)
			}
			if len(s.Argv) == 0 && s.Name != "" {
				t.Errorf("segment without argv has name %q", s.Name)
			}
			if len(s.Dirs) > MaxChdirs+1 {
				t.Errorf("segment %q has %d directory changes", s.Argv, len(s.Dirs))
			}
			s.Flag("-r", "--force", "-delete", "f")
			s.Args()
			for _, r := range s.Redirects {
				_ = r.String()
			}
		}
		if err != nil {
			return
		}
		var want []string
		for _, s := range segs {
			if s.Name != "" {
				want = append(want, s.Name)
			}
		}
		if !slices.Equal(names, want) && !(len(names) == 0 && len(want) == 0) {
			t.Errorf("Commands(%q) = %q, but Parse gives %q", line, names, want)
		}
	})
}
