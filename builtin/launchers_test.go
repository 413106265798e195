package builtin_test

import (
	"testing"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/lib/paths"
)

// TestPlatformLaunchers: the launchers of macOS (caffeinate, arch) and
// Windows (wsl, cmd's start, PowerShell's Start-Process, runas,
// Invoke-Command's script block), cmd's switches run together (rd /s/q),
// its @ prefix, the system directories' variables (%SystemRoot%,
// $env:windir), and on macOS the GNU tools Homebrew installs with a "g"
// in front (grm is GNU rm), run the command they are given: the guards
// judge that command as they judge it alone.
func TestPlatformLaunchers(t *testing.T) {
	type row struct {
		cmd  string
		deny bool
	}
	for _, c := range []struct {
		name    string
		sys     paths.System
		home    string
		project string
		danger  []row
		secrets []row
	}{
		{"darwin", paths.Darwin, "/Users/me", "/Users/me/proj", []row{
			{`caffeinate rm -rf ~`, true},
			{`caffeinate -dims -t 3600 rm -rf ~`, true},
			{`caffeinate -w 42 sudo rm -rf /`, true},
			{`arch -x86_64 rm -rf ~`, true},
			{`arch -arm64e rm -rf ~`, true},
			{`arch -arch x86_64 -e A=1 -d B rm -rf /`, true},
			{`arch -x86_64 /bin/bash -c 'rm -rf ~'`, true},
			{`grm -rf ~`, true},
			{`GRM -rf ~`, true},
			{`/opt/homebrew/bin/grm -rf /Users/me`, true},
			{`sudo grm -rf /`, true},
			{`caffeinate -i grm -rf ~`, true},
			{`gfind ~ -delete`, true},
			{`gtimeout 10 rm -rf ~`, true},
			{`genv X=1 rm -rf ~`, true},
			{`caffeinate -i make build`, false},
			{`arch -x86_64 ./configure`, false},
			{`grm -rf build`, false},
			{`git status && gcc -o x x.c && go test ./...`, false},
			{`arch -h`, false},
		}, []row{
			{`caffeinate cat .env`, true},
			{`arch -x86_64 cat ~/.aws/credentials`, true},
			{`gcat ~/.ssh/id_rsa`, true},
			{`ghead -n1 .env`, true},
			{`ggrep -r KEY ~/.aws`, true},
			{`gcat README.md`, false},
		}},
		{"windows", paths.Windows, `C:\Users\me`, `C:\proj`, []row{
			{`wsl rm -rf ~`, true},
			{`wsl -d Ubuntu -u root -- rm -rf /`, true},
			{`wsl -e rm -rf /`, true},
			{`wsl --exec sudo rm -rf /`, true},
			{`wsl --cd /tmp ls`, false},
			{`wsl --list --verbose`, false},
			{`start "" rm -rf ~`, true},
			{`start /wait cmd /c rd /s /q C:\`, true},
			{`start /d C:\tmp /b rd /s /q C:\Users\me`, true},
			{`start "title" /min rd /s /q C:\Users\me`, true},
			{`Start-Process cmd -ArgumentList '/c rd /s /q C:\'`, true},
			{`start -FilePath cmd -ArgumentList '/c','rd /s /q C:\Users\me' -Wait`, true},
			{`saps -NoNewWindow pwsh -Args '-c Remove-Item -Recurse ~'`, true},
			{`runas /user:Administrator "cmd /c rd /s /q C:\"`, true},
			{`runas /savecred /user:me "powershell -c Remove-Item -Recurse C:\Users\me"`, true},
			{`Invoke-Command -ScriptBlock { Remove-Item -Recurse ~ }`, true},
			{`icm { rd /s /q C:\Windows }`, true},
			{`start notepad.exe`, false},
			{`start "" https://example.com`, false},
			{`Start-Process code -ArgumentList .`, false},
			{`runas /user:me notepad`, false},
			{`Invoke-Command -ScriptBlock { Get-ChildItem }`, false},
			{`rd /s/q C:\Users\me`, true},
			{`RD /S/Q C:\`, true},
			{`@rd /s /q C:\Users\me`, true},
			{`del /f/s/q C:\Users\me`, true},
			{`rd /s /q %SystemDrive%\`, true},
			{`rd /s /q %SystemRoot%`, true},
			{`Remove-Item -Recurse -Force $env:windir`, true},
			{`Remove-Item -Recurse "${env:ProgramFiles}"`, true},
			{`rd /s /q %ProgramData%\`, true},
			{`rd /q/s build`, false},
			{`del /q x.txt`, false},
		}, []row{
			{`wsl cat .env`, true},
			{`wsl -- cat README.md`, false},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := map[string]string{"CLAUDE_PROJECT_DIR": c.project}
			danger := newHook(t, "dangerous-commands", builtin.WithSystem(builtin.Config{
				Home:    c.home,
				Getenv:  func(k string) string { return env[k] },
				Options: map[string]any{"outside_project": false},
			}, c.sys))
			secrets := newHook(t, "secret-files", builtin.WithSystem(builtin.Config{Home: c.home}, c.sys))
			for _, g := range []struct {
				h    func(map[string]any) map[string]any
				rows []row
			}{{func(p map[string]any) map[string]any { return call(t, danger, "PreToolUse", p) }, c.danger},
				{func(p map[string]any) map[string]any { return call(t, secrets, "PreToolUse", p) }, c.secrets}} {
				for _, tc := range g.rows {
					p := bash(tc.cmd)
					p["cwd"] = c.project
					d, reason := decisionOf(g.h(p))
					if got := d == "deny"; got != tc.deny {
						t.Errorf("%q: %q %q, want deny %v", tc.cmd, d, reason, tc.deny)
					}
				}
			}
		})
	}
}
