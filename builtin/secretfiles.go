package builtin

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/lib/paths"
	"github.com/hookctl/hookctl/lib/shell"
)

// defaultSecretPatterns are the files secret-files protects, as globs for
// paths.Match (a pattern without a slash matches the base name anywhere).
var defaultSecretPatterns = []string{
	".env", ".env.*",
	"*.pem", "*.key", "*.p12", "*.pfx", "*.keystore", "*.jks",
	"id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
	".ssh/**",
	".aws/credentials", ".aws/config",
	".config/gcloud/**", ".azure/**",
	".kube/config", ".docker/config.json",
	".npmrc", ".pypirc", ".netrc", ".pgpass", ".git-credentials",
	"credentials.json", "secrets.json", "secrets.yaml", "secrets.yml",
	// The same secrets where Windows keeps them (and GitHub CLI's token).
	"_netrc", "*.ppk", "AppData/Roaming/postgresql/pgpass.conf", "AppData/Roaming/gcloud/**",
	"AppData/Roaming/GitHub CLI/hosts.yml", ".config/gh/hosts.yml",
}

// defaultSecretAllow are files that look protected but hold no secrets.
var defaultSecretAllow = []string{
	".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults", "*.pub",
}

// secretSamples are concrete protected names a glob is tried against
// (checkGlob), beside the names globSamples makes of the patterns.
var secretSamples = []string{
	".env", ".env.local", ".env.production", "server.pem", "server.key", "cert.p12", "cert.pfx",
	"release.keystore", "store.jks", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519",
	".npmrc", ".pypirc", ".netrc", ".pgpass", ".git-credentials", "credentials.json",
	"secrets.json", "secrets.yaml", "secrets.yml",
	".ssh/id_rsa", ".ssh/config", ".aws/credentials", ".aws/config", ".config/gcloud/credentials.db",
	".azure/accessTokens.json", ".kube/config", ".docker/config.json",
	"_netrc", "server.ppk",
}

func secretSpec() Spec {
	return Spec{
		Name: "secret-files",
		Description: "Denies (or asks about) reading, writing or sending secret files: .env files, private keys, SSH, cloud and " +
			"package-manager credentials, by tool path or by a Bash command that reads, copies, uploads, sources or redirects them. " +
			"Example and public-key files stay allowed.",
		Events:   []string{"PreToolUse", "PermissionRequest"},
		Priority: 900,
		Options: []OptionSpec{
			{Name: "allow", Type: TypeList, Doc: "extra globs of files that are never protected, added to " + strings.Join(defaultSecretAllow, " ")},
			{Name: "mode", Type: TypeString, Doc: `"deny" or "ask"`, Default: "deny"},
			{Name: "patterns", Type: TypeList, Doc: "extra globs of protected files, added to the defaults (.env, .env.*, *.pem, *.key, id_rsa*, .ssh/**, .aws/credentials, ...)"},
		},
	}
}

// secretTools are the tools secret-files looks at.
const secretTools = "Read|Edit|Write|MultiEdit|NotebookEdit|Grep|Glob|Bash"

func buildSecretFiles(b *build) ([]engine.Hook, error) {
	mode, err := b.mode()
	if err != nil {
		return nil, err
	}
	for _, opt := range []string{"patterns", "allow"} {
		for i, p := range b.opts.list(opt) {
			if p == "" {
				return nil, b.optErr(opt, "element %d is empty: not a valid glob", i)
			}
			if err := paths.PatternError(p); err != nil {
				return nil, b.optErr(opt, "element %d (%q): %v", i, p, err)
			}
		}
	}
	sc := &secretChecker{
		protect: slices.Concat(defaultSecretPatterns, b.opts.list("patterns")),
		allow:   slices.Concat(defaultSecretAllow, b.opts.list("allow")),
		home:    b.home,
		shell:   newParser(b.shell, b.cfg.system),
		sys:     b.cfg.system,
		dirs:    placeTracker(b.home, b.cfg.system),
	}
	sc.samples = globSamples(sc.protect, b.cfg.system.IsWindows())
	decide := engine.Deny
	if mode == "ask" {
		decide = engine.Ask
	}
	h := b.hook(engine.Hook{
		Event: "PreToolUse",
		// And the input a permission prompt is about to run: a
		// PermissionRequest hook's updatedInput is applied after the
		// PreToolUse hooks, so it is judged here too.
		Events:  []string{"PermissionRequest"},
		Matcher: secretTools,
		Handler: cheap(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			in, dirs := shellCall(sc.sys, sc.home, c.Payload)
			for i := range dirs.len() {
				if hit, ok := sc.checkTool(toolOf(c.Payload), in, dirs.at(i)); ok {
					return decide(hit.reason()), nil
				}
			}
			return nil, nil
		}),
	})
	return []engine.Hook{h}, nil
}

// secretChecker tells whether a tool call touches protected files. It is
// immutable and safe for concurrent use.
type secretChecker struct {
	protect []string // globs of protected files
	allow   []string // globs of files never protected
	home    string
	shell   cmdParser
	sys     paths.System // the path rules (zero: the host's)
	samples []globSample // the names checkGlob tries a glob against
	// dirs follows the cd, pushd and popd of a command line, as
	// dangerous-commands does (places.go): only its home and sys are set.
	dirs *dangerGuard
}

// placeTracker returns the dangerGuard whose place methods (places.go)
// follow a command line's directory changes for home and sys.
func placeTracker(home string, sys paths.System) *dangerGuard {
	return &dangerGuard{home: home, sys: sys, shell: newParser(nil, sys)}
}

// newDefaultSecretChecker returns a checker with the default lists.
func newDefaultSecretChecker(home string, sh *shell.Cache, sys paths.System) *secretChecker {
	return &secretChecker{protect: defaultSecretPatterns, allow: defaultSecretAllow, home: home, shell: newParser(sh, sys), sys: sys, dirs: placeTracker(home, sys),
		samples: globSamples(defaultSecretPatterns, sys.IsWindows())}
}

// secretHit is one protected file touched.
type secretHit struct {
	file    string // as the tool or command named it
	pattern string // the protecting pattern
	how     string // how it is touched
}

func (h secretHit) reason() string {
	if h.pattern == "" {
		return fmt.Sprintf("%s: %s, so it may touch a protected secret file (secret-files)", h.file, h.how)
	}
	return fmt.Sprintf("%s is a protected secret file (secret-files pattern %q): %s", h.file, h.pattern, h.how)
}

// protected returns the pattern protecting the path p (resolved or not).
func (sc *secretChecker) protected(p string) (string, bool) {
	if p == "" || sc.sys.MatchEvery(sc.allow, p) {
		return "", false
	}
	for _, pat := range sc.protect {
		if sc.sys.Match(pat, p) {
			return pat, true
		}
	}
	return "", false
}

// resolve makes a path absolute against cwd where possible.
func (sc *secretChecker) resolve(p, cwd string) string {
	if cwd == "" && !path.IsAbs(p) && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "$HOME") && !strings.HasPrefix(p, "${HOME}") {
		return sc.sys.Normalize(p)
	}
	return sc.sys.Resolve(p, cwd, sc.home)
}

