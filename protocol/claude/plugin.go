package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// PluginManifest is the path of a Claude Code plugin's manifest, relative
// to the plugin's root.
const PluginManifest = ".claude-plugin/plugin.json"

// Plugin is a Claude Code plugin's hooks, gathered as Claude Code loads
// them.
type Plugin struct {
	// Name is the plugin's name (from its manifest).
	Name string
	// Root is the plugin's directory (absolute): CLAUDE_PLUGIN_ROOT.
	Root string
	// Settings holds every hook of the plugin in a settings file's shape.
	Settings []byte
	// Sources names the files (and the manifest's inline hooks) read.
	Sources []string
}

// Env is what Claude Code sets for a plugin's hooks: CLAUDE_PLUGIN_ROOT
// and CLAUDE_PLUGIN_DATA (dataDir: the plugin's persistent directory;
// Claude Code's is ~/.claude/plugins/data/<plugin id>). Empty values are
// left out.
func PluginEnv(root, dataDir string) map[string]string {
	env := map[string]string{"CLAUDE_PLUGIN_ROOT": root}
	if dataDir != "" {
		env["CLAUDE_PLUGIN_DATA"] = dataDir
	}
	return env
}

// pluginNameRE is a plain plugin name: Claude Code's plugins reference
// asks for kebab-case without spaces; letters, digits, '-', '_' and '.'
// (not first) are taken, so no name holds a path separator, a control
// character or a space.
var pluginNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`) })

// ErrPluginName is what a manifest name that is not a plain plugin name
// matches with errors.Is.
var ErrPluginName = errors.New("not a plain plugin name")

// ValidPluginName checks a plugin manifest's name: a plain name (see
// pluginNameRE) without "..", since it names the plugin's data directory
// (~/.claude/plugins/data/<name>) and appears in the imported
// configuration.
func ValidPluginName(name string) error {
	if name == "" {
		return fmt.Errorf("\"name\" is missing: %w", ErrPluginName)
	}
	if !pluginNameRE().MatchString(name) || strings.Contains(name, "..") {
		return fmt.Errorf("\"name\" %q: %w (want kebab-case: letters, digits, '-', '_', '.'; no path separator, \"..\", space or control character)", name, ErrPluginName)
	}
	return nil
}

// IsPlugin reports whether dir is a Claude Code plugin (it has a
// manifest).
func IsPlugin(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, PluginManifest))
	return err == nil && fi.Mode().IsRegular()
}

// LoadPlugin reads a Claude Code plugin's hooks as Claude Code does: its
// hooks/hooks.json, and what its manifest's "hooks" declares (a path or
// a list of paths relative to the plugin root, or an inline hooks
// object). A path that leads out of the plugin is refused.
func LoadPlugin(dir string) (*Plugin, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile(filepath.Join(root, PluginManifest))
	if err != nil {
		return nil, fmt.Errorf("%s is not a Claude Code plugin: %w", dir, err)
	}
	var manifest struct {
		Name  string          `json:"name"`
		Hooks json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		return nil, fmt.Errorf("%s: %w", PluginManifest, err)
	}
	if err := ValidPluginName(manifest.Name); err != nil {
		return nil, fmt.Errorf("%s: %w", PluginManifest, err)
	}
	p := &Plugin{Name: manifest.Name, Root: root}
	merged := map[string][]json.RawMessage{}
	add := func(source string, data []byte) error {
		var f struct {
			Hooks map[string][]json.RawMessage `json:"hooks"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			return fmt.Errorf("%s: %w", source, err)
		}
		for ev, groups := range f.Hooks {
			merged[ev] = append(merged[ev], groups...)
		}
		p.Sources = append(p.Sources, source)
		return nil
	}
	var files []string
	if _, err := os.Stat(filepath.Join(root, "hooks", "hooks.json")); err == nil {
		files = append(files, "./hooks/hooks.json")
	}
	h := bytes.TrimSpace(manifest.Hooks)
	switch {
	case len(h) == 0 || bytes.Equal(h, []byte("null")):
	case h[0] == '"':
		var one string
		json.Unmarshal(h, &one)
		files = append(files, one)
	case h[0] == '[':
		var list []string
		if err := json.Unmarshal(h, &list); err != nil {
			return nil, fmt.Errorf("%s: hooks: %w", PluginManifest, err)
		}
		files = append(files, list...)
	case h[0] == '{':
		if err := add(PluginManifest+" (inline hooks)", h); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%s: hooks is neither a path, a list of paths nor a hooks object", PluginManifest)
	}
	seen := map[string]bool{}
	for _, f := range files {
		path := filepath.Join(root, filepath.FromSlash(f))
		if rel, err := filepath.Rel(root, path); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("%s: hooks file %q is outside the plugin", PluginManifest, f)
		}
		if seen[path] {
			continue
		}
		seen[path] = true
		data, err := os.ReadFile(path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s: hooks file %q: %w", PluginManifest, f, err)
			}
			return nil, err
		}
		if err := add(f, data); err != nil {
			return nil, err
		}
	}
	if len(merged) == 0 {
		return nil, fmt.Errorf("plugin %s has no hooks (no hooks/hooks.json, no \"hooks\" in %s)", dir, PluginManifest)
	}
	p.Settings, err = json.Marshal(map[string]any{"hooks": merged})
	return p, err
}

// varRE finds ${NAME} references.
var varRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_.]*)\}`) })

// setByHookctl are the variables hookctl's command handler sets itself.
var setByHookctl = map[string]bool{"CLAUDE_PROJECT_DIR": true}

// expandVars replaces ${NAME} for the names env sets.
func expandVars(s string, env map[string]string) string {
	return varRE().ReplaceAllStringFunc(s, func(m string) string {
		if v, ok := env[m[2:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// unresolvedVars are the ${NAME} of the strings that neither env nor
// hookctl sets, sorted, each once.
func unresolvedVars(strs []string, env map[string]string) []string {
	set := map[string]bool{}
	for _, s := range strs {
		for _, m := range varRE().FindAllStringSubmatch(s, -1) {
			if _, ok := env[m[1]]; !ok && !setByHookctl[m[1]] {
				set[m[1]] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

func unresolvedWarning(id, name string) string {
	switch {
	case strings.HasPrefix(name, "CLAUDE_PLUGIN_"):
		return fmt.Sprintf("%s: ${%s} is set by Claude Code for a plugin's hooks, and by nothing here: import the plugin's directory (hookctl import claude PLUGIN_DIR) or give --plugin-root DIR", id, name)
	case strings.HasPrefix(name, "user_config."):
		return fmt.Sprintf("%s: ${%s} is a plugin option Claude Code fills in; hookctl leaves it as it is", id, name)
	}
	return fmt.Sprintf("%s: ${%s} is not set by hookctl: the hook gets whatever the environment hookctl runs in has (or nothing)", id, name)
}
