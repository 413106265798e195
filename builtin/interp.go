package builtin

import (
	"path"
	"regexp"
	"strings"

	"github.com/hookctl/hookctl/lib/shell"
)

// maxCode bounds the code of one interpreter command that is scanned, and
// maxCalls the calls looked at in it, so that a huge one-liner costs
// little.
const (
	maxCode  = 64 << 10
	maxCalls = 64
)

// callKind tells what a call found in interpreter code does.
type callKind uint8

const (
	callRecursive callKind = iota // deletes a directory tree: shutil.rmtree, FileUtils.rm_rf
	callMaybe                     // recursive when given {recursive: true}: fs.rmSync, fs.rmdirSync
	callSingle                    // deletes one file or empty directory: os.remove, os.rmdir
	callShell                     // runs a shell command: os.system, execSync, system
)

// langCall is a pattern of a call in one language's code; it ends where
// the call's arguments begin.
type langCall struct {
	re   func() *regexp.Regexp
	kind callKind
}

// langs maps interpreter names (their base name without version digits)
// to the calls looked for in their code.
var langs = map[string][]langCall{}

func init() {
	python := []langCall{
		{lazyRegexp(`\brmtree\b`), callRecursive},
		{lazyRegexp(`\bos\.(?:remove|unlink|rmdir|removedirs)\b`), callSingle},
		{lazyRegexp(`\b(?:os\.(?:system|popen)|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput))\b`), callShell},
	}
	node := []langCall{
		{lazyRegexp(`\brequire\(\s*['"]rimraf['"]\s*\)\.(?:sync|rimrafSync|rimraf)\b|\brimraf(?:Sync|\.sync|\.rimrafSync)?\b|\.(?:removeSync|remove|emptyDirSync|emptyDir)\b`), callRecursive},
		{lazyRegexp(`\b(?:rmSync|rmdirSync)\b|\.(?:rm|rmdir)\b`), callMaybe},
		{lazyRegexp(`\bunlinkSync\b|\.unlink\b`), callSingle},
		{lazyRegexp(`\b(?:execSync|exec|execFileSync|execFile|spawnSync|spawn)\b`), callShell},
	}
	ruby := []langCall{
		{lazyRegexp(`\b(?:rm_rf|rm_r|remove_dir|remove_entry_secure|remove_entry|rmtree)\b`), callRecursive},
		{lazyRegexp(`\bFileUtils\.(?:rm_f|rm|rmdir|remove)\b|\bFile\.(?:delete|unlink)\b|\bDir\.(?:rmdir|delete|unlink)\b`), callSingle},
		{lazyRegexp(`\b(?:system|exec|spawn)\b`), callShell},
	}
	perl := []langCall{
		{lazyRegexp(`\b(?:rmtree|remove_tree)\b`), callRecursive},
		{lazyRegexp(`\b(?:unlink|rmdir)\b`), callSingle},
		{lazyRegexp(`\b(?:system|exec)\b`), callShell},
	}
	for _, n := range []string{"python", "pypy", "python2", "python3"} {
		langs[n] = python
	}
	for _, n := range []string{"node", "nodejs", "bun", "deno"} {
		langs[n] = node
	}
	langs["ruby"] = ruby
	langs["perl"] = perl
}

// langOf returns the calls to look for in the code of an interpreter
// ("python3.12" counts as python), or nil if name is not one.
func langOf(name string) []langCall {
	if l, ok := langs[name]; ok {
		return l
	}
	if n := len(name); n > 0 && (name[n-1] == '.' || name[n-1] >= '0' && name[n-1] <= '9') {
		return langs[strings.TrimRight(name, "0123456789.")]
	}
	return nil
}

