package builtin

import (
	"strings"

	"github.com/hookctl/hookctl/lib/shell"
)

// codeReaders are the interpreters whose one-line programs (python -c,
// node -e, ruby -e, perl -e, php -r, pwsh -c, cmd /c ...) secret-files reads for
// the files they name, beside those langOf knows.
var codeReaders = map[string]bool{
	"php": true, "lua": true, "luajit": true, "Rscript": true, "julia": true, "osascript": true,
	"pwsh": true, "pwsh.exe": true, "powershell": true, "powershell.exe": true, "tclsh": true, "groovy": true,
	// cmd /c and /k run the rest of the line as cmd's code.
	"cmd": true, "cmd.exe": true,
	// Windows' launchers run a line given as their arguments: cmd's start,
	// PowerShell's Start-Process (saps), runas, Invoke-Command's script
	// block.
	"start": true, "start-process": true, "saps": true, "runas": true, "invoke-command": true, "icm": true,
}

// codeWords returns the words that may name files in the code an
// interpreter runs (its arguments, which hold -c/-e one-liners and the
// script's own file operands, and the here-document or here-string on
// its standard input): each string literal and each run of characters
// between blanks, quotes, brackets and operators that holds a slash or a
// backslash, starts with ~ or ., or has no such separator at all (a
// base name such as id_rsa). nil for a command that is not an
// interpreter.
func codeWords(s *shell.Segment) []string {
	if langOf(s.Name) == nil && !codeReaders[s.Name] {
		return nil
	}
	var out []string
	add := func(code string) {
		if len(code) > maxCode {
			code = code[:maxCode]
		}
		for _, w := range strings.FieldsFunc(code, func(r rune) bool {
			return r <= ' ' || strings.ContainsRune("'\"`()<>;|&,=+[]{}", r)
		}) {
			w = strings.TrimRight(w, ".:")
			if w != "" && len(w) < 4096 && !strings.HasPrefix(w, "-") {
				out = append(out, w)
			}
		}
	}
	ps := strings.HasPrefix(s.Name, "pwsh") || strings.HasPrefix(s.Name, "powershell")
	for i, a := range s.Argv[1:] {
		add(a)
		if ps && i+2 < len(s.Argv) && psOption(a) == "encodedcommand" {
			if code, ok := decodeEncodedCommand(s.Argv[i+2]); ok {
				add(code) // -EncodedCommand: base64 of UTF-16LE
			}
		}
	}
	for _, r := range s.Redirects {
		if r.Fd != "" && r.Fd != "0" {
			continue
		}
		switch r.Op {
		case "<<<":
			add(r.Target)
		case "<<", "<<-":
			add(r.Body)
		}
	}
	return out
}
