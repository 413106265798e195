package builtin

import (
	"encoding/base64"
	"path"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/hookctl/hookctl/lib/shell"
)

// windowsCommand judges, under Windows' rules, the commands PowerShell
// and cmd run that the POSIX rules do not know: a recursive
// Remove-Item (and its aliases ri, del, erase, rd, rmdir, rm) and cmd's
// rd, rmdir, del and erase with /s are judged as rm -r of their paths;
// cmd /c LINE and powershell or pwsh -Command LINE (-EncodedCommand
// decoded), what start (cmd's, and PowerShell's Start-Process), runas
// and Invoke-Command's script block run are checked as nested lines. $env:USERPROFILE,
// ${env:USERPROFILE}, $USERPROFILE and %USERPROFILE% in a path are the
// home directory. The lines are read with the POSIX parser: what it
// cannot split as PowerShell does is not seen.
func (g *dangerGuard) windowsCommand(s shell.Segment, at place, project string) (finding, bool) {
	if len(s.Argv) == 0 {
		return finding{}, false
	}
	// cmd runs @rd as rd (the @ only keeps the line from being echoed),
	// and rd/s/q as rd /s/q (switches glued to the name).
	raw := strings.TrimLeft(s.Argv[0], "@")
	args := s.Argv[1:]
	if i := strings.IndexByte(raw, '/'); i > 0 && cmdGlued[strings.ToLower(raw[:i])] {
		raw, args = raw[:i], append([]string{raw[i:]}, args...)
	}
	name := strings.TrimSuffix(strings.ToLower(path.Base(strings.ReplaceAll(raw, `\`, "/"))), ".exe")
	switch name {
	case "cmd":
		for i, a := range args {
			la := strings.ToLower(a)
			switch {
			case la == "/c", la == "/k", la == "/r", la == "//c", la == "//k", la == "//r":
				return g.nested(strings.Join(args[i+1:], " "), at, project)
			case len(la) > 2 && la[0] == '/' && strings.IndexByte("ckr", la[1]) >= 0:
				// cmd /crd /s /q C:\: the line glued to the switch
				return g.nested(strings.Join(append([]string{a[2:]}, args[i+1:]...), " "), at, project)
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
	case "start", "start-process", "saps":
		return g.firstFinding(startLines(args), at, project)
	case "runas":
		for i, a := range args {
			if !strings.HasPrefix(a, "/") {
				return g.nested(strings.Join(args[i:], " "), at, project)
			}
		}
	case "iex", "invoke-expression":
		return g.nested(strings.Join(args, " "), at, project)
	case "invoke-command", "icm":
		line := strings.Join(args, " ")
		if i, j := strings.IndexByte(line, '{'), strings.LastIndexByte(line, '}'); i >= 0 && j > i {
			return g.nested(line[i+1:j], at, project)
		}
	case "remove-item", "ri", "del", "erase", "rd", "rmdir", "rm":
		var paths []string
		recursive := name == "rm" && s.Flag("r", "R", "recursive")
		for _, a := range args {
			la := strings.ToLower(a)
			switch {
			case name != "remove-item" && name != "ri" && name != "rm" && cmdSwitches(la) != "":
				// cmd's switches, alone or run together (/s/q)
				if strings.Contains(cmdSwitches(la), "s") {
					recursive = true
				}
			case strings.HasPrefix(la, "-"):
				opt, _, _ := strings.Cut(la[1:], ":")
				if opt == "r" || len(opt) >= 2 && strings.HasPrefix("recurse", opt) {
					recursive = true
				}
			case strings.HasPrefix(la, "/") && len(la) == 2 && name != "rm" && name != "remove-item" && name != "ri":
				// another cmd switch (/q, /f, /a)
			default:
				paths = append(paths, winSystemDir(winHome(a, "~")))
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

// firstFinding checks each of lines, the readings of one command line: a
// deny of any wins, else the first question.
func (g *dangerGuard) firstFinding(lines []string, at place, project string) (finding, bool) {
	var ask finding
	asked := false
	for _, l := range lines {
		f, ok := g.nested(l, at, project)
		switch {
		case ok && !f.ask:
			return f, true
		case ok && !asked:
			ask, asked = f, true
		}
	}
	return ask, asked
}

// startLines returns the command lines cmd's start and PowerShell's
// Start-Process (whose alias start is) may run, in every reading: as cmd
// reads it, its switches (/wait, /d DIR, /node N, /affinity MASK) then the
// program and its arguments as written, with and without the first word
// (cmd takes it as the window's title when it was quoted, start "" rm -rf
// ~, a distinction the words no longer carry); and as PowerShell reads
// it, its parameters (-Wait, -WorkingDirectory DIR, -FilePath PROG,
// -ArgumentList ARGS, whose commas separate arguments) left out and the
// program joined to its arguments.
func startLines(args []string) []string {
	var lines []string
	// cmd: START ["title"] [switches] program args
	switches := func(i int) int {
		for ; i < len(args) && strings.HasPrefix(args[i], "/") && len(args[i]) > 1; i++ {
			switch strings.ToLower(args[i]) {
			case "/d", "/node", "/affinity":
				i++
			}
		}
		return i
	}
	for _, from := range []int{0, 1} {
		if i := switches(from); i < len(args) {
			if l := strings.Join(args[i:], " "); !slices.Contains(lines, l) {
				lines = append(lines, l)
			}
		}
	}
	var prog, words []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		la := strings.ToLower(a)
		if !strings.HasPrefix(la, "-") || len(la) < 2 {
			words = append(words, a)
			continue
		}
		name, _, attached := strings.Cut(strings.TrimLeft(la, "-"), ":")
		// The value: -Param:VALUE, or the next word.
		value := func() (string, bool) {
			if attached {
				_, v, _ := strings.Cut(a, ":")
				return v, true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		switch {
		case startSwitch(name):
		case len(name) >= 2 && strings.HasPrefix("argumentlist", name) || name == "args":
			if v, ok := value(); ok {
				words = append(words, strings.ReplaceAll(v, ",", " "))
			}
		case name != "" && strings.HasPrefix("filepath", name) || name == "pspath" || name == "path":
			if v, ok := value(); ok {
				prog = append(prog, v)
			}
		case startParam(name):
			if !attached {
				i++
			}
		default: // not Start-Process': an argument
			words = append(words, a)
		}
	}
	if ps := strings.Join(append(prog, words...), " "); ps != "" && !slices.Contains(lines, ps) {
		lines = append(lines, ps)
	}
	return lines
}

// startParam reports whether name is one of Start-Process' parameters
// that take a value, by a prefix of two letters or more.
func startParam(name string) bool {
	if len(name) < 2 {
		return false
	}
	for _, p := range []string{"workingdirectory", "verb", "windowstyle", "credential", "redirectstandardinput",
		"redirectstandardoutput", "redirectstandarderror", "environment"} {
		if strings.HasPrefix(p, name) {
			return true
		}
	}
	return false
}

// startSwitch reports whether name is one of Start-Process' switches
// (parameters without a value), by a prefix of two letters or more.
func startSwitch(name string) bool {
	if len(name) < 2 {
		return false
	}
	for _, sw := range []string{"wait", "nonewwindow", "passthru", "loaduserprofile", "usenewenvironment"} {
		if strings.HasPrefix(sw, name) {
			return true
		}
	}
	return false
}

// cmdSwitches returns the letters of a word of cmd switches, one or run
// together (/s, /s/q, /S/Q/F), "" for any other word.
func cmdSwitches(la string) string {
	if len(la) < 2 || la[0] != '/' {
		return ""
	}
	var out []byte
	for _, part := range strings.Split(la[1:], "/") {
		if len(part) != 1 || part[0] < 'a' || part[0] > 'z' {
			return ""
		}
		out = append(out, part[0])
	}
	return string(out)
}

// winSystemVars are the spellings, in cmd and PowerShell, of the system's
// own directories, and the directory each stands for (the system drive
// taken as C:, where Windows is installed unless it was moved).
var winSystemVars = []struct{ v, dir string }{
	{"%SystemDrive%", "C:"}, {"$env:SystemDrive", "C:"}, {"${env:SystemDrive}", "C:"},
	{"%SystemRoot%", `C:\Windows`}, {"$env:SystemRoot", `C:\Windows`}, {"${env:SystemRoot}", `C:\Windows`},
	{"%windir%", `C:\Windows`}, {"$env:windir", `C:\Windows`}, {"${env:windir}", `C:\Windows`},
	{"%ProgramFiles%", `C:\Program Files`}, {"$env:ProgramFiles", `C:\Program Files`}, {"${env:ProgramFiles}", `C:\Program Files`},
	{"%ProgramFiles(x86)%", `C:\Program Files (x86)`}, {"${env:ProgramFiles(x86)}", `C:\Program Files (x86)`},
	{"%ProgramData%", `C:\ProgramData`}, {"$env:ProgramData", `C:\ProgramData`}, {"${env:ProgramData}", `C:\ProgramData`},
	{"%ALLUSERSPROFILE%", `C:\ProgramData`}, {"$env:ALLUSERSPROFILE", `C:\ProgramData`},
	{"%PUBLIC%", `C:\Users\Public`}, {"$env:PUBLIC", `C:\Users\Public`},
}

// winSystemDir returns w with a leading spelling of a system directory
// (winSystemVars, in any case) replaced by the directory.
func winSystemDir(w string) string {
	if len(w) < 2 || w[0] != '$' && w[0] != '%' {
		return w
	}
	for _, sv := range winSystemVars {
		if len(w) >= len(sv.v) && strings.EqualFold(w[:len(sv.v)], sv.v) {
			rest := w[len(sv.v):]
			if rest == "" || rest[0] == '/' || rest[0] == '\\' {
				return sv.dir + rest
			}
		}
	}
	return w
}

// cmdGlued are cmd's commands that take their switches glued to their
// name (rd/s/q).
var cmdGlued = map[string]bool{"rd": true, "rmdir": true, "del": true, "erase": true, "cmd": true, "start": true}

// winReadings returns further readings of a line under Windows' rules,
// as PowerShell runs it where a POSIX parser fails on it or splits it
// otherwise: without PowerShell's call operator (& cmd /c ..., & { ... });
// without cmd's and PowerShell's escape characters (^, `);
// with PowerShell's arrays and grouping flattened into words
// (-ArgumentList @('/c','rd /s /q C:\')); and each script block's body
// (& { ... }, powershell { ... }, Start-Job { ... }).
func winReadings(line string) []string {
	var out []string
	add := func(r string) {
		if r = strings.TrimSpace(r); r != "" && r != line && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	if t := strings.TrimSpace(line); strings.HasPrefix(t, "&") {
		add(strings.TrimLeft(t, "& "))
	}
	if strings.ContainsAny(line, "(),") {
		add(strings.NewReplacer("@(", " ", "(", " ", ")", " ", ",", " ").Replace(strings.TrimLeft(strings.TrimSpace(line), "& ")))
	}
	// cmd's escape (r^d is rd) and PowerShell's (R`emove-Item is
	// Remove-Item), taken out.
	if strings.Contains(line, "^") {
		add(strings.ReplaceAll(line, "^", ""))
	}
	if strings.Contains(line, "`") {
		add(strings.ReplaceAll(line, "`", ""))
	}
	for rest := line; ; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		depth, j := 0, i
		for ; j < len(rest); j++ {
			if rest[j] == '{' {
				depth++
			} else if rest[j] == '}' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		if j >= len(rest) {
			add(rest[i+1:])
			break
		}
		add(rest[i+1 : j])
		rest = rest[j+1:]
	}
	return out
}