// interpreter checks the code that python, node, ruby or perl (and bun,
// deno) run: every argument word, which holds -c/-e one-liners, the
// here-document or here-string on its standard input, and code that echo,
// printf or cat pipe into it. A recursive delete (shutil.rmtree,
// fs.rmSync(..., {recursive: true}), FileUtils.rm_rf, rmtree) of /, a home
// or system directory, the project or its parents is denied, as is one
// outside the project (when outside_project is on); of a path the guard
// cannot work out, it asks. A one-file delete (os.remove, os.rmdir) is
// denied only on those directories. Shell commands the code runs
// (os.system, execSync, system) are checked as command lines.
func (g *dangerGuard) interpreter(segs []shell.Segment, i int, s shell.Segment, at place, project string) (finding, bool) {
	calls := langOf(s.Name)
	if calls == nil {
		return finding{}, false
	}
	var codes []string
	if len(s.Argv) > 1 {
		codes = append(codes, strings.Join(s.Argv[1:], "\n"))
	}
	for _, r := range s.Redirects {
		if r.Fd != "" && r.Fd != "0" {
			continue
		}
		switch r.Op {
		case "<<<":
			codes = append(codes, r.Target)
		case "<<", "<<-":
			codes = append(codes, r.Body)
		}
	}
	if s.Op == "|" || s.Op == "|&" {
		j := i - 1
		for j >= 0 && segs[j].Subshell && !s.Subshell {
			j--
		}
		if j >= 0 {
			switch up := segs[j]; up.Name {
			case "echo", "printf":
				codes = append(codes, strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(strings.Join(up.Args(), " ")))
			case "cat":
				for _, r := range up.Redirects {
					if r.Op == "<<" || r.Op == "<<-" {
						codes = append(codes, r.Body)
					} else if r.Op == "<<<" {
						codes = append(codes, r.Target)
					}
				}
			}
		}
	}
	text := strings.Join(s.Argv, " ")
	var (
		asked finding
		ask   bool
	)
	for _, code := range codes {
		if len(code) > maxCode {
			code = code[:maxCode]
		}
		f, ok := g.code(calls, code, at, project)
		if !ok {
			continue
		}
		if f.cmd == "" {
			f.cmd = text
		}
		if !f.ask {
			return f, true
		}
		if !ask {
			asked, ask = f, true
		}
	}
	return asked, ask
}

// code checks one piece of interpreter code.
func (g *dangerGuard) code(calls []langCall, code string, at place, project string) (finding, bool) {
	var (
		asked finding
		ask   bool
	)
	n := 0
	for _, c := range calls {
		for _, loc := range c.re().FindAllStringIndex(code, maxCalls) {
			if n++; n > maxCalls {
				break
			}
			name := code[loc[0]:loc[1]]
			args, ok := callArgs(code[loc[1]:])
			if !ok {
				continue // named, not called: an import, a word in a string
			}
			f, found := g.call(c.kind, name, args, at, project)
			if !found {
				continue
			}
			if !f.ask {
				return f, true
			}
			if !ask {
				asked, ask = f, true
			}
		}
	}
	if ok, fs := g.backticks(code, at, project); ok {
		return fs, true
	}
	if !ask && strings.Contains(code, "rmtree") {
		return g.rmtreeAlias(code, at, project)
	}
	return asked, ask
}

var (
	// rmtreeAliasRe finds rmtree taken under another name or passed as a
	// value: "rmtree as r", "f = shutil.rmtree", "map(shutil.rmtree, ...)".
	rmtreeAliasRe = lazyRegexp(`\brmtree\s+as\s+\w|=\s*[\w.]*\brmtree\b\s*(?:[;\n,)]|$)|[(,]\s*[\w.]*\brmtree\s*[,)]`)
	// strLitRe finds simple string literals.
	strLitRe = lazyRegexp(`'([^'\\\n]{0,1000})'|"([^"\\\n]{0,1000})"`)
)

// rmtreeAlias judges code that calls rmtree under another name: a string
// literal in it naming what rm -r must never delete is denied; with no
// string literal to judge, it asks.
func (g *dangerGuard) rmtreeAlias(code string, at place, project string) (finding, bool) {
	if !rmtreeAliasRe().MatchString(code) {
		return finding{}, false
	}
	lits := strLitRe().FindAllStringSubmatch(code, maxCalls)
	for _, m := range lits {
		t := g.classifyArg(m[1]+m[2], at.cwd)
		if what := g.projectTarget(t, project); allTargets.has(t.kind) || what != "" {
			if what == "" {
				what = t.describe()
			}
			return finding{rule: ruleInterpreter, why: "passes " + what + " to shutil.rmtree under another name"}, true
		}
	}
	if len(lits) == 0 {
		return finding{rule: ruleUnseen, ask: true, why: "calls shutil.rmtree under another name on a path the guard cannot see"}, true
	}
	return finding{}, false
}