// checkPath checks a path given to a tool or command.
func (sc *secretChecker) checkPath(p, cwd, how string) (secretHit, bool) {
	if p == "" {
		return secretHit{}, false
	}
	if sc.sys.IsWindows() && strings.IndexByte(p, '~') >= 0 {
		// An 8.3 short name (ENV~1, SSH~1\config, AWS~1\CREDEN~1) may be
		// a protected file's: judged as the glob of the names it may
		// stand for.
		for _, g := range shortNameGlobs(p) {
			if h, ok := sc.checkGlob(g, cwd, how+", and "+p+" may be the 8.3 short name of a protected file"); ok {
				h.file = p
				return h, true
			}
		}
	}
	if hasGlob(p) {
		return sc.checkGlob(p, cwd, how)
	}
	// Each reading of p (Git Bash's /c/x as C:/x on Windows, see
	// paths.ArgForms): protected when any of them is.
	for _, f := range sc.sys.ArgFormsIn(p, cwd) {
		if pat, ok := sc.protected(sc.resolve(f, cwd)); ok {
			return secretHit{file: p, pattern: pat, how: how}, true
		}
	}
	// resolve reads a backslash as a separator; on Unix it is also a
	// name character (a file named .env.local\x), and paths.Match tries
	// that raw form too: a backslash path is protected when either
	// reading of it is.
	if strings.Contains(p, `\`) {
		if pat, ok := sc.protected(p); ok {
			return secretHit{file: p, pattern: pat, how: how}, true
		}
	}
	return secretHit{}, false
}

func hasGlob(p string) bool { return strings.ContainsAny(p, "*?[{") }

// shortNameGlobs returns, for a path with components that look like
// Windows 8.3 short names (up to six characters, ~ and a number, and an
// extension of up to three: ENV~1, CREDEN~1, SECRET~1.JSO), globs of the
// long names they may stand for: the short name's stem begins the long
// name but for its dots and blanks ({.,}env*), the extension begins its
// extension (secret*.jso*); and, when a short name has an extension, any
// name with that extension (*.pem* for MYKEY~1.PEM, whose stem *.pem
// patterns do not spell). A stem of two characters and four hex digits
// (Windows' hashed form) keeps its first two. nil when no component looks
// like a short name.
func shortNameGlobs(p string) []string {
	comps := strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' })
	lead := ""
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) {
		lead = "/"
	}
	if strings.HasPrefix(p, "//") || strings.HasPrefix(p, `\\`) {
		lead = "//"
	}
	stem, ext := slices.Clone(comps), slices.Clone(comps)
	found, hasExt := false, false
	for i, c := range comps {
		st, e, ok := shortName(c)
		if !ok {
			continue
		}
		found = true
		stem[i] = "{.,}" + st + "*"
		ext[i] = stem[i]
		if e != "" {
			stem[i] += "." + e + "*"
			ext[i] = "*." + e + "*"
			hasExt = true
		}
	}
	if !found {
		return nil
	}
	out := []string{lead + strings.Join(stem, "/")}
	if hasExt {
		out = append(out, lead+strings.Join(ext, "/"))
	}
	return out
}

// shortName splits a path component that looks like an 8.3 short name
// into its stem and extension, lower case.
func shortName(c string) (stem, ext string, ok bool) {
	i := strings.LastIndexByte(c, '~')
	if i < 1 || i > 6 {
		return "", "", false
	}
	rest := c[i+1:]
	num, e, _ := strings.Cut(rest, ".")
	if num == "" || strings.Trim(num, "0123456789") != "" || len(c[:i])+1+len(num) > 8 || len(e) > 3 {
		return "", "", false
	}
	stem = strings.ToLower(c[:i])
	if strings.ContainsAny(stem, "*?[]{}.\\ ") || strings.ContainsAny(e, "*?[]{}~") {
		return "", "", false
	}
	if len(stem) == 6 && strings.Trim(stem[2:], "0123456789abcdef") == "" {
		stem = stem[:2] // the hashed form: two characters of the name and a hash
	}
	return stem, strings.ToLower(e), true
}

// checkGlob tells whether a glob names protected files: the glob itself,
// read as a path, is protected; or it can match a sample name of the
// protected patterns (globSamples), compared component by component
// wherever a relative sample may sit (.?sh/* against .ssh/x, .e* against
// .env, ~/.a*/c* against .aws/credentials), however few letters it
// spells, and the name it matches is protected. Components made only of
// * and ? are catch-alls (cat *, **/*): a sample they alone match does not
// count. As bash reads a glob, a component that does not start with a dot
// (or a bracket or brace) does not match a dotfile on Unix; Windows'
// shells have no such rule.
func (sc *secretChecker) checkGlob(g, cwd, how string) (secretHit, bool) {
	if sc.sys.MatchEvery(sc.allow, g) {
		return secretHit{}, false
	}
	for _, f := range sc.sys.ArgForms(g) {
		if pat, ok := sc.protected(sc.resolve(f, cwd)); ok {
			return secretHit{file: g, pattern: pat, how: how}, true
		}
	}
	win := sc.sys.IsWindows()
	for _, f := range sc.sys.ArgForms(g) {
		r := strings.ReplaceAll(sc.resolve(f, cwd), `\`, "/")
		if win {
			r = strings.ToLower(r)
		}
		comps := strings.Split(r, "/")
		for _, s := range sc.samples {
			if name, ok := s.matchedBy(comps, win); ok {
				if pat, ok := sc.protected(name); ok {
					return secretHit{file: g, pattern: pat, how: how + " (the glob can match " + s.name + ")"}, true
				}
			}
		}
	}
	return secretHit{}, false
}

// globSample is a name a protected pattern matches, split into slash
// components, for checkGlob.
type globSample struct {
	name  string   // as shown (.ssh/x)
	comps []string // its components; an absolute one starts with "" or a drive (c:)
	abs   bool
	tree  bool // the pattern ends in /**: every name under comps matches too
}

// globSamples returns the sample names of the protected patterns: each
// pattern with its wildcards replaced by literal text (literalSample:
// .env.* gives .env., *.pem x.pem, .ssh/** the tree .ssh), and the
// concrete names of secretSamples. On Windows they are lower case.
func globSamples(protect []string, win bool) []globSample {
	var out []globSample
	add := func(name string) {
		n := name
		if win {
			n = strings.ToLower(n)
		}
		tree := false
		for strings.HasSuffix(n, "/**") {
			n, tree = strings.TrimSuffix(n, "/**"), true
		}
		for strings.HasPrefix(n, "**/") {
			n = strings.TrimPrefix(n, "**/")
		}
		var comps []string
		for _, c := range strings.Split(n, "/") {
			if c != "**" {
				comps = append(comps, c)
			}
		}
		if len(comps) == 0 || comps[len(comps)-1] == "" {
			return
		}
		abs := strings.HasPrefix(n, "/") || win && len(n) >= 2 && n[1] == ':'
		out = append(out, globSample{name: name, comps: comps, abs: abs, tree: tree})
	}
	for _, p := range protect {
		add(literalSample(p))
	}
	for _, s := range secretSamples {
		add(s)
	}
	return out
}

// literalSample is a name the glob pattern p matches: * is empty after
// other text in its component and x at its start, ? is x, a bracket
// expression its first character (x when negated), a {a,b} alternation
// its first choice; ** is kept for globSamples.
func literalSample(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*':
			if i+1 < len(p) && p[i+1] == '*' {
				b.WriteString("**")
				i++
				continue
			}
			if i == 0 || p[i-1] == '/' {
				b.WriteByte('x')
			}
		case '?':
			b.WriteByte('x')
		case '[':
			j := strings.IndexByte(p[i+1:], ']')
			if j < 0 {
				b.WriteByte(c)
				continue
			}
			if class := p[i+1 : i+1+j]; class != "" && class[0] != '!' && class[0] != '^' {
				b.WriteByte(class[0])
			} else {
				b.WriteByte('x')
			}
			i += 1 + j
		case '{':
			j := strings.IndexByte(p[i+1:], '}')
			if j < 0 {
				b.WriteByte(c)
				continue
			}
			first, _, _ := strings.Cut(p[i+1:i+1+j], ",")
			b.WriteString(first)
			i += 1 + j
		case '\\':
			if i+1 < len(p) {
				i++
				b.WriteByte(p[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// matchedBy tells whether the glob whose slash components are g can match
// the sample (or, for a tree, a name under it), and returns that name
// with the glob's components before it. A relative sample may sit at any
// depth (at the end unless it is a tree); it counts only when a component
// it is matched against is more than * and ?.
func (s globSample) matchedBy(g []string, win bool) (string, bool) {
	k := len(s.comps)
	if s.abs {
		if len(g) < k || !s.tree && len(g) != k {
			return "", false
		}
		for j := range k {
			if !globCompMatch(g[j], s.comps[j], win) {
				return "", false
			}
		}
		return s.under(nil), true
	}
	first, last := 0, len(g)-k
	if !s.tree {
		first = last
	}
	for i := max(first, 0); i <= last; i++ {
		specific, ok := false, true
		for j := range k {
			c := g[i+j]
			if !globCompMatch(c, s.comps[j], win) {
				ok = false
				break
			}
			if strings.Trim(c, "*?") != "" {
				specific = true
			}
		}
		if ok && specific {
			return s.under(g[:i]), true
		}
	}
	return "", false
}

// under is the sample's name below the components before (a name in it,
// for a tree).
func (s globSample) under(before []string) string {
	n := strings.Join(slices.Concat(before, s.comps), "/")
	if s.tree {
		n += "/x"
	}
	return n
}

// globCompMatch reports whether the glob component c matches the name
// component n: bash's * and ? do not match a leading dot on Unix.
func globCompMatch(c, n string, win bool) bool {
	if c == "**" {
		return true
	}
	if !win && strings.HasPrefix(n, ".") && !strings.HasPrefix(c, ".") && !strings.HasPrefix(c, "[") && !strings.HasPrefix(c, "{") {
		return false
	}
	ok, _ := doublestar.Match(c, n)
	return ok
}

// checkTool checks one tool call.
func (sc *secretChecker) checkTool(tool string, in map[string]any, cwd string) (secretHit, bool) {
	if in == nil {
		return secretHit{}, false
	}
	switch tool {
	case "Bash":
		if h, ok := sc.checkCommand(str(in, "command"), cwd); ok {
			return h, true
		}
		// A command that applies a patch (Codex's apply_patch through the
		// shell): the patch's files, as the host's decoder read them.
		return sc.checkPaths(in, cwd, "the patch the command applies would change it")
	case "Grep":
		if h, ok := sc.checkPath(str(in, "path"), cwd, "the Grep tool searches it"); ok {
			return h, true
		}
		return sc.checkPath(str(in, "glob"), cwd, "the Grep tool searches the files its glob names")
	case "Glob":
		if h, ok := sc.checkPath(str(in, "path"), cwd, "the Glob tool lists it"); ok {
			return h, true
		}
		return sc.checkPath(str(in, "pattern"), cwd, "the Glob tool's pattern names it")
	}
	verb := "the " + tool + " tool would touch it"
	switch tool {
	case "Read", "NotebookRead":
		verb = "the " + tool + " tool would read it"
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		verb = "the " + tool + " tool would change it"
	}
	// Claude Code's file_path and notebook_path; other hosts' path,
	// absolute_path (Gemini CLI), filePath (OpenCode) and paths lists.
	for _, k := range []string{"file_path", "notebook_path", "path", "absolute_path", "filePath"} {
		if h, ok := sc.checkPath(str(in, k), cwd, verb); ok {
			return h, true
		}
	}
	return sc.checkPaths(in, cwd, verb)
}

// checkPaths checks the paths list of a call that touches several files
// (Codex's apply_patch): every entry; and a patch whose files cannot be
// read (paths_unknown) is taken as touching a secret: its files are
// unknown, not none.
func (sc *secretChecker) checkPaths(in map[string]any, cwd, verb string) (secretHit, bool) {
	if unknown, _ := in["paths_unknown"].(bool); unknown {
		why, _ := in["paths_error"].(string)
		return secretHit{file: "the files of the patch cannot be read", how: orDefault(why, "no file list")}, true
	}
	if paths, ok := in["paths"].([]any); ok {
		for _, p := range paths {
			if s, ok := p.(string); ok {
				if h, ok := sc.checkPath(s, cwd, verb); ok {
					return h, true
				}
			}
		}
	}
	return secretHit{}, false
}

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// readerOpts are the commands that read, copy, send or edit the files
// named as their operands, with the short options (letters) and long
// options that take the next word as a value, so that values are not
// mistaken for files.
type readerOpts struct {
	short string
	long  []string
	// pattern: the first operand is a pattern or program, not a file,
	// unless one of patFlags gives it.
	pattern  bool
	patFlags []string
	// first: only the first operand is a file (source FILE ARGS...).
	first bool
	// files are the options (short letters, also in short, or long
	// names, also in long) whose value is a file the command reads: date
	// -f, diff --from-file.
	files []string
	// ro: the command only reads (read-only-approver may approve it),
	// when roCheck, if set, accepts its arguments. read-only-approver
	// approves the readers of this table and the commands of
	// readOnlyCommands, which name no file whose bytes they print, so
	// that every command it approves that prints a file is one whose
	// files secret-files judges.
	ro      bool
	roCheck func(shell.Segment) bool
}

var grepOpts = readerOpts{ro: true, files: []string{"f", "file"}, short: "efmABCdD", long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "devices", "directories", "label", "include", "exclude", "exclude-dir", "exclude-from", "binary-files", "color", "colour"}, pattern: true, patFlags: []string{"e", "f", "regexp", "file"}}

var readers = map[string]readerOpts{
	"cat": {ro: true}, "tac": {ro: true}, "nl": {ro: true}, "less": {}, "more": {}, "bat": {}, "batcat": {}, "view": {},
	"head": {ro: true, short: "nc", long: []string{"lines", "bytes"}}, "tail": {ro: true, short: "ncs", long: []string{"lines", "bytes", "sleep-interval", "pid"}},
	"grep": grepOpts, "egrep": grepOpts, "fgrep": grepOpts, "zgrep": grepOpts,
	"rg": {ro: true, roCheck: func(s shell.Segment) bool { return !s.Flag("pre") }, files: []string{"f", "file", "ignore-file"},
		short: "efgtTmABCMjEr", long: []string{"regexp", "file", "glob", "iglob", "type", "type-not", "max-count", "after-context", "before-context", "context", "max-columns", "threads", "encoding", "pre", "pre-glob", "sort", "sortr", "replace"}, pattern: true, patFlags: []string{"e", "f", "regexp", "file", "files", "type-list"}},
	"ag":  {short: "GgABCm", pattern: true},
	"ack": {short: "ABCm", pattern: true},
	"sed": {short: "efl", long: []string{"expression", "file", "line-length"}, pattern: true, patFlags: []string{"e", "f", "expression", "file"}},
	"awk": {short: "fvF", long: []string{"file", "assign", "field-separator"}, pattern: true, patFlags: []string{"f", "file"}},
	"cp":  {short: "tS", long: []string{"target-directory", "suffix"}}, "mv": {short: "tS", long: []string{"target-directory", "suffix"}},
	"scp":    {short: "cFiJlPoS"},
	"rsync":  {short: "eBfT", long: []string{"rsh", "exclude", "include", "filter", "exclude-from", "include-from", "files-from", "temp-dir", "partial-dir", "log-file"}},
	"source": {first: true}, ".": {first: true},
	"base64": {short: "w", long: []string{"wrap"}}, "xxd": {short: "cglos"}, "od": {short: "AjNtw"}, "hexdump": {short: "enNs"},
	"strings": {short: "nte", long: []string{"bytes", "radix", "encoding"}},
	"nano":    {}, "vi": {short: "cSuUTiwWsr"}, "vim": {short: "cSuUTiwWsr"}, "nvim": {short: "cSuUiwWsr"}, "emacs": {},
	"tar": {short: "fCbTXgLN", long: []string{"file", "directory", "files-from", "exclude-from", "exclude"}},
	"zip": {short: "bnPt"}, "7z": {}, "gzip": {}, "cmp": {ro: true, short: "in", long: []string{"ignore-initial", "bytes"}},
	"diff": {ro: true, short: "CUFIxXSWL", files: []string{"X", "from-file", "to-file", "exclude-from"},
		long: []string{"context", "unified", "show-function-line", "ignore-matching-lines", "exclude", "exclude-from", "starting-file", "width", "label", "from-file", "to-file", "tabsize", "horizon-lines", "palette", "color"}},
	"jq": {ro: true, pattern: true, patFlags: []string{"f", "from-file"}, files: []string{"f", "from-file"}, short: "f", long: []string{"from-file", "indent", "arg", "argjson"}},
	"date": {ro: true, roCheck: func(s shell.Segment) bool { return !s.Flag("s", "set") }, files: []string{"f", "file"},
		short: "dfr", long: []string{"date", "file", "reference", "set"}},
	"yq": {pattern: true}, "sort": {ro: true, roCheck: sortReadOnly, short: "ktSTo", files: []string{"files0-from"}, long: []string{"key", "field-separator", "buffer-size", "temporary-directory", "output", "files0-from", "compress-program", "parallel", "batch-size", "sort"}},
	"uniq": {ro: true, roCheck: func(s shell.Segment) bool { return len(s.Args()) <= 1 }, short: "fsw", long: []string{"skip-fields", "skip-chars", "check-chars", "group", "all-repeated"}},
	"cut":  {ro: true, short: "bcdf"}, "openssl": {},
	// tee writes its operands, as an output redirection does.
	"tee": {},
	// More that print, copy, send or transform a file's bytes.
	"paste": {short: "d", long: []string{"delimiters"}}, "comm": {ro: true}, "join": {short: "aeojt12"}, "iconv": {short: "fto", long: []string{"from-code", "to-code", "output"}},
	"fold": {short: "w", long: []string{"width"}}, "rev": {ro: true}, "column": {ro: true, short: "csoNOERWHlCL"}, "split": {short: "abCdlnt"}, "csplit": {short: "bfn"},
	"fmt": {short: "pwg"}, "pr": {short: "hlwoNsSe"}, "expand": {short: "t"}, "unexpand": {short: "t"}, "diff3": {}, "sdiff": {short: "ow"}, "vimdiff": {},
	"zcat": {}, "zless": {}, "zmore": {}, "bzcat": {}, "xzcat": {}, "zstdcat": {}, "bzip2": {}, "xz": {}, "zstd": {short: "o"}, "lz4": {},
	"gunzip": {}, "unzip": {short: "dxX"}, "uuencode": {}, "base32": {short: "w", long: []string{"wrap"}}, "basenc": {short: "w", long: []string{"wrap"}},
	"gpg": {short: "orRuf", long: []string{"output", "recipient", "local-user", "homedir"}}, "age": {short: "oriR", long: []string{"output", "recipient", "identity", "recipients-file"}},
	"install": {short: "gmoSt", long: []string{"group", "mode", "owner", "suffix", "target-directory"}},
	"ln":      {short: "St", long: []string{"suffix", "target-directory"}}, "code": {}, "open": {short: "abe"}, "xdg-open": {},
	"mail": {short: "sbcrqA"}, "mailx": {short: "sbcrqA"}, "mutt": {short: "sbcFiH"},
}

// longIn reports whether the long option name (without its dashes) is
// one of list, or a prefix of two letters or more of one (getopt_long's
// abbreviations: --fi for --file).
func longIn(list []string, name string) bool {
	if slices.Contains(list, name) {
		return true
	}
	if len(name) < 2 {
		return false
	}
	for _, l := range list {
		if strings.HasPrefix(l, name) {
			return true
		}
	}
	return false
}

// commandWords are the words of a command that name files: operands and,
// for the caller, nothing else.
func operands(s shell.Segment, o readerOpts) []string {
	var out, opt []string // operands, and the files options name
	argv := s.Argv
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--":
			out = append(out, argv[i+1:]...)
			i = len(argv)
		case strings.HasPrefix(a, "--"):
			name, v, hasValue := strings.Cut(a[2:], "=")
			if !hasValue && longIn(o.long, name) {
				i++
				if i < len(argv) {
					v, hasValue = argv[i], true
				}
			}
			if hasValue && longIn(o.files, name) {
				opt = append(opt, v)
			}
		case len(a) > 1 && a[0] == '-':
			for k := 1; k < len(a); k++ {
				if strings.IndexByte(o.short, a[k]) >= 0 {
					v := a[k+1:]
					if k == len(a)-1 {
						i++ // the value is the next word
						v = ""
						if i < len(argv) {
							v = argv[i]
						}
					}
					if v != "" && slices.Contains(o.files, a[k:k+1]) {
						opt = append(opt, v)
					}
					break
				}
			}
		default:
			out = append(out, a)
		}
	}
	if o.pattern && len(out) > 0 && !s.Flag(o.patFlags...) {
		out = out[1:]
	}
	if o.first && len(out) > 1 {
		out = out[:1]
	}
	return append(out, opt...)
}

// checkCommand checks a Bash command line.
func (sc *secretChecker) checkCommand(line, cwd string) (secretHit, bool) {
	return sc.checkLine(line, cwd, 0)
}

// checkLine is checkCommand for a line nested depth scripts deep (a
// script echo pipes into a shell: pipedScript).
func (sc *secretChecker) checkLine(line, cwd string, depth int) (secretHit, bool) {
	if strings.TrimSpace(line) == "" {
		return secretHit{}, false
	}
	segs, err := sc.shell.Parse(line)
	if err != nil {
		return sc.fallbackCommand(line, cwd)
	}
	var memo placeMemo
	start := lineStart{cwd: cwd}
	// A file named by a variable the line assigns (F=~/.aws/credentials;
	// cat $F) is each of its values, as dangerous-commands reads it; a
	// cd to one (D=/vault; cd $D) leads to each (placesOf). The values
	// are collected for the first command that uses a variable.
	var (
		vars     map[string][]string
		variants []shell.Segment
		gotVars  bool
	)
	for i := range segs {
		s := &segs[i]
		variants = variants[:0]
		if usesVars(s) {
			if !gotVars {
				vars, gotVars = sc.dirs.lineVars(segs, start.at(sc.sys)), true
			}
			variants = append(append(variants, sc.dirs.varVariants(*s, vars)...), sc.redirectVariants(*s, vars)...)
		}
		for vi := -1; vi < len(variants); vi++ {
			v := s
			if vi >= 0 {
				v = &variants[vi]
			}
			if h, ok := sc.checkRuns(&memo, segs, i, v, &start, vars); ok {
				return h, true
			}
		}
		for _, script := range sc.dirs.scriptValues(*s, vars, depth) {
			// eval "$s", bash -c "$s": the value is a script.
			if h, ok := sc.checkLine(script, cwd, depth+1); ok {
				return h, true
			}
		}
		if h, ok := sc.pipedScript(segs, i, &start, cwd, depth, func() map[string][]string {
			if !gotVars {
				vars, gotVars = sc.dirs.lineVars(segs, start.at(sc.sys)), true
			}
			return vars
		}); ok {
			return h, true
		}
		if script, ok := sc.xargsScript(segs, i, &start); ok && depth < maxNested {
			// echo 'cat .env' | xargs -0 bash -c: what xargs reads is
			// the script.
			if h, ok := sc.checkLine(script, cwd, depth+1); ok {
				return h, true
			}
		}
		if len(vars[""]) > 0 {
			// A reader of a file named by a variable the line gives more
			// values than the guard tries, or a command so named: its
			// files are not all known.
			reader := hasReader(s.Name) || codeReaders[s.Name] || langOf(s.Name) != nil
			// (A cd to such a variable leads to a directory the guard
			// cannot tell: placesOf.)
			switch place := unknownPlace(*s, vars, false); {
			case place == "name":
				return secretHit{file: s.Argv[0], how: "it runs a command named by a variable given more values than the guard tries"}, true
			case place == "input" || reader && overflowedVar(*s, vars) ||
				overflowedVar(*s, vars) && sc.readsUnknown(&memo, segs, i, s, &start, vars):
				return secretHit{file: s.Name, how: "it reads files named by a variable given more values than the guard tries"}, true
			}
		}
	}
	if sc.sys.IsWindows() && strings.IndexByte(line, '\\') >= 0 {
		return sc.rawWindowsWords(line, cwd, segs)
	}
	return secretHit{}, false
}

// pipedScript judges the script echo or printf pipes straight into a
// shell, segs[i] (echo "cat .env" | bash), as dangerous-commands does.
func (sc *secretChecker) pipedScript(segs []shell.Segment, i int, start *lineStart, cwd string, depth int, lineVars func() map[string][]string) (secretHit, bool) {
	s := segs[i]
	if (s.Op != "|" && s.Op != "|&") || !scriptReader(s) {
		return secretHit{}, false
	}
	if text, ok := groupOutput(segs, i); ok && depth < maxNested {
		// (echo 'cat .env'; echo done) | bash
		if h, ok := sc.checkLine(text, cwd, depth+1); ok {
			return h, true
		}
	}
	j := pipeSource(segs, i)
	if j >= 0 && passesInput(segs[j]) {
		// cat <<EOF | bash: the here-document is the script.
		if text, ok := hereText(segs[j]); ok && depth < maxNested {
			at := start.at(sc.sys)
			at.depth = depth
			var vars map[string][]string
			if depth == 0 && strings.ContainsAny(text, "$`") {
				vars = lineVars()
			}
			for _, script := range sc.dirs.withValues(text, vars, at) {
				if h, ok := sc.checkLine(script, cwd, depth+1); ok {
					return h, true
				}
			}
			return secretHit{}, false
		}
	}
	if j < 0 || segs[j].Name != "echo" && segs[j].Name != "printf" {
		return secretHit{}, false
	}
	if depth >= maxNested {
		return secretHit{file: s.Name, how: "it runs scripts nested too deeply for the guard to check"}, true
	}
	at := start.at(sc.sys)
	at.depth = depth
	var vars map[string][]string
	if depth == 0 && slices.ContainsFunc(segs[j].Argv, func(a string) bool { return strings.ContainsAny(a, "$`") }) {
		vars = lineVars()
	}
	if overflowedVar(segs[j], vars) {
		return secretHit{file: s.Name, how: "it runs a script printed from a variable given more values than the guard tries"}, true
	}
	scripts, unknown := sc.dirs.echoScripts(segs[j], vars, at)
	if unknown {
		return secretHit{file: s.Name, how: "it runs a script printed in a way the guard cannot work out"}, true
	}
	for _, script := range scripts {
		if h, ok := sc.checkLine(script, cwd, depth+1); ok {
			return h, true
		}
	}
	return secretHit{}, false
}

