package lint

import (
	"fmt"
	"iter"
	"maps"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/internal/suggest"
)

// The traps `hookctl validate` warns about besides the loader's own
// warnings (matchers on events without a matcher field, permission-rule
// syntax in a matcher): matchers and `when` regexes that can never match,
// and matchers that differ from a Claude Code tool or matcher value only
// by case (Claude Code's matchers are case-sensitive).

// claudeTools are Claude Code's built-in tool names, what tool_name holds
// besides mcp__server__tool names.
var claudeTools = []string{
	"Agent", "AskUserQuestion", "Bash", "BashOutput", "CronCreate", "CronDelete", "CronList",
	"Edit", "EnterPlanMode", "EnterWorktree", "ExitPlanMode", "ExitWorktree", "Glob", "Grep",
	"KillShell", "LS", "LSP", "ListMcpResourcesTool", "Monitor", "MultiEdit", "NotebookEdit",
	"NotebookRead", "PowerShell", "Read", "ReadMcpResourceTool", "SendMessage", "Skill",
	"SlashCommand", "Task", "TaskCreate", "TaskGet", "TaskList", "TaskOutput", "TaskStop",
	"TaskUpdate", "TeamCreate", "TeamDelete", "TodoRead", "TodoWrite", "ToolSearch",
	"WebFetch", "WebSearch", "Write",
}

// toolWhat names tool names in matcherValues: where the values are tool
// names, the names other hosts give their tools (engine.HostToolNames:
// crush's bash, Gemini CLI's run_shell_command) are known too.
const toolWhat = "Claude Code tool"

// matcherValues are the values Claude Code puts in the matcher field of
// its events, where they form a known set; what the values are called.
var matcherValues = map[string]struct {
	what   string
	values []string
}{
	"PreToolUse":         {toolWhat, claudeTools},
	"PostToolUse":        {toolWhat, claudeTools},
	"PostToolUseFailure": {toolWhat, claudeTools},
	"PermissionRequest":  {toolWhat, claudeTools},
	"PermissionDenied":   {toolWhat, claudeTools},
	"SessionStart":       {"SessionStart source", []string{"startup", "resume", "clear", "compact", "fork"}},
	"Setup":              {"Setup trigger", []string{"init", "maintenance"}},
	"InstructionsLoaded": {"InstructionsLoaded load_reason", []string{"session_start", "nested_traversal", "path_glob_match", "include", "compact"}},
	"PreCompact":         {"PreCompact trigger", []string{"manual", "auto"}},
	"PostCompact":        {"PostCompact trigger", []string{"manual", "auto"}},
	"SessionEnd":         {"SessionEnd reason", []string{"clear", "resume", "logout", "prompt_input_exit", "other"}},
	"ConfigChange":       {"ConfigChange source", []string{"user_settings", "project_settings", "local_settings", "policy_settings", "skills"}},
	"DirectoryAdded":     {"DirectoryAdded source", []string{"slash_command", "register_repo_root"}},
	"Notification": {"notification_type", []string{"permission_prompt", "idle_prompt", "auth_success", "elicitation_dialog",
		"elicitation_url_dialog", "elicitation_complete", "elicitation_response", "agent_needs_input", "agent_completed"}},
	"StopFailure": {"StopFailure error", []string{"rate_limit", "overloaded", "authentication_failed", "oauth_org_not_allowed",
		"billing_error", "invalid_request", "model_not_found", "server_error", "max_output_tokens", "unknown",
		"account_on_hold", "cloud_credential_error"}},
}

// Check returns warnings about the hooks of a decoded configuration that
// eng (the engine it was assembled for) resolves: matchers and `when`
// regexes that can never match, and matchers that differ from a known
// tool or matcher value only by case. Hooks whose conditions did not
// compile are skipped (their errors are the loader's).
func Check(cfg *hcl.Config, eng *engine.Engine) []hcl.Diagnostic {
	var diags []hcl.Diagnostic
	add := func(w hcl.Diagnostic) {
		if slices.Contains(diags, w) {
			return // the same warning for another event of the hook
		}
		diags = append(diags, w)
	}
	warn := func(r hcl.Range, summary, format string, args ...any) {
		add(hcl.NewDiagnostic(hcl.SeverityWarning, r, summary, hcl.Detailf(format, args...)))
	}
	for _, hb := range cfg.Hooks {
		if hb.Invalid {
			continue
		}
		h := hb.Hook
		if r, ok := hb.Ranges["matcher"]; ok && h.Matcher != "" {
			lintMatcher(eng, h, r, warn)
		}
		lintScript(eng, hb, add)
		if res, ok := engine.StaticResult(h.Handler); ok {
			lintResult(eng, h, res, hb.RangeOf("result"), warn)
		}
		if r, ok := hb.Ranges["when"]; ok && h.Condition != nil {
			lintPaths(eng, h, r, conditionPaths(h.Condition.Source(), r, cfg.Source(r.Filename)), "", add)
			for _, re := range matchesPatterns(h.Condition.Source()) {
				if neverMatches(re) {
					warn(r, "Condition regex can never match",
						"The regular expression `%s` matches no text at all (an anchor such as ^ or $ between characters, an empty character class, ...), so `matches` is always false there.", re)
				}
			}
		}
	}
	lintFunctions(cfg, warn)
	return append(diags, failOpen(cfg, eng)...)
}