// backtickRe finds commands in backticks, qx{...} and %x{...}: Ruby's and
// Perl's shell-outs (in JavaScript, a template literal; checked alike).
var backtickRe = lazyRegexp("`([^`]{1,1000})`|\\b(?:qx|%x)\\{([^}]{1,1000})\\}")

// backticks checks the shell commands of Ruby and Perl backticks.
func (g *dangerGuard) backticks(code string, at place, project string) (bool, finding) {
	if !strings.ContainsAny(code, "`{") {
		return false, finding{}
	}
	for _, m := range backtickRe().FindAllStringSubmatch(code, maxCalls) {
		cmd := m[1] + m[2]
		if f, ok := g.nested(cmd, at, project); ok && !f.ask {
			return true, f
		}
	}
	return false, finding{}
}

// call judges one call of the given kind with its argument text.
func (g *dangerGuard) call(kind callKind, name, args string, at place, project string) (finding, bool) {
	cwd := at.cwd
	parts := splitTop(args, ',')
	if len(parts) == 0 || strings.TrimSpace(parts[0]) == "" {
		return finding{}, false
	}
	call := truncate(name+"("+args+")", 120)
	if kind == callShell {
		line, ok := shellOut(parts)
		if !ok {
			// "rm -rf " + os.path.expanduser("~")
			if line, ok = g.evalPath(parts[0], cwd); !ok {
				return finding{}, false
			}
		}
		f, found := g.nested(line, at, project)
		if found {
			f.cmd = call + "` runs `" + f.cmd
		}
		return f, found
	}
	recursive := kind == callRecursive
	if kind == callMaybe {
		recursive = recursiveOptRe().MatchString(args)
	}
	first := parts[0]
	if m := kwargRe().FindStringSubmatch(first); m != nil {
		first = m[1] // shutil.rmtree(path="/opt")
	}
	p, known := g.evalPath(first, cwd)
	if !known {
		if recursive {
			return finding{rule: ruleUnseen, cmd: call, ask: true,
				why: "deletes a directory tree the guard cannot work out"}, true
		}
		return finding{}, false
	}
	t := g.classifyArg(p, cwd)
	verb := "deletes "
	if recursive {
		verb = "recursively deletes "
	}
	switch {
	case allTargets.has(t.kind):
		return finding{rule: ruleInterpreter, cmd: call, why: verb + t.describe()}, true
	case g.projectTarget(t, project) != "":
		return finding{rule: ruleInterpreter, cmd: call, why: verb + g.projectTarget(t, project)}, true
	case recursive && g.outside && project != "" && g.outsideOf(t, project) != "":
		return finding{rule: ruleRmOutside, cmd: call, why: verb + g.outsideOf(t, project) + ", outside the project " + project}, true
	case recursive && t.path == "":
		return finding{rule: ruleUnseen, cmd: call, ask: true,
			why: "deletes a directory tree the guard cannot work out"}, true
	}
	return finding{}, false
}

// kwargRe matches a keyword argument, name=value.
var kwargRe = lazyRegexp(`^\s*[A-Za-z_]\w*\s*=([^=].*)$`)

// recursiveOptRe finds {recursive: true} in a Node call's options.
var recursiveOptRe = lazyRegexp(`recursive['"]?\s*:\s*(?:true|1|!0|[A-Za-z_$])`)

// shellOut returns the command line a shell-out call runs: its string
// argument, or its argument list (a literal array, or several string
// arguments) quoted into one.
func shellOut(parts []string) (string, bool) {
	first := strings.TrimSpace(parts[0])
	if strings.HasPrefix(first, "[") || strings.HasPrefix(first, "%w") {
		inner := strings.TrimSpace(first)
		inner = strings.TrimPrefix(inner, "%w")
		if len(inner) < 2 {
			return "", false
		}
		var words []string
		elems := splitTop(inner[1:len(inner)-1], ',')
		if strings.HasPrefix(first, "%w") {
			elems = strings.Fields(inner[1 : len(inner)-1])
			for i, e := range elems {
				elems[i] = "'" + e + "'"
			}
		}
		for _, e := range elems {
			w, ok := stringLit(e)
			if !ok {
				return "", false
			}
			words = append(words, shellQuote(w))
		}
		return strings.Join(words, " "), len(words) > 0
	}
	var words []string
	for i, p := range parts {
		if i == 1 && strings.HasPrefix(strings.TrimSpace(p), "[") {
			// spawnSync("rm", ["-rf", "/"])
			more, ok := shellOut(parts[1:2])
			if ok {
				words = append(words, more)
			}
			break
		}
		w, ok := stringLit(p)
		if !ok {
			break
		}
		words = append(words, w)
	}
	switch len(words) {
	case 0:
		return "", false
	case 1:
		return words[0], true
	}
	for i := range words[1:] {
		if !strings.HasPrefix(strings.TrimSpace(parts[i+1]), "[") {
			words[i+1] = shellQuote(words[i+1])
		}
	}
	words[0] = shellQuote(words[0])
	return strings.Join(words, " "), true
}

