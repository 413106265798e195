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
		{`find -files0-from .env -name x`, true, ".env"},
		{`git config --file ~/.aws/credentials --list`, true, ".aws/credentials"},
		{`git config -f ~/.aws/credentials -l`, true, ".aws/credentials"},
		{`git config --blob HEAD:.env --list`, true, ".env"},
		{`git cat-file --batch <<< HEAD:.env`, true, ".env"},
		{`echo HEAD:.env | git cat-file --batch`, true, ".env"},
		{`git log -L1,5:.env`, true, ".env"},
		{`git log -L 1,5:.env`, true, ".env"},
		{`diff -r ~/.aws /tmp/x`, true, ".aws/credentials"},
		{`git show HEAD:go.mod`, false, ""},
		{`git config --get user.name`, false, ""},
		{`diff -r src /tmp/src`, false, ""},
		{`echo HEAD:go.mod | git cat-file --batch`, false, ""},
		{`git log -p -- src/main.go`, false, ""},
		{`git log --oneline -- .env`, false, ""},
		{`git diff HEAD~1 -- src/`, false, ""},
		{`date -d yesterday +%F`, false, ""},
		{`diff -u a.txt b.txt`, false, ""},
		{`grep -f patterns.txt main.go`, false, ""},
		{`xargs -n1 echo < list.txt`, false, ""},
	})
}

// TestSecretFilesWindowsReaders: under Windows' rules type, PowerShell's
// Get-Content and its kin, cmd /c and powershell -c read the files they
// name, and $USERPROFILE, ${USERPROFILE}, $env:USERPROFILE and
// %USERPROFILE% are the home. Each was allowed while cat .env was denied.
func TestSecretFilesWindowsReaders(t *testing.T) {
	cfg := builtin.WithSystem(builtin.Config{Home: `C:\Users\me`}, paths.Windows)
	runCdCases(t, cfg, `C:\proj`, []cdCase{
		{`cat .env`, true, ".env"}, // control
		{`type .env`, true, ".env"},
		{`CAT .env`, true, ".env"},
		{`cat.exe .env`, true, ".env"},
		{`CMD /C type .env`, true, ".env"},
		{`PWSH -c "Get-Content .env"`, true, ".env"},
		{`"C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe" -c "gc .env"`, true, ".env"},
		{"pwsh -EncodedCommand " + encoded("Get-Content .env"), true, ".env"},
		{"powershell -enc " + encoded(`gc C:\Users\me\.ssh\id_rsa`), true, "id_rsa"},
		{`Get-Content .env`, true, ".env"},
		{`get-content -Path .env`, true, ".env"},
		{`Get-Content -LiteralPath:.env -Raw`, true, ".env"},
		{`gc .env`, true, ".env"},
		{`Select-String -Pattern TOKEN -Path .env`, true, ".env"},
		{`sls TOKEN .env`, true, ".env"},
		{`Copy-Item .env C:\tmp\x`, true, ".env"},
		{`copy .env x.txt`, true, ".env"},
		{`cmd /c type .env`, true, ".env"},
		{`cmd.exe /c "type .env"`, true, ".env"},
		{`cmd //c type .env`, true, ".env"},
		{`powershell -c "Get-Content .env"`, true, ".env"},
		{`pwsh -Command 'Get-Content $env:USERPROFILE\.ssh\id_rsa'`, true, ".ssh"},
		{`cat "$USERPROFILE/.ssh/config"`, true, ".ssh/**"},
		{`cat "${USERPROFILE}/.aws/credentials"`, true, ".aws/credentials"},
		{`Get-Content "$env:USERPROFILE/.aws/credentials"`, true, ".aws/credentials"},
		{`type '%USERPROFILE%\.ssh\id_ed25519'`, true, "id_ed25519"},
		{`Get-Content .\.env`, true, ".env"},
		{`type .ssh\id_rsa`, true, "id_rsa"},
		{`type C:\Users\me\.ssh\id_rsa`, true, "id_rsa"},
		{`gc $env:USERPROFILE\.aws\credentials`, true, ".aws/credentials"},
		{`Get-Content -Path:~\.aws\credentials`, true, ".aws/credentials"},
		{`cmd /c type C:\Users\me\_netrc`, true, "_netrc"},
		{`type README.md`, false, ""},
		{`type src\main.go`, false, ""},
		{`echo C:\Users\me\.ssh\id_rsa`, false, ""},
		{`Get-Content -Path src\main.go -Encoding utf8`, false, ""},
		{`cmd /c dir`, false, ""},
		{`cat "$USERPROFILE/notes.txt"`, false, ""},
	})
	// type is a shell builtin on Unix, naming commands, not files.
	runCdCases(t, builtin.WithSystem(builtin.Config{Home: "/home/me"}, paths.Unix), "/proj", []cdCase{
		{`type .env`, false, ""},
		{`Get-Content .env`, true, ".env"},
	})
}

// FuzzSecretFilesAndReadOnly: on any line, under Unix and Windows rules,
// neither guard panics, and read-only-approver never approves a line
// secret-files answers.
func FuzzSecretFilesAndReadOnly(f *testing.F) {
	for _, s := range []string{`cat .e*`, `cat ~/.?sh/*`, `git show HEAD:.env`, `type ENV~1`, `Get-Content .\.env`,
		`find . -name .env | xargs cat`, `cat $(echo .env)`, `xargs -a .env echo`, `ls | sort { rm x }`, `cat 'C:\Users\me\AWS~1\CREDEN~1'`} {
		f.Add(s, false)
		f.Add(s, true)
	}
	hooks := map[bool][2]func(*testing.T, string) (string, string){}
	for _, win := range []bool{false, true} {
		cfg, cwd := builtin.Config{Home: "/home/me"}, "/proj"
		sys := paths.Unix
		if win {
			cfg, cwd, sys = builtin.Config{Home: `C:\Users\me`}, `C:\proj`, paths.Windows
		}
		run := func(name string) func(*testing.T, string) (string, string) {
			var h = newHook(f, name, builtin.WithSystem(cfg, sys))
			return func(t *testing.T, line string) (string, string) {
				p := bash(line)
				p["cwd"] = cwd
				return decisionOf(call(t, h, "PreToolUse", p))
			}
		}
		ro := newHook(f, "read-only-approver", builtin.WithSystem(builtin.Config{Home: cfg.Home, Options: map[string]any{"events": []any{"PreToolUse"}}}, sys))
		hooks[win] = [2]func(*testing.T, string) (string, string){run("secret-files"), func(t *testing.T, line string) (string, string) {
			p := bash(line)
			p["cwd"] = cwd
			return decisionOf(call(t, ro, "PreToolUse", p))
		}}
	}
	f.Fuzz(func(t *testing.T, line string, win bool) {
		if len(line) > 2000 {
			return
		}
		h := hooks[win]
		sd, _ := h[0](t, line)
		rd, _ := h[1](t, line)
		if sd != "" && rd == "allow" {
			t.Errorf("%q (windows %v): secret-files says %s, read-only-approver approves", line, win, sd)
		}
	})
}
