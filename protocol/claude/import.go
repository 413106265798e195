package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/hookctl/hookctl/protocol"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/hookctl/hookctl/internal/shquote"
)

// settingsFile is the part of a Claude Code settings file that holds hooks.
type settingsFile struct {
	Hooks map[string][]matcherGroup `json:"hooks"`
}

type matcherGroup struct {
	Matcher string        `json:"matcher"`
	Hooks   []hookHandler `json:"hooks"`
}

type hookHandler struct {
	Type           string            `json:"type"`
	Command        string            `json:"command"`
	Args           []string          `json:"args"`
	Shell          string            `json:"shell"`
	Timeout        *float64          `json:"timeout"`
	If             string            `json:"if"`
	Async          bool              `json:"async"`
	URL            string            `json:"url"`
	Headers        map[string]string `json:"headers"`
	AllowedEnvVars []string          `json:"allowedEnvVars"`
	Prompt         string            `json:"prompt"`
	Model          string            `json:"model"`
	StatusMessage  string            `json:"statusMessage"`
	Server         string            `json:"server"`
	Tool           string            `json:"tool"`
	// Protocol is hookctl's: the host whose protocol a command speaks
	// (set by hookctl import --host for other hosts' scripts).
	Protocol string `json:"protocol"`
}

// Import turns the hooks of a Claude Code settings file (settings.json,
// settings.local.json, a plugin's hooks.json) into an hooks.hcl that keeps
// behaving the same: command hooks run unchanged through the command
// handler (a command string through sh -c, command + args as an argv),
// matchers and timeouts carry over, `if` permission rules become
// permissionRule() conditions, async hooks become background hooks, http
// and prompt hooks become http { } and prompt { } blocks. What HCL cannot
// express (mcp_tool and agent hooks) is kept as a comment and reported in
// the warnings.
func Import(data []byte) (string, []string, error) {
	return ImportWith(data, ImportOptions{})
}

// ImportOptions are how hooks are imported.
type ImportOptions struct {
	// Env is set in the environment of every imported command hook (a
	// plugin's CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA); a ${NAME} of
	// it in a command's argv is replaced, as Claude Code does.
	Env map[string]string
	// Header is a comment line naming what was imported (default: Claude
	// Code settings, or the Host's hooks).
	Header string
	// Host is the name of the host whose hooks these are, once turned
	// into Claude Code settings (empty: Claude Code's own); Title is its
	// name for people. The header names that host and its import command.
	Host, Title string
}