// hookEvents yields each event the hook names (as written) with its spec,
// skipping names the engine does not know (reported elsewhere).
func hookEvents(eng *engine.Engine, h engine.Hook) iter.Seq2[string, engine.EventSpec] {
	return func(yield func(string, engine.EventSpec) bool) {
		for _, ev := range append([]string{h.Event}, h.Events...) {
			if ev == "" {
				continue
			}
			spec, err := eng.Event(ev)
			if err != nil {
				continue
			}
			if !yield(ev, spec) {
				return
			}
		}
	}
}

// lintResult warns about the fields of a declarative result that none of
// the hook's events take (result = { cancel = true } on PreToolUse): they
// would be merged and read by nothing.
func lintResult(eng *engine.Engine, h engine.Hook, res engine.Result, r hcl.Range, warn func(hcl.Range, string, string, ...any)) {
	for _, spec := range hookEvents(eng, h) {
		known := spec.ResultFields()
		for _, k := range slices.Sorted(maps.Keys(res)) {
			if slices.Contains(known, k) {
				continue
			}
			if sk := jsonx.SnakeCase(k); sk != k && slices.Contains(known, sk) {
				warn(r, "Unknown result field", "%s", hcl.Detailf("The result field %q is read as %q: write %q.", k, sk, sk))
				continue
			}
			detail := hcl.Detailf("%s does not take the result field %q: it would be kept in the output and read by nothing.", spec.Name, k)
			if s := suggest.Closest(k, known); s != "" {
				detail += hcl.Detailf(" Did you mean %q?", s)
			}
			warn(r, "Unknown result field", "%s", detail)
		}
	}
}

func lintMatcher(eng *engine.Engine, h engine.Hook, r hcl.Range, warn func(hcl.Range, string, string, ...any)) {
	for ev, spec := range hookEvents(eng, h) {
		if spec.MatcherField == "" {
			continue
		}
		m, err := engine.CompileMatcherMode(h.Matcher, spec.MatcherMode)
		if err != nil || m.MatchesAll() {
			continue
		}
		src := strings.TrimSpace(h.Matcher)
		if m.IsRegexp() && neverMatches(src) {
			warn(r, "Matcher can never match",
				"%q is a regular expression that matches no text at all (an anchor such as ^ or $ between characters, an empty character class, ...), so the hook never runs.", h.Matcher)
			continue
		}
		// Case: only where the hook names the Claude Code event itself
		// (an OpenClaw alias such as before_tool_call sees other names).
		known, ok := matcherValues[spec.Name]
		if !ok || ev != spec.Name || spec.Source != engine.SourceClaudeCode {
			continue
		}
		if !m.IsRegexp() {
			seps := "|,"
			if spec.MatcherMode != engine.MatcherClaude {
				seps = "|"
			}
			var parts []string
			for _, part := range strings.FieldsFunc(src, func(r rune) bool { return strings.ContainsRune(seps, r) }) {
				parts = append(parts, strings.TrimSpace(part))
			}
			for _, n := range parts {
				if n == "" || slices.Contains(known.values, n) {
					continue
				}
				if known.what == toolWhat && engine.KnownToolName(n) {
					// Another host's name for a tool (crush's bash,
					// Gemini CLI's run_shell_command): right there, and
					// only there.
					if c := engine.CanonicalTool(n); c != n && !slices.Contains(parts, c) {
						warn(r, "Matcher names one host's tool name",
							"%q is another host's name for the tool hookctl calls %s; matchers match names exactly, so it holds only where the host calls the tool %q. %q matches the tool on every host.", n, c, n, c)
					}
					continue
				}
				if k := foldMatch(known.values, n); k != "" {
					warn(r, "Matcher differs from a known name by case",
						"%q matches no %s: matchers are case-sensitive. Did you mean %q?", n, known.what, k)
				}
			}
			continue
		}
		if slices.ContainsFunc(known.values, m.Match) || known.what == toolWhat && slices.ContainsFunc(engine.HostToolNames(), m.Match) {
			continue
		}
		folded, err := regexp.Compile("(?i)" + src)
		if err != nil {
			continue
		}
		var hits []string
		for _, v := range known.values {
			if folded.MatchString(v) {
				hits = append(hits, v)
			}
		}
		if len(hits) > 0 {
			warn(r, "Matcher differs from a known name by case",
				"%q matches no %s as written: matchers are case-sensitive. Ignoring case it would match %s.", h.Matcher, known.what, summarize(hits, 3))
		}
	}
}