// xargsScript returns the script xargs gives the shell segs[i] runs
// with -c and no script of its own (or only xargs' replace string), read
// from its standard input as dangerous-commands reads it (fed).
func (sc *secretChecker) xargsScript(segs []shell.Segment, i int, start *lineStart) (string, bool) {
	s := segs[i]
	if !slices.Contains(s.Wrappers, "xargs") {
		return "", false
	}
	last := s.Wrappers[len(s.Wrappers)-1]
	script := cShell(s) && len(s.Args()) == 0 || len(s.Argv) == 1 && strings.HasSuffix(last, " -c")
	if !script {
		return "", false
	}
	items, _ := sc.dirs.stdinWords(segs, i, s, start.at(sc.sys))
	if len(items) == 0 {
		return "", false
	}
	return strings.Join(items, " "), true
}

// maxUnknownSamples bounds the protected names readsUnknown tries.
const maxUnknownSamples = 16

// readsUnknown reports whether s, a command that is no reader by its
// name (git show HEAD:"$b", dd if="$b", curl -F "f=@$b"), would read a
// protected file were a variable the line gives more values than the
// guard tries to hold one: each such variable is given, in turn, the
// sample names of the protected patterns.
func (sc *secretChecker) readsUnknown(memo *placeMemo, segs []shell.Segment, i int, s *shell.Segment, start *lineStart, vars map[string][]string) bool {
	for _, sample := range sc.samples[:min(len(sc.samples), maxUnknownSamples)] {
		v := *s
		v.Argv = slices.Clone(s.Argv)
		for _, name := range vars[""] {
			if name == atWhole {
				continue
			}
			re := varUseRe(name)
			for k, a := range v.Argv {
				if k >= len(v.Literal) || !v.Literal[k] {
					v.Argv[k] = re.ReplaceAllLiteralString(a, sample.name)
				}
			}
		}
		if _, ok := sc.checkRuns(memo, segs, i, &v, start, vars); ok {
			return true
		}
	}
	return false
}

