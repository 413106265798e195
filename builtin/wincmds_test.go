package builtin_test

import (
	"encoding/base64"
	"testing"
	"unicode/utf16"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/lib/paths"
)

// encoded is PowerShell's -EncodedCommand form of line.
func encoded(line string) string {
	u := utf16.Encode([]rune(line))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c), byte(c>>8)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// TestDangerousWindowsCommands: under Windows' rules, PowerShell's
// Remove-Item -Recurse (and its aliases), cmd's rd /s and del /s, and the
// lines cmd /c and powershell -Command run were not judged at all:
// Remove-Item -Recurse ~ and rd /s /q C:\ got no opinion while rm -rf ~
// was denied.
func TestDangerousWindowsCommands(t *testing.T) {
	const winHome, winProject = `C:\Users\me`, `C:\proj`
	env := map[string]string{"CLAUDE_PROJECT_DIR": winProject}
	for _, outside := range []bool{true, false} {
		cfg := builtin.WithSystem(builtin.Config{
			Home:    winHome,
			Getenv:  func(k string) string { return env[k] },
			Options: map[string]any{"outside_project": outside},
		}, paths.Windows)
		h := newHook(t, "dangerous-commands", cfg)
		for _, tc := range []struct {
			cmd  string
			deny bool
		}{
			{`Remove-Item -Recurse ~`, true},
			{`Remove-Item C:\Users\me -Recurse -Force`, true},
			{`Remove-Item -Path 'C:\Windows' -Recurse:$true`, true},
			{`ri -r ~`, true},
			{`del -r ~`, true},
			{`rd -r ~`, true},
			{`rmdir -Recurse C:\`, true},
			{`erase -rec ~`, true},
			{`rd /s /q C:\`, true},
			{`RMDIR /S /Q C:\Windows`, true},
			{`del /s /q C:\Users\me`, true},
			{`cmd.exe /c rd /s /q C:\Users\me`, true},
			{`cmd //c "rd /s /q C:\\Users\\me"`, true},
			{`powershell -Command "Remove-Item -Recurse -Force C:\Users\me"`, true},
			{`pwsh -c 'Remove-Item -Recurse -Force $HOME'`, true},
			{`powershell.exe -NoProfile -c "rd -r ~"`, true},
			{`pwsh -EncodedCommand ` + encoded(`Remove-Item -Recurse -Force C:\Users\me`), true},
			{`rm -rf "$env:USERPROFILE"`, true},
			{`rm -rf "$USERPROFILE"`, true},
			{`Remove-Item -Recurse "${env:USERPROFILE}\Documents"`, outside},
			{`pwsh -EncodedCommand not-base64!`, true}, // asked
			{`format C: /q`, true},
			{`Format-Volume -DriveLetter D`, true},
			{`Clear-Disk -Number 1 -RemoveData`, true},
			{`powershell -c "Clear-Disk -Number 0"`, true},
			{`Remove-Item -Recurse build`, false},
			{`rd /s /q build`, false},
			{`Remove-Item x.txt`, false},
			{`del C:\Users\me\x.txt`, false},
			{`cmd /c dir`, false},
			{`pwsh -c "Get-ChildItem"`, false},
		} {
			p := bash(tc.cmd)
			p["cwd"] = winProject
			d, reason := decisionOf(call(t, h, "PreToolUse", p))
			got := d != ""
			if got != tc.deny {
				t.Errorf("outside_project=%v: %s: got %q %q, want an answer: %v", outside, tc.cmd, d, reason, tc.deny)
			}
		}
	}
}