// callArgs returns the argument text of a call whose name ends where rest
// begins: what is inside the parentheses, or for Ruby and Perl calls
// without them ("FileUtils.rm_rf '/opt'"), the rest of the statement. It
// reports false when the name is not called.
func callArgs(rest string) (string, bool) {
	r := strings.TrimLeft(rest, " \t")
	if strings.HasPrefix(r, "(") {
		end := matchClose(r)
		return r[1:end], true
	}
	if len(r) == len(rest) || r == "" {
		return "", false // "rmtree)" or "rmtree;": named, not called
	}
	switch r[0] {
	case '\'', '"', '$', '[', '%', '`':
	default:
		if !strings.HasPrefix(r, "File") && !strings.HasPrefix(r, "Dir") && !strings.HasPrefix(r, "ENV") {
			return "", false
		}
	}
	end := len(r)
	if i := strings.IndexAny(r, ";\n}"); i >= 0 {
		end = i
	}
	return r[:end], true
}

// matchClose returns the index of the parenthesis that closes the one at
// s[0], skipping quoted strings, or len(s) if there is none.
func matchClose(s string) int {
	depth := 0
	for i := 0; i < len(s) && i < 4096; i++ {
		switch c := s[i]; c {
		case '\'', '"', '`':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return len(s)
			}
			i += j + 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return min(len(s), 4096)
}

// splitTop splits s on sep outside brackets and quotes.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"', '`':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				i = len(s)
				continue
			}
			i += j + 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// stringLit returns the value of a string literal: '...', "...", `...`,