// rawWindowsWords judges a line with backslashes under Windows' rules as
// PowerShell and cmd read it, where a backslash is a path separator, not
// bash's escape (type .ssh\id_rsa is .sshid_rsa to bash): when the line
// runs a reader, a PowerShell or cmd reader or an interpreter, every word
// of the raw line, split at blanks and quotes, is judged as a file in the
// working directory.
func (sc *secretChecker) rawWindowsWords(line, cwd string, segs []shell.Segment) (secretHit, bool) {
	if !slices.ContainsFunc(segs, func(s shell.Segment) bool {
		_, win := sc.winReader(s.Name)
		return win || hasReader(s.Name) || codeReaders[s.Name] || langOf(s.Name) != nil
	}) {
		return secretHit{}, false
	}
	start := place{cwd: cwd}
	if cwd != "" {
		start.cwd = sc.sys.Normalize(cwd)
	}
	for _, w := range strings.FieldsFunc(line, func(r rune) bool { return r <= ' ' || strings.ContainsRune("'\"`;|&()<>,", r) }) {
		if strings.IndexByte(w, '\\') < 0 || strings.HasPrefix(w, "-") && !strings.Contains(w, ":") {
			continue
		}
		if strings.HasPrefix(w, "-") {
			_, w, _ = strings.Cut(w, ":") // -Path:.ssh\id_rsa
		}
		f, ok := sc.fileWord(w, start)
		if !ok {
			continue
		}
		if h, ok := sc.checkPath(f, start.cwd, "the command names it (read as PowerShell and cmd read a backslash)"); ok {
			return h, true
		}
	}
	return secretHit{}, false
}

