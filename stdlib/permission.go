package stdlib

import (
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/hookctl/hookctl/lib/paths"
	"github.com/hookctl/hookctl/lib/shell"
)

var ruleRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z0-9_*-]+)(?:\((.*)\))?$`) })

// PermissionRule reports whether a tool call matches a Claude Code
// permission rule such as Bash(git push:*), Bash(npm run *), Edit(src/**),
// Read(~/.ssh/*) or WebFetch(domain:example.com) — the syntax of Claude
// Code's `if` filter. For Bash every subcommand is checked (after
// unwrapping sudo, env, bash -c, ...); a line that cannot be parsed matches
// (fails open, as in Claude Code). A file rule matches a call that touches
// several files (tool_input.paths, Codex's apply_patch) when one of them
// matches, and a call whose files cannot be read (paths_unknown).
func PermissionRule(toolName string, toolInput map[string]any, rule string) bool {
	m := ruleRE().FindStringSubmatch(strings.TrimSpace(rule))
	if m == nil {
		return false
	}
	tool, pattern := m[1], m[2]
	if ok, _ := pathMatch(tool, toolName); !ok && tool != toolName {
		return false
	}
	if pattern == "" || pattern == "*" {
		return true
	}
	str := func(k string) string { s, _ := toolInput[k].(string); return s }
	switch toolName {
	case "Bash", "PowerShell":
		cmd := str("command")
		segs, err := shell.Parse(cmd)
		if err != nil {
			return true
		}
		for _, s := range segs {
			// The command as run, and as written with its launchers
			// (sudo, env, ...) in front.
			cmdline := strings.Join(s.Argv, " ")
			if bashRule(pattern, cmdline) {
				return true
			}
			if len(s.Wrappers) > 0 && bashRule(pattern, strings.Join(s.Wrappers, " ")+" "+cmdline) {
				return true
			}
		}
		return false
	case "WebFetch", "WebSearch":
		if d, ok := strings.CutPrefix(pattern, "domain:"); ok {
			u, err := url.Parse(str("url"))
			if err != nil {
				return false
			}
			h := u.Hostname()
			return h == d || strings.HasSuffix(h, "."+d)
		}
		return globText(pattern, str("url")+str("query"))
	}
	if unknown, _ := toolInput["paths_unknown"].(bool); unknown {
		// A patch whose files cannot be read (Codex's apply_patch)
		// matches, as a Bash line that cannot be parsed does.
		return true
	}
	target := str("file_path")
	if target == "" {
		target = str("notebook_path")
	}
	if target == "" {
		target = str("path")
	}
	targets := []string{target}
	if target == "" {
		targets = nil
	}
	// Every file of a multi-file call (Codex's apply_patch): the rule
	// matches when one of them does.
	if list, ok := toolInput["paths"].([]any); ok {
		for _, v := range list {
			if s, ok := v.(string); ok && s != "" {
				targets = append(targets, s)
			}
		}
	}
	if len(targets) == 0 {
		return false
	}
	p := pattern
	switch {
	case strings.HasPrefix(p, "//"):
		p = p[1:]
	case strings.HasPrefix(p, "~/"):
		p = paths.ExpandPattern(p, "")
	default:
		p = strings.TrimPrefix(p, "./")
	}
	for _, t := range targets {
		if paths.Match(p, t) {
			return true
		}
	}
	return false
}

// bashRule matches one subcommand: a legacy "prefix:*" is a word prefix,
// anything else a glob where * is any text.
func bashRule(pattern, cmd string) bool {
	if prefix, ok := strings.CutSuffix(pattern, ":*"); ok {
		return cmd == prefix || strings.HasPrefix(cmd, prefix+" ")
	}
	return globText(pattern, cmd)
}

// globText matches text against a pattern where * is any run of
// characters.
func globText(pattern, text string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == text
	}
	if !strings.HasPrefix(text, parts[0]) {
		return false
	}
	text = text[len(parts[0]):]
	for i, p := range parts[1:] {
		last := i == len(parts)-2
		if last {
			return strings.HasSuffix(text, p)
		}
		j := strings.Index(text, p)
		if j < 0 {
			return false
		}
		text = text[j+len(p):]
	}
	return true
}

func pathMatch(pattern, name string) (bool, error) {
	if !strings.Contains(pattern, "*") {
		return pattern == name, nil
	}
	return globText(pattern, name), nil
}
