package builtin

import (
	"encoding/base64"
	"path"
	"strings"
	"unicode/utf16"

	"github.com/hookctl/hookctl/lib/shell"
)

// windowsCommand judges, under Windows' rules, the commands PowerShell
// and cmd run that the POSIX rules do not know: a recursive
// Remove-Item (and its aliases ri, del, erase, rd, rmdir, rm) and cmd's
// rd, rmdir, del and erase with /s are judged as rm -r of their paths;
// cmd /c LINE and powershell or pwsh -Command LINE (-EncodedCommand
// decoded) are checked as nested lines. $env:USERPROFILE,
// ${env:USERPROFILE}, $USERPROFILE and %USERPROFILE% in a path are the
// home directory. The lines are read with the POSIX parser: what it
// cannot split as PowerShell does is not seen.
func (g *dangerGuard) windowsCommand(s shell.Segment, at place, project string) (finding, bool) {
	if len(s.Argv) == 0 {
		return finding{}, false
	}
	name := strings.TrimSuffix(strings.ToLower(path.Base(strings.ReplaceAll(s.Argv[0], `\`, "/"))), ".exe")
	args := s.Argv[1:]
	switch name {
	case "cmd":
		for i, a := range args {
			switch strings.ToLower(a) {
			case "/c", "/k", "/r", "//c", "//k", "//r":
				return g.nested(strings.Join(args[i+1:], " "), at, project)
			}
		}
	case "powershell", "pwsh":
		for i, a := range args {
			switch psOption(a) {
			case "command":
				return g.nested(strings.Join(args[i+1:], " "), at, project)
			case "encodedcommand":
				if i+1 >= len(args) {
					continue
				}
				line, ok := decodeEncodedCommand(args[i+1])
				if !ok {
					return finding{rule: ruleUnseen, cmd: strings.Join(s.Argv, " "), ask: true,
						why: "runs a PowerShell -EncodedCommand the guard cannot decode"}, true
				}
				return g.nested(line, at, project)
			}
		}
	case "remove-item", "ri", "del", "erase", "rd", "rmdir", "rm":
		var paths []string
		recursive := name == "rm" && s.Flag("r", "R", "recursive")
		for _, a := range args {
			la := strings.ToLower(a)
			switch {
			case la == "/s" && name != "remove-item" && name != "ri":
				recursive = true
			case strings.HasPrefix(la, "-"):
				opt, _, _ := strings.Cut(la[1:], ":")
				if opt == "r" || len(opt) >= 2 && strings.HasPrefix("recurse", opt) {
					recursive = true
				}
			case strings.HasPrefix(la, "/") && len(la) == 2 && name != "rm" && name != "remove-item" && name != "ri":
				// another cmd switch (/q, /f, /a)
			default:
				paths = append(paths, winHome(a, "~"))
			}
		}
		if !recursive || len(paths) == 0 {
			return finding{}, false
		}
		rm := s
		rm.Name = "rm"
		rm.Argv = append([]string{"rm", "-r", "--"}, paths...)
		e := g.expandSegment(rm, at)
		if f, ok := g.rules(e, at.cwd, project); ok {
			f.cmd = strings.Join(s.Argv, " ")
			return f, true
		}
		if f, ok := g.outsideProject(e, at.cwd, project); ok {
			f.cmd = strings.Join(s.Argv, " ")
			return f, true
		}
	}
	return finding{}, false
}

// psOption returns which of PowerShell's -Command and -EncodedCommand a
// word of its command line names ("command", "encodedcommand"), as
// PowerShell reads them: case-insensitive, with - or /, by a prefix of two
// letters or more, or -c, -e, -ec; "" for any other word.
func psOption(a string) string {
	la := strings.ToLower(a)
	if len(la) < 2 || la[0] != '-' && la[0] != '/' {
		return ""
	}
	switch opt := la[1:]; {
	case opt == "c" || len(opt) >= 2 && strings.HasPrefix("command", opt):
		return "command"
	case opt == "e" || opt == "ec" || len(opt) >= 2 && strings.HasPrefix("encodedcommand", opt):
		return "encodedcommand"
	}
	return ""
}

// decodeEncodedCommand decodes PowerShell's -EncodedCommand argument:
// base64 of UTF-16LE text.
func decodeEncodedCommand(b string) (string, bool) {
	raw, err := base64.StdEncoding.DecodeString(b)
	if err != nil || len(raw)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(raw)/2)
	for i := range u {
		u[i] = uint16(raw[2*i]) | uint16(raw[2*i+1])<<8
	}
	return string(utf16.Decode(u)), true
}