// checkRuns checks a command, segs[i] or a version of it, where it runs:
// the working directory, or each place the cd, pushd and popd before it
// lead to. Its files are its operands and redirections' targets, what
// xargs feeds a reader it runs (a here-string, a here-document, echo or
// printf piped in: stdinWords), and the trees a recursive reader reads
// (treeOperands).
func (sc *secretChecker) checkRuns(memo *placeMemo, segs []shell.Segment, i int, s *shell.Segment, start *lineStart, vars map[string][]string) (secretHit, bool) {
	files, verb := segmentFiles(*s)
	if w, ok := sc.winReader(s.Name); ok {
		files, verb = winReaderFiles(*s), w
	}
	if code := codeWords(s); len(code) > 0 {
		files, verb = code, "reads it (it is named in the code "+s.Name+" runs)"
	}
	tree, hidden := treeOperands(*s, files)
	if s.Name == "find" && len(tree) > 0 && findExecReads(*s) {
		files, verb = findNames(*s), "runs a command on the files it names"
	}
	fed := slices.Contains(s.Wrappers, "xargs") && (hasReader(s.Name) || s.Name == "find")
	batch := s.Name == "git" && gitBatch(*s)
	if !fed && !batch && len(tree) == 0 && !namesFiles(*s, files) {
		return secretHit{}, false
	}
	check := func(p place, lost bool) (secretHit, bool) {
		files, tree := files, tree
		if batch {
			// git cat-file --batch reads REV:path names on its standard input.
			items, _ := sc.dirs.stdinWords(segs, i, *s, p)
			files, verb = append(slices.Clone(files), gitRevPaths(items)...), "prints what git holds of it (named on its standard input)"
		}
		if fed {
			items, _ := sc.dirs.stdinWords(segs, i, *s, p)
			switch {
			case len(items) > 0:
				files = append(slices.Clone(files), items...)
				if s.Name == "find" {
					files = nil
				}
				tree, hidden = treeOperands(*s, append(slices.Clone(files), items...))
			case s.Name != "find":
				// find DIR | xargs cat: every file under DIR, and the
				// names find selects by.
				if from := findFeeding(segs, i, s); len(from) > 0 {
					tree, hidden = append(slices.Clone(tree), from...), true
					files = append(slices.Clone(files), findNames(*findSource(segs, i, s))...)
				}
			}
		}
		if h, ok := sc.checkSegment(*s, files, verb, p, lost); ok {
			return h, true
		}
		return sc.checkTree(*s, tree, hidden, verb, p)
	}
	if len(s.Dirs) == 0 {
		return check(place{cwd: start.cwd}, false)
	}
	// The command runs where the cd, pushd and popd before it lead
	// (each of them, for a cd that may fail); past what the tracker
	// follows, in a directory it cannot tell.
	places, overflow := sc.dirs.placesOf(memo, *s, start.at(sc.sys), vars)
	for _, p := range places {
		if h, ok := check(p, p.cwd == ""); ok {
			return h, true
		}
	}
	if overflow {
		return check(place{}, true)
	}
	return secretHit{}, false
}

// gitBatch reports whether a git command reads the objects it prints
// from its standard input: cat-file --batch, --batch-check (names only,
// but --batch-command can print contents too).
func gitBatch(s shell.Segment) bool {
	if !slices.Contains(s.Argv, "cat-file") {
		return false
	}
	g := parseGit(s.Argv)
	return g.sub == "cat-file" && slices.ContainsFunc(g.args, func(a string) bool { return strings.HasPrefix(a, "--batch") })
}

// lineStart is the directory a command line starts in: cwd as given,
// and normalized (at) once a command needs it.
type lineStart struct {
	cwd  string
	p    place
	done bool
}

func (l *lineStart) at(sys paths.System) place {
	if !l.done {
		l.p, l.done = place{cwd: l.cwd}, true
		if l.cwd != "" {
			l.p.cwd = sys.Normalize(l.cwd)
		}
	}
	return l.p
}