// ImportWith is Import with options: a plugin's hooks get the plugin's
// variables. Every ${NAME} a command still holds that neither the
// options nor hookctl set (hookctl sets CLAUDE_PROJECT_DIR) is a
// warning naming it: the hook would see it empty or as whatever the
// environment hookctl runs in has.
func ImportWith(data []byte, opts ImportOptions) (string, []string, error) {
	var s settingsFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&s); err != nil {
		return "", nil, fmt.Errorf("settings: %w", err)
	}
	if len(s.Hooks) == 0 {
		return "", nil, fmt.Errorf("settings: no \"hooks\" object")
	}
	var b strings.Builder
	var warnings []string
	switch {
	case opts.Host != "" && opts.Host != Name:
		title := opts.Title
		if title == "" {
			title = opts.Host
		}
		if opts.Header != "" {
			b.WriteString("# " + commentText(opts.Header) + "\n")
		} else {
			fmt.Fprintf(&b, "# Imported from %s hooks by `hookctl import %s`.\n", title, opts.Host)
		}
		b.WriteString("# hookctl runs the matching hooks of an event in declaration order and merges their\n")
		b.WriteString("# results as Claude Code merges its hooks' (a deny wins).\n")
	default:
		if opts.Header != "" {
			b.WriteString("# " + commentText(opts.Header) + "\n")
		} else {
			b.WriteString("# Imported from Claude Code settings by `hookctl import claude`.\n")
		}
		b.WriteString("# Claude Code runs the matching hooks of an event in parallel; hookctl runs them in\n")
		b.WriteString("# declaration order and merges their results with the same precedence.\n")
	}
	events := make([]string, 0, len(s.Hooks))
	for ev := range s.Hooks {
		events = append(events, ev)
	}
	sort.Strings(events)
	used := map[string]bool{}
	for _, ev := range events {
		for _, g := range s.Hooks[ev] {
			for _, h := range g.Hooks {
				id := hookID(ev, g.Matcher, used)
				var body strings.Builder
				fmt.Fprintf(&body, "\nhook %s {\n", quote(id))
				attr(&body, "event", quote(ev))
				if m := strings.TrimSpace(g.Matcher); m != "" && m != "*" {
					attr(&body, "matcher", quote(g.Matcher))
				}
				if h.If != "" {
					attr(&body, "when", quote(fmt.Sprintf("permissionRule(tool_name, tool_input, %s)", exprString(h.If))))
				}
				if h.Timeout != nil && *h.Timeout > 0 {
					attr(&body, "timeout", quote(strconv.FormatFloat(*h.Timeout, 'f', -1, 64)+"s"))
				}
				if h.Async {
					attr(&body, "background", "true")
				}
				skip, self := false, false
				switch h.Type {
				case "command", "":
					if len(h.Args) > 0 {
						// Exec form has no shell to expand the placeholders.
						h.Command = expandVars(h.Command, opts.Env)
						h.Args = append([]string(nil), h.Args...)
						for i, a := range h.Args {
							h.Args[i] = expandVars(a, opts.Env)
						}
					}
					var args []string
					if len(h.Args) > 0 {
						args = h.Args
					}
					for _, v := range unresolvedVars(append([]string{h.Command}, h.Args...), opts.Env) {
						warnings = append(warnings, unresolvedWarning(id, v))
					}
					if RunsHookctl(h.Command, args) {
						skip, self = true, true
						warnings = append(warnings, fmt.Sprintf("%s: %q runs hookctl itself (what hookctl install registers); imported, hookctl would call itself on every %s, so it was left out (kept as a comment)", id, h.Command, ev))
						break
					}
					if len(h.Args) > 0 && strings.Contains(h.Command, "/") && !strings.HasPrefix(h.Command, "/") {
						// A relative program is relative to the project, where
						// Claude Code and hookctl run hooks; hookctl reads a
						// relative program of an argv against the
						// configuration, so run it through the shell instead.
						words := make([]string, 0, len(h.Args)+2)
						words = append(words, "exec", shquote.Quote(h.Command))
						for _, a := range h.Args {
							words = append(words, shquote.Quote(a))
						}
						attr(&body, "command", quote(strings.Join(words, " ")))
					} else if len(h.Args) > 0 {
						argv := append([]string{h.Command}, h.Args...)
						quoted := make([]string, len(argv))
						for i, a := range argv {
							quoted[i] = quote(a)
						}
						attr(&body, "command", "["+strings.Join(quoted, ", ")+"]")
					} else {
						attr(&body, "command", quote(h.Command))
					}
					switch {
					case h.Shell == "" || len(h.Args) > 0:
						// An argv runs without a shell: Claude Code ignores it.
					case protocol.KnownHookShell(h.Shell):
						attr(&body, "shell", quote(h.Shell))
					default:
						warnings = append(warnings, fmt.Sprintf("%s: shell %q is not one hookctl knows (%s); the line runs with the host's shell", id, h.Shell, protocol.HookShellNames()))
					}
					if h.Protocol != "" && h.Protocol != Name {
						attr(&body, "protocol", quote(h.Protocol))
					}
					if len(opts.Env) > 0 {
						keys := make([]string, 0, len(opts.Env))
						for k := range opts.Env {
							keys = append(keys, k)
						}
						sort.Strings(keys)
						body.WriteString("  env        = {\n")
						for _, k := range keys {
							fmt.Fprintf(&body, "    %s = %s\n", k, quote(opts.Env[k]))
						}
						body.WriteString("  }\n")
					}
				case "http":
					body.WriteString("  http {\n")
					fmt.Fprintf(&body, "    url = %s\n", quote(h.URL))
					if len(h.Headers) > 0 {
						keys := make([]string, 0, len(h.Headers))
						for k := range h.Headers {
							keys = append(keys, k)
						}
						sort.Strings(keys)
						body.WriteString("    headers = {\n")
						for _, k := range keys {
							fmt.Fprintf(&body, "      %s = %s\n", quote(k), quote(h.Headers[k]))
						}
						body.WriteString("    }\n")
					}
					if len(h.AllowedEnvVars) > 0 {
						q := make([]string, len(h.AllowedEnvVars))
						for i, v := range h.AllowedEnvVars {
							q[i] = quote(v)
						}
						fmt.Fprintf(&body, "    allowed_env = [%s]\n", strings.Join(q, ", "))
					}
					body.WriteString("  }\n")
				case "prompt":
					model := h.Model
					if model == "" {
						model = "claude-haiku-4-5"
					}
					body.WriteString("  prompt {\n")
					body.WriteString("    provider    = \"anthropic\"\n")
					fmt.Fprintf(&body, "    model       = %s\n", quote(model))
					body.WriteString("    api_key_env = \"ANTHROPIC_API_KEY\"\n")
					fmt.Fprintf(&body, "    text        = %s\n", quote(h.Prompt))
					body.WriteString("  }\n")
				default:
					skip = true
					warnings = append(warnings, fmt.Sprintf("%s: a %q hook has no hookctl equivalent; it was kept as a comment", id, h.Type))
				}
				body.WriteString("}\n")
				text := body.String()
				if skip {
					raw, _ := json.Marshal(h)
					why := fmt.Sprintf("%s hooks are not supported", h.Type)
					if self {
						why = "it runs hookctl itself, which would call itself"
					}
					text = fmt.Sprintf("\n# %s on %s (matcher %q) was not imported: %s.\n# %s\n", commentText(id), commentText(ev), g.Matcher, commentText(why), commentText(string(raw)))
				}
				b.WriteString(text)
			}
		}
	}
	return b.String(), warnings, nil
}

func attr(b *strings.Builder, name, value string) {
	fmt.Fprintf(b, "  %-10s = %s\n", name, value)
}

var slugRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9]+`) })

func hookID(event, matcher string, used map[string]bool) string {
	base := strings.ToLower(event)
	if m := strings.Trim(slugRE().ReplaceAllString(strings.ToLower(matcher), "-"), "-"); m != "" {
		if len(m) > 24 {
			m = m[:24]
		}
		base += "-" + strings.Trim(m, "-")
	}
	id := base
	for n := 2; used[id]; n++ {
		id = fmt.Sprintf("%s-%d", base, n)
	}
	used[id] = true
	return id
}

// commentText makes s safe in a line comment of the generated HCL: a
// control character (a newline would end the comment and start
// configuration) or a Unicode line or paragraph separator is written as
// its \u escape.
func commentText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) || r == 0x2028 || r == 0x2029 || r == utf8.RuneError {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// quote writes an HCL string literal, escaping ${ and %{ so commands keep
// their shell variables.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		case (r == '$' || r == '%') && i+1 < len(s) && s[i+1] == '{':
			b.WriteRune(r)
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// exprString writes an expr string literal.
func exprString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
