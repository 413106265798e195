package hcl

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/hookctl/hookctl/claude"
	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/suggest"
	"github.com/hookctl/hookctl/llm"
	"github.com/hookctl/hookctl/script"
	"github.com/hookctl/hookctl/stdlib"
	"github.com/hookctl/hookctl/stdlib/builtin"
	"github.com/hookctl/hookctl/stdlib/shell"
)

// decodeHook turns a hook block into an engine.Hook, reporting every
// problem with the range it comes from.
func (l *loader) decodeHook(b *hcl2.Block) {
	id := b.Labels[0]
	content, d := b.Body.Content(hookSchema)
	l.diags = append(l.diags, d...)
	errsBefore := l.errorCount()
	if prev, dup := l.hookAt[id]; dup {
		l.ev.errorf(b.LabelRanges[0], "Duplicate hook id",
			"Hook %q is already declared at %s; hook ids must be unique.", id, at(prev))
		return
	}
	l.hookAt[id] = b.LabelRanges[0]
	h := engine.Hook{ID: id, Source: fmt.Sprintf("%s:%d", b.DefRange.Filename, b.DefRange.Start.Line)}
	attrs := content.Attributes

	// Events.
	if a := attrs["event"]; a != nil {
		h.Event, _ = l.ev.str(a)
		l.checkEvent(h.Event, a.Expr.Range())
	}
	if a := attrs["events"]; a != nil {
		evs, _ := l.ev.strings(a)
		for _, e := range evs {
			l.checkEvent(e, a.Expr.Range())
		}
		h.Events = evs
	}
	if attrs["event"] == nil && attrs["events"] == nil {
		l.ev.errorf(b.DefRange, "Missing event", "Hook %q needs event = \"...\" or events = [...].", id)
	}
	names := append([]string{h.Event}, h.Events...)

	// Matcher, condition and switches.
	if a := attrs["matcher"]; a != nil {
		h.Matcher, _ = l.ev.str(a)
		l.checkMatcher(h.Matcher, names, a)
	}
	if a := attrs["when"]; a != nil {
		if src, ok := l.ev.str(a); ok {
			h.Condition = l.compileCondition(src, a)
		}
	}
	if a := attrs["priority"]; a != nil {
		h.Priority, _ = l.ev.integer(a)
	}
	if a := attrs["timeout"]; a != nil {
		h.Timeout, _ = l.ev.duration(a)
	}
	if a := attrs["background"]; a != nil {
		h.Background, _ = l.ev.boolean(a)
	}
	if a := attrs["observe"]; a != nil {
		h.Observe, _ = l.ev.boolean(a)
		if h.Observe && h.Background {
			l.ev.errorf(a.Expr.Range(), "Conflicting switches", "A hook cannot be both background and observe.")
		}
	}
	if a := attrs["enabled"]; a != nil {
		if on, ok := l.ev.boolean(a); ok {
			h.Disabled = !on
		}
	}
	var allow []string
	if a := attrs["allow"]; a != nil {
		allow, _ = l.ev.strings(a)
		for _, c := range allow {
			if !slices.Contains([]string{stdlib.CapExec, stdlib.CapNet, stdlib.CapWrite, stdlib.CapRead, "all"}, c) {
				l.ev.errorf(a.Expr.Range(), "Unknown capability",
					"allow lists capabilities: exec, net, write, read (or all), not %q.", c)
			}
		}
	}
	l.decodeOnError(&h, content)

	// Exactly one handler.
	var kinds []string
	var kindRanges []hcl2.Range
	for _, k := range handlerKinds {
		if a := attrs[k]; a != nil {
			kinds, kindRanges = append(kinds, k), append(kindRanges, a.NameRange)
		}
		for _, blk := range content.Blocks {
			if blk.Type == k {
				kinds, kindRanges = append(kinds, k), append(kindRanges, blk.DefRange)
			}
		}
	}
	var declRange *hcl2.Range
	for _, f := range declarativeFields {
		if a := attrs[f]; a != nil && declRange == nil {
			r := a.NameRange
			declRange = &r
		}
	}
	if declRange != nil {
		kinds, kindRanges = append(kinds, "declarative"), append(kindRanges, *declRange)
	}
	switch {
	case len(kinds) == 0:
		l.ev.errorf(b.DefRange, "Missing handler",
			"Hook %q needs exactly one handler: declarative fields (decision, reason, additional_context, ...), js, script, command, http { }, prompt { } or agent { }.", id)
		return
	case len(kinds) > 1:
		l.ev.errorf(kindRanges[1], "Two handlers on one hook",
			"Hook %q has %s and %s; a hook has exactly one handler (split it into two hooks).", id, kinds[0], kinds[1])
		return
	}
	spec, _ := l.lookupEvent(firstNonEmpty(names))
	switch kinds[0] {
	case "declarative":
		h.Handler = l.declarative(content, names)
	case "js":
		h.Handler = l.inlineJS(attrs["js"], allow)
	case "script":
		h.Handler = l.scriptFile(attrs["script"], allow)
	case "command":
		h.Handler = l.command(attrs["command"], attrs, names)
	case "http":
		h.Handler = l.httpHandler(blockOf(content, "http"))
	case "prompt":
		h.Handler = l.promptHandler(blockOf(content, "prompt"), spec)
	case "agent":
		h.Handler = l.agentHandler(blockOf(content, "agent"), spec)
	}
	if l.errorCount() > errsBefore || h.Handler == nil {
		return
	}
	l.cfg.Engine.Hooks = append(l.cfg.Engine.Hooks, h)
}

