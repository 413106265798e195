package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookctl/hookctl/protocol"
)

// Gates reads Claude Code's disableAllHooks switch from the settings
// files a session loads, by Claude Code's precedence for a scalar key
// (claude-code-hooks.md, "Precedence and merging"): the project's
// .claude/settings.local.json, then its .claude/settings.json, then the
// user's ~/.claude/settings.json (the home is getenv's HOME, else this
// process's); the first file that sets it decides. true turns off every
// hook of those files: the gate is closed. Managed policy settings and a
// session's --settings are not read (hookctl cannot see them).
func (p *Protocol) Gates(projectDir string, getenv func(string) string) []protocol.Gate {
	g := protocol.Gate{Name: "Claude Code disableAllHooks"}
	home := ""
	if getenv != nil {
		home = getenv("HOME")
	}
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	files := []string{
		filepath.Join(projectDir, ".claude", "settings.local.json"),
		filepath.Join(projectDir, ".claude", "settings.json"),
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".claude", "settings.json"))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			g.State, g.Detail = protocol.GateUnknown, fmt.Sprintf("%s could not be read: %v", f, err)
			return []protocol.Gate{g}
		}
		var s struct {
			DisableAllHooks *bool `json:"disableAllHooks"`
		}
		if err := json.Unmarshal(data, &s); err != nil {
			g.State, g.Detail = protocol.GateUnknown, fmt.Sprintf("%s could not be read: %v", f, err)
			return []protocol.Gate{g}
		}
		if s.DisableAllHooks == nil {
			continue
		}
		if *s.DisableAllHooks {
			g.State, g.Detail = protocol.GateClosed, fmt.Sprintf("%s sets \"disableAllHooks\": true: Claude Code runs none of these hooks; remove it", f)
		} else {
			g.State, g.Detail = protocol.GateOpen, fmt.Sprintf("%s sets \"disableAllHooks\": false", f)
		}
		return []protocol.Gate{g}
	}
	g.State, g.Detail = protocol.GateOpen, "no settings file sets \"disableAllHooks\""
	return []protocol.Gate{g}
}