// usesVars reports whether a command may use a variable: in its words,
// its redirections' targets or the cd, pushd and popd before it.
func usesVars(s *shell.Segment) bool {
	for _, a := range s.Argv {
		if strings.IndexByte(a, '$') >= 0 {
			return true
		}
	}
	for i := range s.Redirects {
		if strings.IndexByte(s.Redirects[i].Target, '$') >= 0 {
			return true
		}
	}
	for i := range s.Dirs {
		argv := s.Dirs[i].Argv
		if len(argv) == 1 || len(argv) == 2 && argv[1] == "-" {
			return true // cd reads HOME, cd - OLDPWD: the line may set them
		}
		for _, a := range argv {
			if strings.IndexByte(a, '$') >= 0 {
				return true
			}
		}
	}
	return false
}

// redirectVariants returns the versions of s with the variables the line
// assigns replaced by each of their values in its redirections' targets
// (F=.env; cat < $F), which varVariants leaves as they are.
func (sc *secretChecker) redirectVariants(s shell.Segment, vars map[string][]string) []shell.Segment {
	if len(vars) == 0 {
		return nil
	}
	var out []shell.Segment
	for i, r := range s.Redirects {
		if !strings.Contains(r.Target, "$") {
			continue
		}
		for _, w := range sc.dirs.varVariants(shell.Segment{Name: "_", Argv: []string{"_", r.Target}}, vars) {
			v := s
			v.Redirects = slices.Clone(s.Redirects)
			v.Redirects[i].Target = w.Argv[1]
			out = append(out, v)
			if len(out) >= maxVariants {
				return out
			}
		}
	}
	return out
}

// segmentFiles returns the files a command names as operands (or
// uploads, or stages) and what it does with them ("reads it").
func segmentFiles(s shell.Segment) (files []string, verb string) {
	if len(s.Argv) == 0 {
		return nil, ""
	}
	verb = "reads it"
	r, reader := readers[s.Name]
	switch name := s.Name; {
	case reader:
		files = operands(s, r)
		switch name {
		case "cp", "mv", "scp", "rsync", "tar", "zip", "7z", "gzip", "install", "split", "csplit", "bzip2", "xz", "zstd", "lz4", "gpg", "age", "uuencode":
			verb = "copies or archives it"
		case "ln":
			verb = "links to it"
		case "mail", "mailx", "mutt":
			verb = "sends it"
		case "source", ".":
			verb = "loads it into the shell"
		case "nano", "vi", "vim", "nvim", "emacs", "sed":
			verb = "reads or edits it"
		case "tee":
			verb = "writes it"
		}
	case name == "dd":
		for _, a := range s.Argv[1:] {
			if f, ok := strings.CutPrefix(a, "if="); ok {
				files = append(files, f)
			}
		}
	case name == "curl" || name == "wget" || name == "http" || name == "https" || name == "xh":
		files = uploads(s)
		verb = "sends it over the network"
	case name == "git":
		switch g := parseGit(s.Argv); g.sub {
		case "add":
			files = g.seg().Args()
			verb = "stages it for a commit"
		case "show", "cat-file", "diff", "blame", "annotate", "grep", "difftool":
			files, verb = gitPaths(g), "prints what git holds of it"
		case "log", "whatchanged":
			if sub := g.seg(); g.sub == "whatchanged" || sub.Flag("p", "u", "patch", "L", "full-diff", "cc", "c") {
				files, verb = gitPaths(g), "prints what git holds of it"
			}
		case "config":
			// git config --file ~/.aws/credentials --list prints an INI
			// file's keys and values.
			files, verb = (readerOpts{short: "f", long: []string{"file", "blob"}, files: []string{"f", "file", "blob"}}).optionFiles(g.seg()), "prints it as git configuration"
			files = append(files, gitRevPaths(files)...)
		}
	}
	files = append(files, listFiles(s.Argv)...)
	for _, l := range s.Launchers {
		if path.Base(l[0]) == "xargs" {
			files = append(files, xargsArgFiles(l)...)
		}
	}
	if s.Name == "xargs" {
		files = append(files, xargsArgFiles(s.Argv)...)
	}
	return files, verb
}

// xargsArgFiles returns the files an xargs (its words up to the command
// it runs) reads its arguments from: -a FILE, --arg-file=FILE. Their
// lines are the command's arguments, printed by echo, the default.
func xargsArgFiles(words []string) []string {
	var out []string
	for i := 1; i < len(words); i++ {
		w := words[i]
		if v, ok := strings.CutPrefix(w, "--arg-file="); ok {
			out = append(out, v)
			continue
		}
		if w == "--arg-file" && i+1 < len(words) {
			i++
			out = append(out, words[i])
			continue
		}
		if len(w) < 2 || w[0] != '-' || w[1] == '-' {
			continue
		}
		for k := 1; k < len(w); k++ {
			if w[k] == 'a' {
				if k+1 < len(w) {
					out = append(out, w[k+1:])
				} else if i+1 < len(words) {
					i++
					out = append(out, words[i])
				}
				break
			}
			if strings.IndexByte("dEIJLnPRsS", w[k]) >= 0 {
				break // the rest is that option's value
			}
		}
	}
	return out
}

// listFileOpts are the long options, of any command, whose value is a
// file the command reads: lists of names (whose lines it prints when they
// name no file) and the other side of a diff; listFiles also reads
// find's -files0-from.
var listFileOpts = []string{"files0-from", "files-from", "from-file", "to-file", "fromfile", "arg-file"}

// listFiles returns the values of the listFileOpts in argv.
func listFiles(argv []string) []string {
	var out []string
	for i := 1; i < len(argv); i++ {
		if argv[i] == "--" {
			break
		}
		if argv[i] == "-files0-from" && i+1 < len(argv) { // find's
			i++
			out = append(out, argv[i])
			continue
		}
		if len(argv[i]) < len("--to-file") || argv[i][0] != '-' || argv[i][1] != '-' {
			continue
		}
		a := argv[i][2:]
		name, v, hasValue := strings.Cut(a, "=")
		if !slices.Contains(listFileOpts, name) {
			continue
		}
		if !hasValue && i+1 < len(argv) {
			i++
			v, hasValue = argv[i], true
		}
		if hasValue {
			out = append(out, v)
		}
	}
	return out
}

// optionFiles returns the files o's options name in s (files).
func (o readerOpts) optionFiles(s shell.Segment) []string {
	all := operands(s, o)
	return all[len(operands(s, readerOpts{short: o.short, long: o.long})):]
}