// errorCount counts the errors so far (warnings do not stop a hook).
func (l *loader) errorCount() int {
	return len(filter(l.diags, hcl2.DiagError)) + len(filter(l.ev.diags, hcl2.DiagError))
}

func firstNonEmpty(s []string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func blockOf(c *hcl2.BodyContent, typ string) *hcl2.Block {
	for _, b := range c.Blocks {
		if b.Type == typ {
			return b
		}
	}
	return nil
}

func (l *loader) checkEvent(name string, r hcl2.Range) {
	if name == "" {
		return
	}
	if _, ok := l.lookupEvent(name); !ok {
		detail := fmt.Sprintf("%q is not an event of the catalog or of this configuration.", name)
		if s := suggest.Closest(name, l.knownEventNames()); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		detail += " Run `hookctl events` for the list, or declare it with an event block."
		l.ev.errorf(r, "Unknown event", "%s", detail)
	}
}

// checkMatcher compiles the matcher for every event's syntax and warns
// about the traps users hit.
func (l *loader) checkMatcher(m string, events []string, a *hcl2.Attribute) {
	for _, e := range events {
		spec, ok := l.lookupEvent(e)
		if !ok || e == "" {
			continue
		}
		if _, err := engine.CompileMatcherMode(m, spec.MatcherMode); err != nil {
			var me *engine.MatcherError
			msg := err.Error()
			if errors.As(err, &me) {
				msg = fmt.Sprintf("%q is not a valid regular expression: %v", m, me.Err)
			}
			l.ev.errorf(a.Expr.Range(), "Invalid matcher", "%s.", msg)
			return
		}
		if spec.MatcherField == "" && strings.TrimSpace(m) != "" && m != "*" {
			l.ev.warnf(a.Expr.Range(), "Matcher has no effect",
				"Event %s has no matcher field, so this matcher matches everything (as in Claude Code). Use when = \"...\" to filter.", spec.Name)
		}
	}
	if permissionRuleRE.MatchString(m) {
		l.ev.warnf(a.Expr.Range(), "Matcher looks like a permission rule",
			"%q is permission-rule syntax (Tool(pattern)); a matcher names tools, e.g. matcher = \"Bash\" with when = \"tool_input.command startsWith 'git '\".", m)
	}
}

// compileCondition compiles a when expression, mapping an error's
// position into the HCL file.
func (l *loader) compileCondition(src string, a *hcl2.Attribute) *conditions.Program {
	if p, ok := l.compiled[src]; ok {
		return p
	}
	if l.conds == nil {
		l.conds = conditions.NewCompiler(conditions.WithFunctions(stdlib.ConditionFunctions()...))
		l.compiled = map[string]*conditions.Program{}
	}
	p, err := l.conds.Compile(src)
	if err == nil {
		l.compiled[src] = p
		return p
	}
	r := a.Expr.Range()
	var ce *conditions.Error
	if errors.As(err, &ce) {
		r = l.innerRange(a, ce.Line, ce.Column)
		detail := ce.Message
		if ce.Snippet != "" {
			detail += "\n" + ce.Snippet
		}
		if strings.Contains(ce.Message, "invalid char escape") {
			detail += "\nexpr's quoted strings process escapes: write regexes in backticks, e.g. matches `\\brm\\s+-rf`."
		}
		l.ev.errorf(r, "Invalid condition", "%s", detail)
		return nil
	}
	l.ev.errorf(r, "Invalid condition", "%s", err)
	return nil
}

// innerRange maps a (line, column) inside a string attribute's value to
// the file: a quoted string starts one column after its opening quote, a
// heredoc on the line after its marker.
func (l *loader) innerRange(a *hcl2.Attribute, line, col int) hcl2.Range {
	r := a.Expr.Range()
	pos := r.Start
	if _, ok := a.Expr.(*hclsyntax.TemplateExpr); ok && l.isHeredoc(r) {
		pos.Line += line
		pos.Column = col
	} else {
		pos.Line += line - 1
		if line == 1 {
			pos.Column += col
		} else {
			pos.Column = col
		}
	}
	end := pos
	end.Column++
	return hcl2.Range{Filename: r.Filename, Start: pos, End: end}
}

func (l *loader) isHeredoc(r hcl2.Range) bool {
	f := l.parser.Files()[r.Filename]
	if f == nil || r.Start.Byte >= len(f.Bytes) {
		return false
	}
	return bytes.HasPrefix(f.Bytes[r.Start.Byte:], []byte("<<"))
}

func (l *loader) decodeOnError(h *engine.Hook, c *hcl2.BodyContent) {
	if a := c.Attributes["on_error"]; a != nil {
		if s, ok := l.ev.str(a); ok {
			p, known := engine.ParseErrorPolicy(s)
			if !known || s == "" {
				l.ev.errorf(a.Expr.Range(), "Invalid on_error", "on_error must be \"ignore\", \"block\" or \"retry\", not %q.", s)
			}
			h.OnError.Policy = p
		}
	}
	var retry *hcl2.Block
	for _, b := range c.Blocks {
		if b.Type == "retry" {
			if retry != nil {
				l.ev.errorf(b.DefRange, "Duplicate retry block", "A hook has at most one retry block.")
				continue
			}
			retry = b
		}
	}
	if retry == nil {
		if h.OnError.Policy == engine.ErrorRetry {
			h.OnError.Attempts = 3
		}
		return
	}
	rc, d := retry.Body.Content(retrySchema)
	l.diags = append(l.diags, d...)
	h.OnError.Attempts = 3
	if a := rc.Attributes["attempts"]; a != nil {
		if n, ok := l.ev.integer(a); ok {
			if n < 1 || n > 20 {
				l.ev.errorf(a.Expr.Range(), "Invalid retry", "attempts must be between 1 and 20.")
			}
			h.OnError.Attempts = n
		}
	}
	if a := rc.Attributes["backoff"]; a != nil {
		h.OnError.Backoff, _ = l.ev.duration(a)
	}
	if h.OnError.Policy != engine.ErrorRetry {
		l.ev.errorf(retry.DefRange, "Retry without on_error = \"retry\"", "A retry block only applies with on_error = \"retry\".")
	}
}

// declarative builds the no-code handler from the result attributes.
func (l *loader) declarative(c *hcl2.BodyContent, events []string) engine.Handler {
	res := engine.Result{}
	for _, f := range declarativeFields {
		a := c.Attributes[f]
		if a == nil {
			continue
		}
		v, ok := l.ev.goValue(a)
		if !ok {
			continue
		}
		switch f {
		case "result":
			m, isMap := v.(map[string]any)
			if !isMap {
				l.ev.errorf(a.Expr.Range(), "Invalid result", "result must be an object of result fields.")
				continue
			}
			for k, x := range m {
				res[k] = x
			}
		case "continue", "suppress_output":
			if _, isBool := v.(bool); !isBool {
				l.ev.errorf(a.Expr.Range(), "Incorrect attribute value type", "%s must be a bool.", f)
				continue
			}
			res[f] = v
		case "updated_input":
			if _, isMap := v.(map[string]any); !isMap {
				l.ev.errorf(a.Expr.Range(), "Incorrect attribute value type", "updated_input must be an object (the whole tool input).")
				continue
			}
			res[f] = v
		default:
			if _, isStr := v.(string); !isStr {
				l.ev.errorf(a.Expr.Range(), "Incorrect attribute value type", "%s must be a string.", f)
				continue
			}
			res[f] = v
		}
		if f == "decision" {
			d := v.(string)
			for _, e := range events {
				spec, ok := l.lookupEvent(e)
				if !ok || e == "" {
					continue
				}
				if !spec.AcceptsDecision(d) {
					accepts := "takes no decision"
					if len(spec.Decisions) > 0 {
						accepts = "accepts " + strings.Join(spec.Decisions, ", ")
					}
					l.ev.errorf(a.Expr.Range(), "Decision not accepted", "Event %s %s, not %q.", spec.Name, accepts, d)
				}
			}
		}
	}
	return engine.Static(res)
}

// jsPool returns the configuration's script pool, creating it on first
// use.
func (l *loader) jsPool() *script.Pool {
	if l.pool != nil {
		return l.pool
	}
	mods, err := stdlib.Modules(stdlib.Options{Store: l.store, HTTPAllow: l.cfg.Settings.HTTPAllow, Logger: l.log})
	if err != nil {
		panic(err) // the embedded modules always compile
	}
	opts := append(mods, script.WithRoots(l.projectDir), script.WithRoots(l.cfg.Settings.Roots...), script.WithLogger(l.log))
	if n := l.cfg.Settings.ScriptPool; n > 0 {
		opts = append(opts, script.WithSize(n))
	}
	if n := l.cfg.Settings.ScriptMemoryLimit; n != nil {
		opts = append(opts, script.WithMemoryLimit(*n))
	}
	p, err := script.NewPool(l.dir, opts...)
	if err != nil {
		panic(err)
	}
	p.Prewarm() // ready by the time the configuration is
	l.pool = p
	return p
}

// inlineJS compiles an inline js body; errors point into the HCL file.
func (l *loader) inlineJS(a *hcl2.Attribute, allow []string) engine.Handler {
	body, ok := l.ev.str(a)
	if !ok {
		return nil
	}
	r := a.Expr.Range()
	line := r.Start.Line
	if l.isHeredoc(r) {
		line++
	}
	prog, err := l.jsPool().CompileInline(r.Filename, body, line)
	if err != nil {
		var se *script.SyntaxError
		if errors.As(err, &se) {
			col := l.bodyColumn(r, body, line, se.Line, se.Column)
			rr := hcl2.Range{Filename: r.Filename, Start: hcl2.Pos{Line: se.Line, Column: col}, End: hcl2.Pos{Line: se.Line, Column: col + 1}}
			l.ev.errorf(rr, "JavaScript syntax error", "%s", se.Message)
			return nil
		}
		l.ev.errorf(r, "Invalid JavaScript", "%s", err)
		return nil
	}
	return l.jsPool().Handler(prog, allow...)
}

// bodyColumn maps a column in a js string's value to the file: a quoted
// string's first line starts after its opening quote; a heredoc's lines
// lost their common indentation.
func (l *loader) bodyColumn(r hcl2.Range, body string, firstLine, line, col int) int {
	idx := line - firstLine
	if !l.isHeredoc(r) {
		if idx == 0 {
			return r.Start.Column + col
		}
		return col
	}
	f := l.parser.Files()[r.Filename]
	lines := strings.Split(string(f.Bytes), "\n")
	values := strings.Split(body, "\n")
	if line-1 >= len(lines) || idx < 0 || idx >= len(values) {
		return col
	}
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }
	return col + indent(lines[line-1]) - indent(values[idx])
}

