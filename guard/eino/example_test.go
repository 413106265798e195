package eino_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/guard"
	hookeino "github.com/hookctl/hookctl/guard/eino"
)

// bashTool is the agent's shell tool (it only echoes what it would run).
type bashTool struct{}

func (bashTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "bash", Desc: "run a shell command", ParamsOneOf: schema.NewParamsOneOfByParams(
		map[string]*schema.ParameterInfo{"command": {Type: schema.String, Required: true}})}, nil
}

func (bashTool) InvokableRun(_ context.Context, args string, _ ...tool.Option) (string, error) {
	var in struct{ Command string }
	if err := json.Unmarshal([]byte(args), &in); err != nil {
		return "", err
	}
	return "ran: " + in.Command, nil
}

const hooks = `
hook "no-rm-rf" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command contains \"rm -rf\""
  decision = "deny"
  reason   = "rm -rf is not allowed by policy"
}
hook "pip-to-uv" {
  event   = "PreToolUse"
  matcher = "Bash"
  when    = "tool_input.command startsWith \"pip install\""
  js      = "return { updated_input: { command: 'uv ' + event.tool_input.command } }"
}
`

// An eino agent loop whose ToolsNode runs the hooks of a hooks.hcl: the
// model's rm -rf is answered with the policy's reason, its pip install runs
// as uv pip install, echo runs as asked.
func Example() {
	ctx := context.Background()
	cfg, err := assemble.LoadSource("hooks.hcl", []byte(hooks), ".")
	if err != nil {
		log.Fatal(err)
	}
	defer cfg.Close()
	eng, err := assemble.NewEngine()
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	if err := eng.Load(cfg.Engine); err != nil {
		log.Fatal(err)
	}

	tools, err := compose.NewToolNode(ctx, &compose.ToolsNodeConfig{
		Tools:               []tool.BaseTool{bashTool{}},
		ToolCallMiddlewares: []compose.ToolMiddleware{hookeino.Middleware(guard.New(eng))},
	})
	if err != nil {
		log.Fatal(err)
	}

	// The model's turns, scripted: one tool call each.
	for i, command := range []string{"rm -rf /home/dev/project", "pip install requests", "echo done"} {
		args, _ := json.Marshal(map[string]string{"command": command})
		call := schema.AssistantMessage("", []schema.ToolCall{{ID: fmt.Sprint("call_", i), Type: "function",
			Function: schema.FunctionCall{Name: "bash", Arguments: string(args)}}})
		results, err := tools.Invoke(ctx, call)
		if err != nil {
			log.Fatal(err)
		}
		for _, r := range results {
			fmt.Println(r.Content)
		}
	}
	// Output:
	// Tool call blocked by hook. Reason: rm -rf is not allowed by policy
	// ran: uv pip install requests
	// ran: echo done
}