// gitRevPaths returns the paths of the REV:path and :path words among ws
// (:0:path, a stage of the index, gives path).
func gitRevPaths(ws []string) []string {
	var out []string
	for _, a := range ws {
		if rev, p, ok := strings.Cut(a, ":"); ok && !strings.Contains(rev, "/") {
			if len(p) > 2 && p[0] >= '0' && p[0] <= '3' && p[1] == ':' && rev == "" {
				p = p[2:]
			}
			if p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// gitPaths returns the words of a git show, cat-file, diff, log -p,
// blame or grep that may name a file whose content (in the work tree,
// the index or a commit) it prints: every operand (a revision is no
// protected name), the path of a REV:path or :path (:0:path), and the
// value of --contents.
func gitPaths(g gitCall) []string {
	var out []string
	paths := false
	for i := 0; i < len(g.args); i++ {
		a := g.args[i]
		switch {
		case paths:
		case a == "--":
			paths = true
			continue
		case a == "--contents" && i+1 < len(g.args):
			i++
			out = append(out, g.args[i])
			continue
		case strings.HasPrefix(a, "--contents="):
			out = append(out, strings.TrimPrefix(a, "--contents="))
			continue
		case strings.HasPrefix(a, "-L") && strings.Contains(a, ":"):
			// -L1,5:path, -L:func:path
			out = append(out, a[strings.LastIndexByte(a, ':')+1:])
			continue
		case strings.HasPrefix(a, "-"):
			continue
		}
		out = append(out, a)
		if rev, p, ok := strings.Cut(a, ":"); ok && !strings.Contains(rev, "/") {
			if len(p) > 2 && p[0] >= '0' && p[0] <= '3' && p[1] == ':' && rev == "" {
				p = p[2:] // :0:path, a stage of the index
			}
			if p != "" {
				out = append(out, p)
			}
		}
		if strings.Count(a, ":") >= 2 { // -L :func:path given apart
			out = append(out, a[strings.LastIndexByte(a, ':')+1:])
		}
	}
	return out
}

// redirectVerb tells what a redirection does with its target ("" when it
// is not a file read or written).
func redirectVerb(op string) string {
	switch op {
	case "<", "<>":
		return "reads it through an input redirection"
	case ">", ">>", ">|", "&>", "&>>":
		return "writes it through an output redirection"
	}
	return ""
}

// namesFiles reports whether a command has files for checkSegment to
// check: files (from segmentFiles) or a redirection to a plain word.
func namesFiles(s shell.Segment, files []string) bool {
	if slices.ContainsFunc(files, mayNameFile) {
		return true
	}
	return slices.ContainsFunc(s.Redirects, func(r shell.Redirect) bool {
		return redirectVerb(r.Op) != "" && mayNameFile(r.Target)
	})
}

// mayNameFile reports whether a word names a file as written or once
// the working directory's spellings ($PWD, $(pwd), ~+) are replaced.
func mayNameFile(w string) bool {
	return isPlainWord(w) || w != "" && strings.ContainsAny(w, "$`~")
}

// fileWord returns the file a word names at a place: the word, or it with
// the spellings of the place's directories replaced (expandPlace); false
// when it still holds an expansion.
func (sc *secretChecker) fileWord(w string, p place) (string, bool) {
	if sc.sys.IsWindows() {
		w = winHome(w, sc.home)
	}
	if isPlainWord(w) {
		return w, true
	}
	if w == "" || !strings.ContainsAny(w, "$`~") {
		return "", false
	}
	e := sc.dirs.expandPlace(w, p)
	return e, e != w && isPlainWord(e)
}

// echoedName returns the name a word that is one command substitution of
// echo (or printf) with one plain argument prints: $(echo ~/.ssh/id_rsa),
// `echo .env`; "" for any other word.
func echoedName(w string) string {
	if args := echoedWords(w); len(args) == 1 {
		return args[0]
	}
	return ""
}

// echoedWords returns the words a word that is one command substitution
// of echo (or printf '%s' and the like) with plain arguments prints:
// $(echo -rf ~) gives -rf and ~; nil for any other word.
func echoedWords(w string) []string {
	var inner string
	switch {
	case strings.HasPrefix(w, "$(") && strings.HasSuffix(w, ")"):
		inner = w[2 : len(w)-1]
	case len(w) > 2 && w[0] == '`' && w[len(w)-1] == '`':
		inner = w[1 : len(w)-1]
	default:
		return nil
	}
	words, err := shell.Words(inner)
	if err != nil || len(words) < 2 || words[0] != "echo" && words[0] != "printf" ||
		slices.ContainsFunc(words[1:], func(a string) bool { return !isPlainWord(a) }) {
		return nil
	}
	text, ok := printed(words)
	if !ok {
		return nil
	}
	// Unquoted, the output is split at blanks (and a trailing newline
	// is dropped).
	args := strings.Fields(text)
	if len(args) == 0 {
		return nil
	}
	return args
}

// unknownTail returns the part of a word after the last of its path
// components that holds an expansion ($X/../.env: ../.env), when there
// is one and it holds none.
func unknownTail(w string) (string, bool) {
	i := strings.LastIndexAny(w, "$`")
	if i < 0 {
		return "", false
	}
	j := strings.IndexAny(w[i:], `/\`)
	if j < 0 {
		return "", false
	}
	tail := strings.TrimLeft(w[i+j:], `/\`)
	return tail, tail != "" && !strings.ContainsAny(tail, "$`")
}

// winHomeVars are the spellings of the home directory on Windows that a
// word may start with: Git Bash exports USERPROFILE, PowerShell reads
// $env:USERPROFILE, cmd %USERPROFILE%; PowerShell reads $home as $HOME.
var winHomeVars = []string{"$USERPROFILE", "${USERPROFILE}", "$env:USERPROFILE", "${env:USERPROFILE}", "$HOME", "${HOME}", "%USERPROFILE%", "$HOMEDRIVE$HOMEPATH", "${HOMEDRIVE}${HOMEPATH}", "%HOMEDRIVE%%HOMEPATH%"}

// winHome returns w with a leading spelling of the Windows home directory
// (winHomeVars, in any case) replaced by home, under Windows' rules.
func winHome(w, home string) string {
	if home == "" || len(w) < 2 || w[0] != '$' && w[0] != '%' {
		return w
	}
	for _, v := range winHomeVars {
		if len(w) >= len(v) && strings.EqualFold(w[:len(v)], v) {
			rest := w[len(v):]
			if rest == "" || rest[0] == '/' || rest[0] == '\\' {
				return home + rest
			}
		}
	}
	return w
}

// checkSegment checks one command of a line, whose files and verb
// segmentFiles gave, run in cwd; lost reports that a directory change
// made cwd unknown (see lostPath).
func (sc *secretChecker) checkSegment(s shell.Segment, files []string, verb string, p place, lost bool) (secretHit, bool) {
	for _, r := range s.Redirects {
		v := redirectVerb(r.Op)
		if v == "" {
			continue
		}
		f, ok := sc.fileWord(r.Target, p)
		if !ok {
			continue
		}
		if h, ok := sc.checkPathIn(f, p.cwd, v+" ("+r.String()+")", lost); ok {
			return told(s, h), true
		}
	}
	for _, w := range files {
		f, ok := sc.fileWord(w, p)
		switch {
		case ok:
		case strings.ContainsAny(w, "$`") && s.Plain(w):
			// '$x/../.env', '.env::$DATA': the shell expands nothing in
			// it, its $ is a character of the name.
			f, ok = w, true
		case echoedName(w) != "":
			// cat $(echo ~/.ssh/id_rsa), cat `echo .env`: the name echo
			// prints.
			f, ok = echoedName(w), true
		default:
			// "$X/.env", "$D/../.aws/credentials": whatever X is, the
			// name ends in what follows its last expansion, judged as
			// a name in a directory the guard cannot tell.
			if tail, ok := unknownTail(w); ok {
				// As a name at any depth: .env, ../.aws/credentials
				// (not a guess that config is .aws/config: "$OUT/config"
				// is too common a spelling to answer).
				if h, ok := sc.checkPath(tail, "", verb); ok {
					return told(s, h), true
				}
			}
			continue
		}
		if h, ok := sc.checkPathIn(f, p.cwd, verb, lost); ok {
			return told(s, h), true
		}
	}
	return secretHit{}, false
}

// told puts the command's text before how a hit touches its file.
func told(s shell.Segment, h secretHit) secretHit {
	h.how = "`" + truncate(strings.Join(s.Argv, " "), 200) + "` " + h.how
	return h
}

// checkPathIn is checkPath for a command's argument; lost reports that
// the command runs in a directory a cd made unknown, where a relative
// path is also checked by lostPath.
func (sc *secretChecker) checkPathIn(p, cwd, how string, lost bool) (secretHit, bool) {
	if h, ok := sc.checkPath(p, cwd, how); ok || !lost {
		return h, ok
	}
	return sc.lostPath(p, how)
}

// lostPath tells whether a relative path, read in a directory the guard
// cannot tell ("cd "$X" && cat credentials"), may name a protected file:
// whether it is the end of a protected pattern with a directory, from a
// component on (credentials of .aws/credentials, config.json of
// .docker/config.json, key.txt of /vault/key.txt, gh/hosts.yml of
// .config/gh/hosts.yml). Leading ./ and ../ are dropped (the directory is
// unknown anyway). A pattern's end that names any file (its last
// component with fewer than two letters or digits: /vault/**, .ssh/*)
// does not count, or every file read after such a cd would; nor does an
// absolute path, ~ or $HOME, or a glob, which checkPath judged already.
// A file the allow list exempts stays exempt.
func (sc *secretChecker) lostPath(p, how string) (secretHit, bool) {
	if hasGlob(p) || sc.sys.IsAbs(p) || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") {
		return secretHit{}, false
	}
	for _, f := range sc.sys.ArgForms(p) {
		if sc.sys.IsAbs(f) {
			continue // Git Bash's /c/x: judged by checkPath
		}
		f = path.Clean(strings.ReplaceAll(sc.sys.Normalize(f), `\`, "/"))
		for f == ".." || strings.HasPrefix(f, "../") {
			f = strings.TrimPrefix(strings.TrimPrefix(f, ".."), "/")
		}
		if f == "" || f == "." || sc.sys.MatchEvery(sc.allow, f) {
			continue
		}
		f = sc.sys.Fold(f)
		for _, pat := range sc.protect {
			if tail, ok := lostTail(sc.sys.Fold(pat), f); ok {
				return secretHit{file: p, how: how + " in a working directory the guard cannot tell (a cd it cannot follow), where it may be " +
					tail + " of the protected pattern " + strconv.Quote(pat)}, true
			}
		}
	}
	return secretHit{}, false
}

// lostTail returns the end of pattern pat, from a component on, that the
// relative slash path f matches whole (lostPath); both are Fold keys.
func lostTail(pat, f string) (string, bool) {
	i := strings.IndexByte(pat, '/')
	if i < 0 || !specific(pat[strings.LastIndexByte(pat, '/')+1:]) {
		return "", false
	}
	for i >= 0 {
		tail := pat[i+1:]
		if ok, _ := doublestar.Match(tail, f); ok {
			return tail, true
		}
		j := strings.IndexByte(tail, '/')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return "", false
}

// specific reports whether a pattern's component names particular files:
// two letters or digits at least (not *, **, .*).
func specific(c string) bool {
	n := 0
	for _, r := range c {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			n++
		}
	}
	return n >= 2
}

func hasReader(name string) bool { _, ok := readers[name]; return ok }

// winReaders are PowerShell's cmdlets (and their aliases) and cmd's
// commands that read, copy or send the files they name, by lower-case
// name, with what they do. cmd's type and copy, and the aliases that are
// POSIX commands elsewhere, are readers under Windows' rules only
// (winOnlyReaders).
var winReaders = map[string]string{
	"get-content": "reads it", "gc": "reads it", "type": "reads it", "select-string": "reads it", "sls": "reads it",
	"copy-item": "copies it", "copy": "copies it", "cpi": "copies it", "xcopy": "copies it", "robocopy": "copies it",
	"move-item": "moves it", "mi": "moves it", "move": "moves it", "import-csv": "reads it", "ipcsv": "reads it",
	"get-filehash": "reads it", "format-hex": "reads it", "fhx": "reads it", "out-file": "writes it",
	"set-content": "writes it", "sc": "writes it", "add-content": "writes it", "ac": "writes it",
	"invoke-webrequest": "sends it over the network", "iwr": "sends it over the network",
	"invoke-restmethod": "sends it over the network", "irm": "sends it over the network",
	"certutil": "reads it", "findstr": "reads it",
}

// winOnlyReaders are the winReaders read so only under Windows' rules: on
// Unix they are other programs (type is a shell builtin).
var winOnlyReaders = map[string]bool{"type": true, "copy": true, "move": true, "sc": true, "xcopy": true, "robocopy": true, "certutil": true, "findstr": true}

// winReader tells whether a command is one of winReaders under sc's rules,
// and what it does with its files.
func (sc *secretChecker) winReader(name string) (string, bool) {
	if !sc.sys.IsWindows() && strings.IndexByte(name, '-') < 0 && !psAlias(name) {
		return "", false // only cmdlets and their aliases are readers off Windows
	}
	n := name
	if strings.IndexByte(n, '.') >= 0 || strings.ContainsFunc(n, func(r rune) bool { return 'A' <= r && r <= 'Z' }) {
		n = strings.ToLower(n)
		n = strings.TrimSuffix(n, ".exe")
	}
	verb, ok := winReaders[n]
	if !ok || winOnlyReaders[n] && !sc.sys.IsWindows() {
		return "", false
	}
	return verb, true
}

// psAlias reports whether name is one of the aliases of winReaders'
// cmdlets that are readers on every system.
func psAlias(name string) bool {
	switch strings.ToLower(name) {
	case "gc", "sls", "cpi", "mi", "iwr", "irm", "ac", "fhx", "ipcsv":
		return true
	}
	return false
}

// winReaderFiles returns the words of a PowerShell or cmd command that may
// name its files: every word but the command, a -Parameter's name
// (-Path:x gives x) and cmd's /switches; a parameter's value is taken as a
// file too (-Path .env), a pattern or encoding being no protected name.
func winReaderFiles(s shell.Segment) []string {
	var out []string
	for _, a := range s.Argv[1:] {
		if strings.HasPrefix(a, "-") {
			if _, v, ok := strings.Cut(a, ":"); ok && v != "" {
				out = append(out, v)
			}
			continue
		}
		if len(a) == 2 && a[0] == '/' && a[1] != '/' || strings.HasPrefix(a, "/") && len(a) <= 3 && strings.ContainsAny(a[1:], ":-") {
			continue // a cmd switch: /s, /y, /a:h
		}
		out = append(out, a)
	}
	return out
}

// isPlainWord reports whether a word can name a file as written: no
// expansion other than ~ and $HOME. A word the shell quoted may hold
// blanks ("my dir/.env" is a file in "my dir"): it names that file.
func isPlainWord(w string) bool {
	if w == "" || strings.ContainsAny(w, "`") || strings.HasPrefix(w, "<(") {
		return false
	}
	if i := strings.IndexByte(w, '$'); i >= 0 {
		rest := w[i:]
		return i == 0 && (rest == "$HOME" || strings.HasPrefix(rest, "$HOME/") || rest == "${HOME}" || strings.HasPrefix(rest, "${HOME}/"))
	}
	return true
}

// uploads returns the files a curl, wget or httpie command sends: curl
// -d/--data*/--json @file, --data-urlencode name@file, -F name=@file or
// name=<file, -T/--upload-file file, -H @file; wget --post-file and
// --body-file; httpie field@file and @file.
func uploads(s shell.Segment) []string {
	var out []string
	argv := s.Argv
	value := func(i int, a, short string, long []string) (string, int, bool) {
		for _, l := range long {
			if v, ok := strings.CutPrefix(a, l+"="); ok {
				return v, i, true
			}
			if a == l && i+1 < len(argv) {
				return argv[i+1], i + 1, true
			}
		}
		if short != "" && strings.HasPrefix(a, short) && !strings.HasPrefix(a, "--") {
			if len(a) > len(short) {
				return a[len(short):], i, true
			}
			if i+1 < len(argv) {
				return argv[i+1], i + 1, true
			}
		}
		return "", i, false
	}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch s.Name {
		case "curl":
			if v, j, ok := value(i, a, "-d", []string{"--data", "--data-binary", "--data-ascii", "--json"}); ok {
				i = j
				if f, ok := strings.CutPrefix(v, "@"); ok {
					out = append(out, f)
				}
			} else if v, j, ok := value(i, a, "", []string{"--data-urlencode"}); ok {
				i = j
				if name, f, ok := strings.Cut(v, "@"); ok && !strings.Contains(name, "=") {
					out = append(out, f)
				}
			} else if v, j, ok := value(i, a, "-F", []string{"--form"}); ok {
				i = j
				if _, f, ok := strings.Cut(v, "="); ok && (strings.HasPrefix(f, "@") || strings.HasPrefix(f, "<")) {
					f, _, _ = strings.Cut(f[1:], ";")
					out = append(out, f)
				}
			} else if v, j, ok := value(i, a, "-T", []string{"--upload-file"}); ok {
				i = j
				out = append(out, v)
			} else if v, j, ok := value(i, a, "-H", []string{"--header"}); ok {
				i = j
				if f, ok := strings.CutPrefix(v, "@"); ok {
					out = append(out, f)
				}
			}
		case "wget":
			if v, j, ok := value(i, a, "", []string{"--post-file", "--body-file"}); ok {
				i = j
				out = append(out, v)
			}
		default: // httpie and xh
			if strings.HasPrefix(a, "-") {
				continue
			}
			if f, ok := strings.CutPrefix(a, "@"); ok {
				out = append(out, f)
			} else if _, f, ok := strings.Cut(a, "=@"); ok {
				out = append(out, f)
			} else if k, f, ok := strings.Cut(a, "@"); ok && !strings.ContainsAny(k, ":/=") {
				out = append(out, f)
			}
		}
	}
	return out
}

// fallbackCommand judges a line that is not valid bash: if it runs a
// reader or sender, any word naming a protected file counts.
func (sc *secretChecker) fallbackCommand(line, cwd string) (secretHit, bool) {
	names := shell.Commands(line)
	if !slices.ContainsFunc(names, func(n string) bool { return hasReader(n) || n == "curl" || n == "wget" }) {
		return secretHit{}, false
	}
	for _, w := range strings.Fields(line) {
		w = strings.Trim(w, `"'<>;|&()`)
		w = strings.TrimPrefix(w, "@")
		if w == "" || strings.HasPrefix(w, "-") || !isPlainWord(w) {
			continue
		}
		if h, ok := sc.checkPath(w, cwd, "the command (which could not be parsed) names it"); ok {
			return h, true
		}
	}
	return secretHit{}, false
}