// with Python's r/b/u prefixes. Escapes other than \\ and quotes are kept;
// interpolation it cannot evaluate (${x}, #{x}, {x} in an f-string, a Perl
// $var) makes it unknown.
func stringLit(e string) (string, bool) {
	e = strings.TrimSpace(e)
	e = strings.TrimLeft(e, "rRbBuU")
	if len(e) < 2 {
		return "", false
	}
	q := e[0]
	if (q != '\'' && q != '"' && q != '`') || e[len(e)-1] != q {
		return "", false
	}
	v := e[1 : len(e)-1]
	if strings.ContainsRune(v, rune(q)) && !strings.Contains(v, `\`+string(q)) {
		return "", false // two literals: 'a' + 'b'
	}
	v = strings.NewReplacer(`\\`, `\`, `\'`, `'`, `\"`, `"`).Replace(v)
	return v, true
}

// homeExprRe and cwdExprRe are the expressions for the home and working
// directories in the four languages.
var (
	homeExprRe = lazyRegexp(`^(?:(?:pathlib\.)?Path\.home\(\)|os\.path\.expanduser\(\s*['"]~['"]\s*\)|os\.environ\[\s*['"]HOME['"]\s*\]|os\.environ\.get\(\s*['"]HOME['"]\s*\)|os\.getenv\(\s*['"]HOME['"]\s*\)|(?:os|require\(\s*['"](?:node:)?os['"]\s*\))\.homedir\(\)|process\.env\.HOME|process\.env\[\s*['"]HOME['"]\s*\]|Dir\.home|ENV\[\s*['"]HOME['"]\s*\]|ENV\.fetch\(\s*['"]HOME['"]\s*\)|\$ENV\{\s*['"]?HOME['"]?\s*\}|File\.expand_path\(\s*['"]~['"]\s*\)|Deno\.env\.get\(\s*['"]HOME['"]\s*\))$`)
	cwdExprRe  = lazyRegexp(`^(?:os\.getcwd\(\)|(?:pathlib\.)?Path\.cwd\(\)|process\.cwd\(\)|Deno\.cwd\(\)|Dir\.pwd|Dir\.getwd|getcwd\(\)|cwd\(\)|__dirname|\$ENV\{\s*['"]?PWD['"]?\s*\}|ENV\[\s*['"]PWD['"]\s*\]|process\.env\.PWD|os\.environ\[\s*['"]PWD['"]\s*\])$`)
	wrapExprRe = lazyRegexp(`^(?:os\.path\.(?:expanduser|abspath|realpath|normpath)|(?:pathlib\.)?(?:Pure)?(?:Posix)?Path|Pathname\.new|Pathname|File\.expand_path|File\.absolute_path|File\.realpath|path\.resolve|path\.normalize|fs\.realpathSync|String|str)\((.*)\)(?:\.(?:expanduser|resolve|absolute)\(\))?$`)
	joinExprRe = lazyRegexp(`^(?:os\.path\.join|path\.join|path\.resolve|File\.join|Path\.join|catfile|catdir|File::Spec->catfile|File::Spec->catdir)\((.*)\)$`)
)

// evalPath works out the path an expression of interpreter code names,
// relative paths left relative; it reports false when it cannot.
func (g *dangerGuard) evalPath(e, cwd string) (string, bool) {
	return g.evalDepth(strings.TrimSpace(e), cwd, 0)
}

func (g *dangerGuard) evalDepth(e, cwd string, depth int) (string, bool) {
	if depth > 8 || e == "" {
		return "", false
	}
	e = strings.TrimSpace(e)
	for strings.HasPrefix(e, "(") && matchClose(e) == len(e)-1 {
		e = strings.TrimSpace(e[1 : len(e)-1])
	}
	if v, ok := stringLit(e); ok {
		return g.interpolate(v, cwd)
	}
	switch {
	case homeExprRe().MatchString(e):
		return g.home, g.home != ""
	case cwdExprRe().MatchString(e):
		return cwd, cwd != ""
	}
	if m := wrapExprRe().FindStringSubmatch(e); m != nil {
		parts := splitTop(m[1], ',')
		if strings.TrimSpace(parts[0]) == "" {
			return cwd, cwd != "" // Path() is the working directory
		}
		return g.evalDepth(parts[0], cwd, depth+1)
	}
	if m := joinExprRe().FindStringSubmatch(e); m != nil {
		return g.joinPaths(splitTop(m[1], ','), cwd, depth)
	}
	// pathlib's a / b and string concatenation a + b.
	if parts := splitTop(e, '/'); len(parts) > 1 {
		return g.joinPaths(parts, cwd, depth)
	}
	if parts := splitTop(e, '+'); len(parts) > 1 {
		var b strings.Builder
		for _, p := range parts {
			v, ok := g.evalDepth(p, cwd, depth+1)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		}
		return b.String(), true
	}
	return "", false
}

// joinPaths evaluates and joins path parts; an absolute part starts over.
func (g *dangerGuard) joinPaths(parts []string, cwd string, depth int) (string, bool) {
	out := ""
	for _, p := range parts {
		v, ok := g.evalDepth(p, cwd, depth+1)
		if !ok {
			return "", false
		}
		if out == "" || path.IsAbs(v) {
			out = v
		} else {
			out = strings.TrimSuffix(out, "/") + "/" + v
		}
	}
	return out, out != ""
}

// interpolate evaluates the home-directory interpolations a string may
// hold (#{Dir.home}, ${os.homedir()}, $ENV{HOME}); any other
// interpolation makes it unknown.
func (g *dangerGuard) interpolate(v, cwd string) (string, bool) {
	if !strings.ContainsAny(v, "#${") {
		return v, true
	}
	for _, h := range []string{"#{Dir.home}", "#{ENV['HOME']}", `#{ENV["HOME"]}`, "${os.homedir()}", "${process.env.HOME}", "$ENV{HOME}", "$ENV{'HOME'}"} {
		if g.home != "" {
			v = strings.ReplaceAll(v, h, g.home)
		}
	}
	for _, c := range []string{"#{Dir.pwd}", "${process.cwd()}", "$ENV{PWD}"} {
		if cwd != "" {
			v = strings.ReplaceAll(v, c, cwd)
		}
	}
	if strings.Contains(v, "#{") || strings.Contains(v, "${") || strings.Contains(v, "$") {
		return "", false
	}
	if strings.Contains(v, "{") && strings.Contains(v, "}") {
		return "", false // a Python f-string or format template
	}
	return v, true
}
