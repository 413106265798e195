package assemble

import (
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/llm"
)

// firstEvent is the spec of the first event a hook runs on.
func firstEvent(b *hcl.Body) engine.EventSpec {
	if evs := b.Events(); len(evs) > 0 {
		return evs[0]
	}
	return engine.EventSpec{}
}

// promptHandler builds a handler that asks a model for the decision.
func promptHandler(hb *hcl.HookBlock, x *Build) engine.Handler {
	b := hb.Body
	if !b.Decode(hcl.Schema{Required: []string{"text"}, Optional: []string{
		"provider", "model", "base_url", "api_key_env", "max_tokens", "system", "continue_on_block"}}) {
		return nil
	}
	var spec llm.PromptSpec
	var pc llm.ProviderConfig
	spec.Text, _ = b.Str("text")
	pc.Kind, _ = b.Str("provider")
	pc.Model, _ = b.Str("model")
	pc.BaseURL, _ = b.Str("base_url")
	if b.Has("api_key_env") {
		env, _ := b.Str("api_key_env")
		if key, ok := b.Getenv(env); ok {
			pc.APIKey = key
		} else {
			b.Warnf("api_key_env", "API key not set", "Environment variable %s is not set; the provider will be called without a key.", env)
		}
	}
	pc.MaxTokens, _ = b.Int("max_tokens")
	spec.System, _ = b.Str("system")
	spec.ContinueOnBlock, _ = b.Bool("continue_on_block")
	spec.Event = firstEvent(b)
	switch {
	case pc.Kind != "" || pc.BaseURL != "":
		p, err := llm.NewHTTPProvider(pc)
		if err != nil {
			b.Errorf("", "Invalid prompt provider", "%s.", err)
			return nil
		}
		spec.Provider = p
	case x.opts.Provider != nil:
		spec.Provider = x.opts.Provider
		spec.Model = pc.Model
	default:
		b.Errorf("", "No prompt provider",
			"A prompt handler needs a provider: set provider = \"anthropic\" or \"openai\" (with model, base_url, api_key_env), or embed hookctl and pass one from Go.")
		return nil
	}
	h, err := llm.NewPrompt(spec)
	if err != nil {
		b.Errorf("", "Invalid prompt handler", "%s.", err)
		return nil
	}
	return h
}

// agentHandler builds a handler that runs an agent the embedding program
// supplies.
func agentHandler(hb *hcl.HookBlock, x *Build) engine.Handler {
	b := hb.Body
	if !b.Decode(hcl.Schema{Required: []string{"prompt"}, Optional: []string{"model", "max_turns", "tools"}}) {
		return nil
	}
	if x.opts.AgentRunner == nil {
		b.Errorf("", "No agent runner",
			"agent handlers run an agent the embedding program supplies (assemble.WithAgentRunner); the hookctl command has none. Use a prompt { } handler instead.")
		return nil
	}
	spec := llm.AgentSpec{Runner: x.opts.AgentRunner, Event: firstEvent(b)}
	spec.Prompt, _ = b.Str("prompt")
	spec.Model, _ = b.Str("model")
	spec.MaxTurns, _ = b.Int("max_turns")
	spec.Tools, _ = b.Strings("tools")
	h, err := llm.NewAgent(spec)
	if err != nil {
		b.Errorf("", "Invalid agent handler", "%s.", err)
		return nil
	}
	return h
}
