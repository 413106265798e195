package builtin_test

import (
	"testing"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/engine"
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
	for _, c := range []platformRows{
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
			checkRows(t, c.sys, c.home, c.project, c.danger, c.secrets, func(d string) bool { return d == "deny" })
		})
	}
}

// platformRows are command lines under one system's rules, for
// dangerous-commands and for secret-files.
type platformRows struct {
	name          string
	sys           paths.System
	home, project string
	danger        []row
	secrets       []row
}

// row is a command line and whether a guard must stop it.
type row struct {
	cmd  string
	stop bool
}

// checkRows fires dangerous-commands and secret-files, under sys's rules
// with home and the project directory project, at each row of danger and
// of secrets, and fails the rows whose decision stopped does not read as
// the row says.
func checkRows(t *testing.T, sys paths.System, home, project string, danger, secrets []row, stopped func(decision string) bool) {
	t.Helper()
	env := map[string]string{"CLAUDE_PROJECT_DIR": project}
	dh := newHook(t, "dangerous-commands", builtin.WithSystem(builtin.Config{
		Home:    home,
		Getenv:  func(k string) string { return env[k] },
		Options: map[string]any{"outside_project": false},
	}, sys))
	sh := newHook(t, "secret-files", builtin.WithSystem(builtin.Config{Home: home}, sys))
	for _, g := range []struct {
		name string
		h    engine.Hook
		rows []row
	}{{"dangerous-commands", dh, danger}, {"secret-files", sh, secrets}} {
		for _, tc := range g.rows {
			p := bash(tc.cmd)
			p["cwd"] = project
			d, reason := decisionOf(call(t, g.h, "PreToolUse", p))
			if stopped(d) != tc.stop {
				t.Errorf("%s %q: %q %q, want stopped %v", g.name, tc.cmd, d, reason, tc.stop)
			}
		}
	}
}
