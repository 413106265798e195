package builtin_test

import (
	"testing"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/lib/paths"
)

// TestSecretFilesReadsWhatReadOnlyApproves: the commands read-only-approver
// approves that print a file (date -f, diff --from-file, git show REV:path,
// git log -p, xargs -a...) are readers for secret-files. Each was approved
// by read-only-approver and allowed by secret-files while cat .env was
// denied.
func TestSecretFilesReadsWhatReadOnlyApproves(t *testing.T) {
	cfg := builtin.WithSystem(builtin.Config{Home: "/home/me"}, paths.Unix)
	runCdCases(t, cfg, "/proj", []cdCase{
		{`rev .env`, true, ".env"},
		{`date -f .env`, true, ".env"},
		{`date --file=.env`, true, ".env"},
		{`column -t .env`, true, ".env"},
		{`comm .env /dev/null`, true, ".env"},
		{`diff --from-file=.env /dev/null`, true, ".env"},
		{`diff --to-file .env a b`, true, ".env"},
		{`git diff --no-index /dev/null .env`, true, ".env"},
		{`git show :.env`, true, ".env"},
		{`git show :0:.env`, true, ".env"},
		{`git show HEAD:config/.env`, true, ".env"},
		{`git cat-file -p HEAD:.env`, true, ".env"},
		{`git log -p -- .env`, true, ".env"},
		{`git log --patch ~/.aws/credentials`, true, ".aws/credentials"},
		{`git blame --contents .env main.go`, true, ".env"},
		{`git grep TOKEN -- .env`, true, ".env"},
		{`xargs cat <<< .env`, true, ".env"},
		{`xargs -a .env echo`, true, ".env"},
		{`xargs --arg-file=.env`, true, ".env"},
		{`wc --files0-from=.env`, true, ".env"},
		{`tar -cf - --files-from .env`, true, ".env"},
		{`grep -f .env main.go`, true, ".env"},
		{`sort --files0-from=.env`, true, ".env"},
		{`git show HEAD:go.mod`, false, ""},
		{`git log -p -- src/main.go`, false, ""},
		{`git log --oneline -- .env`, false, ""},
		{`git diff HEAD~1 -- src/`, false, ""},
		{`date -d yesterday +%F`, false, ""},
		{`diff -u a.txt b.txt`, false, ""},
		{`grep -f patterns.txt main.go`, false, ""},
		{`xargs -n1 echo < list.txt`, false, ""},
	})
}
