package assemble

import (
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
)

// Factory builds the handler of one hook block of its kind. It reads the
// kind-specific attributes through the block's Body and reports every
// problem there (Body.Errorf), returning nil when the handler cannot be
// built. Factories run one at a time, during a load.
type Factory func(hb *hcl.HookBlock, x *Build) engine.Handler

// DefaultKinds returns the factories of the handler kinds hookctl ships,
// each in a file of its own: js, ts and script (JavaScript and TypeScript
// in goja), command and http (packages handler/command and handler/http,
// speaking the protocol a command hook's protocol attribute names), prompt
// and agent (a model decides).
// The map is new at every call; change it freely.
func DefaultKinds() map[string]Factory {
	return map[string]Factory{
		"js":      inlineJS,
		"ts":      inlineTS,
		"script":  scriptFile,
		"command": commandHandler,
		"http":    httpHandler,
		"prompt":  promptHandler,
		"agent":   agentHandler,
	}
}
