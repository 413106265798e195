package codex

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/pelletier/go-toml/v2"

	"github.com/hookctl/hookctl/protocol"
)

var _ protocol.Gater = (*Protocol)(nil)

// installNotes are what install says about Codex's gates: without them
// an installed hook looks like a guard and never runs.
var installNotes = []string{
	"Codex runs no hook it has not been told to trust: review these hooks in Codex's TUI (/hooks) once, or run codex with --dangerously-bypass-hook-trust; until then Codex skips them without a word",
	"Codex loads a project's .codex/hooks.json only in a trusted project (trust the project when Codex asks, or set trust_level = \"trusted\" under [projects.\"<dir>\"] in ~/.codex/config.toml)",
}

// codexHome is Codex's home directory: $CODEX_HOME, else ~/.codex.
func codexHome(getenv func(string) string) string {
	if h := getenv("CODEX_HOME"); h != "" {
		return h
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".codex")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".codex")
	}
	return ""
}

// userConfig is the part of Codex's config.toml that gates hooks.
type userConfig struct {
	Projects map[string]struct {
		TrustLevel string `toml:"trust_level"`
	} `toml:"projects"`
	Hooks struct {
		State map[string]struct {
			Enabled     *bool  `toml:"enabled"`
			TrustedHash string `toml:"trusted_hash"`
		} `toml:"state"`
	} `toml:"hooks"`
}

// keyLabel is Codex's name of an event in a hook-state key
// (PreToolUse → pre_tool_use).
func keyLabel(event string) string {
	var b strings.Builder
	for i, r := range event {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Gates reads Codex's own gates on the hookctl hooks of the project's
// .codex/hooks.json from Codex's config.toml ($CODEX_HOME or ~/.codex):
// whether the project is trusted ([projects."<dir>"] trust_level, the
// project or a directory above it) and whether each hookctl handler has
// been reviewed ([hooks.state."<hooks.json>:<event>:<group>:<handler>"]
// with a trusted_hash, not enabled = false). Codex compares the recorded
// hash with the hook as it is now; hookctl cannot compute that hash, so a
// hook changed after its review (a new install) reads as reviewed here
// while Codex shows it as modified and skips it.
func (p *Protocol) Gates(projectDir string, getenv func(string) string) []protocol.Gate {
	project, err := filepath.Abs(projectDir)
	if err != nil {
		project = projectDir
	}
	home := codexHome(getenv)
	cfgPath := filepath.Join(home, "config.toml")
	var cfg userConfig
	data, err := os.ReadFile(cfgPath)
	switch {
	case err == nil:
		if err := toml.Unmarshal(data, &cfg); err != nil {
			return []protocol.Gate{
				{Name: "Codex project trust", State: protocol.GateUnknown, Detail: fmt.Sprintf("%s could not be read: %v", cfgPath, err)},
				{Name: "Codex hook review", State: protocol.GateUnknown, Detail: fmt.Sprintf("%s could not be read: %v", cfgPath, err)},
			}
		}
	case os.IsNotExist(err):
	default:
		return []protocol.Gate{{Name: "Codex hook review", State: protocol.GateUnknown, Detail: err.Error()}}
	}
	return []protocol.Gate{projectTrust(cfg, project, cfgPath), hookReview(cfg, project, cfgPath)}
}

func projectTrust(cfg userConfig, project, cfgPath string) protocol.Gate {
	g := protocol.Gate{Name: "Codex project trust"}
	for dir := project; ; dir = filepath.Dir(dir) {
		if e, ok := cfg.Projects[dir]; ok {
			if e.TrustLevel == "trusted" {
				g.State, g.Detail = protocol.GateOpen, fmt.Sprintf("%s is trusted in %s", dir, cfgPath)
			} else {
				g.State, g.Detail = protocol.GateClosed, fmt.Sprintf("%s has trust_level %q in %s: Codex ignores the project's .codex/hooks.json; set it to \"trusted\"", dir, e.TrustLevel, cfgPath)
			}
			return g
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	g.State = protocol.GateClosed
	g.Detail = fmt.Sprintf("%s is not trusted in %s: Codex ignores the project's .codex/hooks.json until the project is trusted", project, cfgPath)
	return g
}

func hookReview(cfg userConfig, project, cfgPath string) protocol.Gate {
	g := protocol.Gate{Name: "Codex hook review"}
	var unreviewed, disabled, problems, files []string
	n := 0
	// The project's hooks and the user's ($CODEX_HOME/hooks.json).
	for _, file := range []string{filepath.Join(project, ".codex", "hooks.json"), filepath.Join(filepath.Dir(cfgPath), "hooks.json")} {
		data, err := os.ReadFile(file)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", file, err))
			continue
		}
		var doc struct {
			Hooks map[string][]struct {
				Hooks []struct {
					Command string `json:"command"`
				} `json:"hooks"`
			} `json:"hooks"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", file, err))
			continue
		}
		files = append(files, file)
		for event, groups := range doc.Hooks {
			for gi, grp := range groups {
				for hi, h := range grp.Hooks {
					if _, ok := protocol.ParseHookctlCommand(h.Command); !ok {
						continue
					}
					n++
					key := fmt.Sprintf("%s:%s:%d:%d", file, keyLabel(event), gi, hi)
					st, ok := cfg.Hooks.State[key]
					switch {
					case ok && st.Enabled != nil && !*st.Enabled:
						disabled = append(disabled, event+" ("+file+")")
					case !ok || st.TrustedHash == "":
						unreviewed = append(unreviewed, event+" ("+file+")")
					}
				}
			}
		}
	}
	sort.Strings(unreviewed)
	sort.Strings(disabled)
	switch {
	case len(problems) > 0 && n == 0:
		g.State, g.Detail = protocol.GateUnknown, strings.Join(problems, "; ")
	case n == 0:
		g.State, g.Detail = protocol.GateUnknown, "no Codex hooks.json (the project's or the user's) registers a hookctl hook"
	case len(disabled) > 0:
		g.State, g.Detail = protocol.GateClosed, fmt.Sprintf("hookctl's hooks on %s are disabled in %s", strings.Join(disabled, ", "), cfgPath)
	case len(unreviewed) > 0:
		g.State, g.Detail = protocol.GateClosed, fmt.Sprintf("hookctl's hooks on %s were never reviewed: Codex skips them; review them with /hooks in Codex, or run codex with --dangerously-bypass-hook-trust", strings.Join(unreviewed, ", "))
	default:
		g.State, g.Detail = protocol.GateOpen, fmt.Sprintf("every hookctl hook in %s has a trusted hash in %s (Codex skips one changed since its review: after an install, review again)", strings.Join(files, ", "), cfgPath)
	}
	return g
}