// scriptFile compiles a CommonJS handler file, relative to the config.
func (l *loader) scriptFile(a *hcl2.Attribute, allow []string) engine.Handler {
	p, ok := l.ev.str(a)
	if !ok {
		return nil
	}
	if p == "" {
		l.ev.errorf(a.Expr.Range(), "Missing script", "script names a file next to the configuration, e.g. \"scripts/check.js\".")
		return nil
	}
	prog, err := l.jsPool().CompileFile(p)
	if err != nil {
		var se *script.SyntaxError
		var xe *script.Error
		switch {
		case errors.As(err, &se):
			l.ev.errorf(a.Expr.Range(), "JavaScript syntax error", "%s:%d:%d: %s", relTo(l.dir, se.File), se.Line, se.Column, se.Message)
		case errors.As(err, &xe):
			l.ev.errorf(a.Expr.Range(), "Script failed to load", "%s:%d:%d: %s", relTo(l.dir, xe.File), xe.Line, xe.Column, xe.Message)
		default:
			l.ev.errorf(a.Expr.Range(), "Missing or unreadable script", "%s.", strings.Replace(err.Error(), l.dir+string(filepath.Separator), "", 1))
		}
		return nil
	}
	return l.jsPool().Handler(prog, allow...)
}

func relTo(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// command builds a Claude Code protocol command handler: a list is an
// argv run without a shell, a string runs with sh -c.
func (l *loader) command(a *hcl2.Attribute, attrs hcl2.Attributes, events []string) engine.Handler {
	v, ok := l.ev.goValue(a)
	if !ok {
		return nil
	}
	spec := claude.CommandSpec{Dir: l.dir}
	switch c := v.(type) {
	case string:
		if strings.TrimSpace(c) == "" {
			l.ev.errorf(a.Expr.Range(), "Empty command", "command must not be empty.")
			return nil
		}
		spec.Shell = c
	case []any:
		for _, x := range c {
			s, isStr := x.(string)
			if !isStr {
				l.ev.errorf(a.Expr.Range(), "Invalid command", "A command list is an argv of strings.")
				return nil
			}
			spec.Argv = append(spec.Argv, s)
		}
		if len(spec.Argv) == 0 || spec.Argv[0] == "" {
			l.ev.errorf(a.Expr.Range(), "Empty command", "command must not be empty.")
			return nil
		}
		// A relative program path is relative to the configuration.
		if strings.Contains(spec.Argv[0], "/") && !filepath.IsAbs(spec.Argv[0]) {
			spec.Argv[0] = filepath.Join(l.dir, spec.Argv[0])
		}
	default:
		l.ev.errorf(a.Expr.Range(), "Invalid command", "command is a string (run with sh -c) or a list (an argv run without a shell).")
		return nil
	}
	if ea := attrs["env"]; ea != nil {
		if m, ok := l.ev.goValue(ea); ok {
			em, isMap := m.(map[string]any)
			if !isMap {
				l.ev.errorf(ea.Expr.Range(), "Invalid env", "env is an object of NAME = \"value\".")
			}
			spec.Env = map[string]string{}
			for k, x := range em {
				spec.Env[k] = fmt.Sprint(x)
			}
		}
	}
	if ca := attrs["cwd"]; ca != nil {
		if d, ok := l.ev.str(ca); ok && d != "" {
			spec.Dir = l.path(d)
		}
	}
	if l.projectDir != "" {
		spec.ProjectDir = l.projectDir
	}
	h, err := claude.NewCommand(spec)
	if err != nil {
		l.ev.errorf(a.Expr.Range(), "Invalid command", "%s.", err)
		return nil
	}
	return h
}

func (l *loader) httpHandler(b *hcl2.Block) engine.Handler {
	c, d := b.Body.Content(httpSchema)
	l.diags = append(l.diags, d...)
	if d.HasErrors() {
		return nil
	}
	spec := claude.HTTPSpec{Allow: l.cfg.Settings.HTTPAllow, Getenv: l.getenv}
	spec.URL, _ = l.ev.str(c.Attributes["url"])
	if a := c.Attributes["method"]; a != nil {
		spec.Method, _ = l.ev.str(a)
	}
	if a := c.Attributes["allowed_env"]; a != nil {
		spec.AllowedEnv, _ = l.ev.strings(a)
	}
	if a := c.Attributes["headers"]; a != nil {
		if v, ok := l.ev.goValue(a); ok {
			m, isMap := v.(map[string]any)
			if !isMap {
				l.ev.errorf(a.Expr.Range(), "Invalid headers", "headers is an object of Name = \"value\".")
				return nil
			}
			spec.Headers = map[string]string{}
			for k, x := range m {
				spec.Headers[k] = fmt.Sprint(x)
			}
		}
	}
	h, err := claude.NewHTTP(spec)
	if err != nil {
		l.ev.errorf(c.Attributes["url"].Expr.Range(), "Invalid http handler", "%s.", err)
		return nil
	}
	return h
}

func (l *loader) promptHandler(b *hcl2.Block, event engine.EventSpec) engine.Handler {
	c, d := b.Body.Content(promptSchema)
	l.diags = append(l.diags, d...)
	if d.HasErrors() {
		return nil
	}
	var spec llm.PromptSpec
	var pc llm.ProviderConfig
	spec.Text, _ = l.ev.str(c.Attributes["text"])
	for name, a := range c.Attributes {
		switch name {
		case "provider":
			pc.Kind, _ = l.ev.str(a)
		case "model":
			pc.Model, _ = l.ev.str(a)
		case "base_url":
			pc.BaseURL, _ = l.ev.str(a)
		case "api_key_env":
			env, _ := l.ev.str(a)
			if key, ok := l.getenv(env); ok {
				pc.APIKey = key
			} else {
				l.ev.warnf(a.Expr.Range(), "API key not set", "Environment variable %s is not set; the provider will be called without a key.", env)
			}
		case "max_tokens":
			pc.MaxTokens, _ = l.ev.integer(a)
		case "system":
			spec.System, _ = l.ev.str(a)
		case "continue_on_block":
			spec.ContinueOnBlock, _ = l.ev.boolean(a)
		}
	}
	spec.Event = event
	switch {
	case pc.Kind != "" || pc.BaseURL != "":
		p, err := llm.NewHTTPProvider(pc)
		if err != nil {
			l.ev.errorf(b.DefRange, "Invalid prompt provider", "%s.", err)
			return nil
		}
		spec.Provider = p
	case l.provider != nil:
		spec.Provider = l.provider
		spec.Model = pc.Model
	default:
		l.ev.errorf(b.DefRange, "No prompt provider",
			"A prompt handler needs a provider: set provider = \"anthropic\" or \"openai\" (with model, base_url, api_key_env), or embed hookctl and pass one from Go.")
		return nil
	}
	h, err := llm.NewPrompt(spec)
	if err != nil {
		l.ev.errorf(b.DefRange, "Invalid prompt handler", "%s.", err)
		return nil
	}
	return h
}

func (l *loader) agentHandler(b *hcl2.Block, event engine.EventSpec) engine.Handler {
	c, d := b.Body.Content(agentSchema)
	l.diags = append(l.diags, d...)
	if d.HasErrors() {
		return nil
	}
	if l.agent == nil {
		l.ev.errorf(b.DefRange, "No agent runner",
			"agent handlers run an agent the embedding program supplies (hcl.WithAgentRunner); the hookctl command has none. Use a prompt { } handler instead.")
		return nil
	}
	spec := llm.AgentSpec{Runner: l.agent, Event: event}
	spec.Prompt, _ = l.ev.str(c.Attributes["prompt"])
	if a := c.Attributes["model"]; a != nil {
		spec.Model, _ = l.ev.str(a)
	}
	if a := c.Attributes["max_turns"]; a != nil {
		spec.MaxTurns, _ = l.ev.integer(a)
	}
	if a := c.Attributes["tools"]; a != nil {
		spec.Tools, _ = l.ev.strings(a)
	}
	h, err := llm.NewAgent(spec)
	if err != nil {
		l.ev.errorf(b.DefRange, "Invalid agent handler", "%s.", err)
		return nil
	}
	return h
}

// decodeBuiltin enables a hook of the built-in pack.
func (l *loader) decodeBuiltin(b *hcl2.Block) {
	name := b.Labels[0]
	spec, ok := builtin.Lookup(name)
	if !ok {
		var names []string
		for _, s := range builtin.Specs() {
			names = append(names, s.Name)
		}
		detail := fmt.Sprintf("There is no built-in hook %q. The built-ins are: %s.", name, strings.Join(names, ", "))
		if s := suggest.Closest(name, names); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		l.ev.errorf(b.LabelRanges[0], "Unknown built-in", "%s", detail)
		return
	}
	attrs, d := b.Body.JustAttributes()
	l.diags = append(l.diags, d...)
	if l.shell == nil {
		l.shell = shell.NewCache(0)
	}
	cfg := builtin.Config{Options: map[string]any{}, Store: l.store, Dir: l.dir, Logger: l.log, Shell: l.shell}
	known := map[string]bool{"priority": true, "id": true, "enabled": true}
	for _, o := range spec.Options {
		known[o.Name] = true
	}
	enabled := true
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		a := attrs[k]
		switch {
		case k == "priority":
			if p, ok := l.ev.integer(a); ok {
				cfg.Priority = &p
			}
		case k == "id":
			cfg.ID, _ = l.ev.str(a)
		case k == "enabled":
			enabled, _ = l.ev.boolean(a)
		case !known[k]:
			var names []string
			for n := range known {
				names = append(names, n)
			}
			sort.Strings(names)
			l.ev.errorf(a.NameRange, "Unsupported argument",
				"Built-in %q has no option %q; its options are %s.", name, k, strings.Join(names, ", "))
		default:
			if v, ok := l.ev.goValue(a); ok {
				cfg.Options[k] = v
			}
		}
	}
	if !enabled {
		return
	}
	hooks, err := builtin.New(name, cfg)
	if err != nil {
		l.ev.errorf(b.DefRange, "Invalid built-in", "%s.", err)
		return
	}
	for _, h := range hooks {
		if prev, dup := l.hookAt[h.ID]; dup {
			l.ev.errorf(b.DefRange, "Duplicate hook id",
				"Built-in %q adds hook %q, which is already declared at %s; set id = \"...\" in the builtin block.", name, h.ID, at(prev))
			continue
		}
		l.hookAt[h.ID] = b.DefRange
		h.Source = fmt.Sprintf("%s:%d", b.DefRange.Filename, b.DefRange.Start.Line)
		l.cfg.Engine.Hooks = append(l.cfg.Engine.Hooks, h)
	}
}

// checkRequired reports required hooks that are missing or would fail
// open.
func (l *loader) checkRequired() {
	for _, id := range l.cfg.Settings.Required {
		found := false
		for i := range l.cfg.Engine.Hooks {
			h := &l.cfg.Engine.Hooks[i]
			if h.ID != id {
				continue
			}
			found = true
			if h.OnError.Policy == engine.ErrorDefault || h.OnError.Policy == engine.ErrorIgnore {
				// A required hook fails closed.
				h.OnError.Policy = engine.ErrorBlock
			}
			if h.Disabled {
				l.ev.errorf(l.hookAt[id], "Required hook disabled", "Hook %q is listed in settings.required but has enabled = false.", id)
			}
		}
		if !found {
			l.ev.errorf(l.requiredAt, "Required hook missing", "settings.required lists %q, but no hook has that id.", id)
		}
	}
}

// permissionRuleRE matches Claude Code permission-rule syntax such as
// Bash(git push:*), which users put in matchers by mistake.
var permissionRuleRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\(.*\)$`)
