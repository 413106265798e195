package shell_test

import (
	"fmt"

	"github.com/hookctl/hookctl/lib/shell"
)

func ExampleParse() {
	segs, err := shell.Parse(`cd repo && sudo env FOO=1 bash -c 'rm -rf ~' | tee log.txt; echo "rm -rf /"`)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range segs {
		fmt.Printf("%-2s %-4s %q wrappers=%q subshell=%v\n", s.Op, s.Name, s.Argv, s.Wrappers, s.Subshell)
	}
	// Output:
	//    cd   ["cd" "repo"] wrappers=[] subshell=false
	// && rm   ["rm" "-rf" "~"] wrappers=["sudo" "env" "bash -c"] subshell=true
	// |  tee  ["tee" "log.txt"] wrappers=[] subshell=false
	// ;  echo ["echo" "rm -rf /"] wrappers=[] subshell=false
}

func ExampleParse_error() {
	_, err := shell.Parse(`echo "unterminated`)
	fmt.Println(err)
	// Output:
	// shell: 1:6: reached EOF without closing quote `"`
}

func ExampleCommands() {
	fmt.Println(shell.Commands(`git add -A && git commit -m "wip; rm -rf x" && git push`))
	fmt.Println(shell.Commands(`find . -name '*.log' | xargs -0 rm -f; echo $(whoami)`))
	// A malformed line falls back to a conservative tokenizer.
	fmt.Println(shell.Commands(`echo "unterminated && sudo rm -rf /`))
	// Output:
	// [git git git]
	// [find rm echo whoami]
	// [echo rm]
}

func ExampleHasCommand() {
	fmt.Println(shell.HasCommand(`sudo rm -rf /var/lib/x`, "rm", "shred"))
	fmt.Println(shell.HasCommand(`echo "rm -rf /"`, "rm", "shred"))
	// Output:
	// true
	// false
}

func ExampleSegment_Flag() {
	segs, _ := shell.Parse(`rm -fr build -- -v`)
	s := segs[0]
	fmt.Println(s.Flag("-r", "--recursive"), s.Flag("-v"), s.Args())
	// Output:
	// true false [build -v]
}

func ExampleWords() {
	words, err := shell.Words(`git commit -m "fix: a \"b\"" --author='A B <a@b>'`)
	fmt.Printf("%q %v\n", words, err)
	// Output:
	// ["git" "commit" "-m" "fix: a \"b\"" "--author=A B <a@b>"] <nil>
}