// foldMatch returns the value equal to n but for case, if any.
func foldMatch(values []string, n string) string {
	for _, v := range values {
		if strings.EqualFold(v, n) {
			return v
		}
	}
	return ""
}

// matchesPatterns returns the constant regular expressions of the
// `matches` operators of an expr condition.
func matchesPatterns(src string) []string {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil
	}
	v := &matchesVisitor{}
	ast.Walk(&tree.Node, v)
	return v.patterns
}

type matchesVisitor struct{ patterns []string }

func (v *matchesVisitor) Visit(n *ast.Node) {
	if b, ok := (*n).(*ast.BinaryNode); ok && b.Operator == "matches" {
		if s, ok := b.Right.(*ast.StringNode); ok {
			v.patterns = append(v.patterns, s.Value)
		}
	}
}

// neverMatches reports whether the Go regular expression re can match no
// text at all, searched unanchored: its language is empty (`[^\s\S]`), or
// its empty-width assertions cannot hold where they stand (`a^b`, `$x`,
// `x\by`). An invalid expression is not reported (the loader does).
//
// It explores the compiled program over the context that decides every
// assertion: the class of the character before the position (none, a
// newline, a word character, another one) and of the one after it,
// guessed when an assertion needs it and checked when a character is
// read. A match may start after any text and end before any text.
func neverMatches(re string) bool {
	parsed, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		return false
	}
	prog, err := syntax.Compile(parsed.Simplify())
	if err != nil {
		return false
	}
	// Character classes, by a representative: -1 is "no character" (the
	// start or the end of the text).
	classes := []rune{-1, '\n', 'a', ' '}
	const unknown = rune(-2)
	type state struct {
		pc         uint32
		prev, next rune
	}
	seen := map[state]bool{}
	var stack []state
	push := func(s state) {
		if !seen[s] {
			seen[s] = true
			stack = append(stack, s)
		}
	}
	for _, c := range classes {
		push(state{uint32(prog.Start), c, unknown})
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		in := &prog.Inst[s.pc]
		switch in.Op {
		case syntax.InstMatch:
			return false
		case syntax.InstFail:
		case syntax.InstAlt, syntax.InstAltMatch:
			push(state{in.Out, s.prev, s.next})
			push(state{in.Arg, s.prev, s.next})
		case syntax.InstCapture, syntax.InstNop:
			push(state{in.Out, s.prev, s.next})
		case syntax.InstEmptyWidth:
			need := syntax.EmptyOp(in.Arg)
			for _, n := range classes {
				if s.next != unknown && n != s.next {
					continue
				}
				if need&^syntax.EmptyOpContext(s.prev, n) == 0 {
					push(state{in.Out, s.prev, n})
				}
			}
		default: // reads a character
			for _, c := range classes[1:] {
				if s.next != unknown && c != s.next {
					continue
				}
				if readsClass(in, c) {
					push(state{in.Out, c, unknown})
				}
			}
		}
	}
	return true
}

// readsClass reports whether a character-reading instruction can read a
// character of the class c stands for: '\n', a word character ('a') or
// another one (' '). It may say yes wrongly, never no.
func readsClass(in *syntax.Inst, c rune) bool {
	switch in.Op {
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return c != '\n'
	}
	switch c {
	case '\n':
		return in.MatchRune('\n')
	case 'a':
		for _, r := range "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz" {
			if in.MatchRune(r) {
				return true
			}
		}
		return false
	}
	// Another character: any rune of the set that is neither a word
	// character nor a newline. Case folding can add some (K folds to the
	// Kelvin sign): then say yes.
	runes := in.Rune
	if len(runes) == 1 {
		runes = []rune{runes[0], runes[0]}
	}
	fold := syntax.Flags(in.Arg)&syntax.FoldCase != 0
	for i := 0; i+1 < len(runes); i += 2 {
		lo, hi := runes[i], runes[i+1]
		if fold && hi >= 'A' && lo <= 'z' {
			return true
		}
		for r := lo; r <= hi; r++ {
			if r != '\n' && !syntax.IsWordChar(r) {
				return true
			}
			if r > 'z' {
				return true // past the ASCII word characters: all others
			}
		}
	}
	return false
}

// summarize joins the first n items and counts the rest.
func summarize(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}
