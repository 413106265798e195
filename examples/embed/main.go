// Command embed is a toy agent loop that embeds the hookctl engine the way
// a Go orchestrator would: it loads examples/hooks.hcl, fires PreToolUse
// before each tool call (and obeys deny and rewrites), PostToolUse after
// it, and Stop when the agent wants to finish (and keeps working while a
// hook blocks).
//
//	go run ./examples/embed
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
)

// step is one thing the toy model wants to do.
type step struct {
	tool    string
	command string
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		log.Fatal(err)
	}
}

func run(args []string) error {
	config := filepath.Join(examplesDir(), "hooks.hcl")
	if len(args) > 0 {
		config = args[0]
	}
	ctx := context.Background()
	// The engine with hookctl's standard condition functions.
	eng, err := assemble.NewEngine(engine.WithMaxConcurrency(4))
	if err != nil {
		return err
	}
	defer eng.Close(ctx)
	// Assembled for eng: its condition functions work in `when`, its
	// logger receives ctx.log, and its checks run before Load.
	cfg, err := assemble.Load(config, assemble.WithEngine(eng), assemble.WithProjectDir(os.TempDir()))
	if err != nil {
		return err // *hcl.Diagnostics: every problem with file:line:column
	}
	defer cfg.Close()
	if err := eng.Load(cfg.Engine); err != nil {
		return err
	}

	// Hot paths resolve event names once.
	preTool, _ := eng.Resolve("PreToolUse")
	postTool, _ := eng.Resolve("PostToolUse")
	stop, _ := eng.Resolve("Stop")

	session := map[string]any{"session_id": "toy-session", "cwd": os.TempDir()}
	plan := []step{
		{"Bash", "pip install requests"},
		{"Bash", "rm -rf ~"},
		{"Bash", "ls"},
	}
	for _, s := range plan {
		input := map[string]any{"command": s.command}
		out, err := eng.Fire(ctx, engine.Event{ID: preTool, Payload: with(session, map[string]any{
			"hook_event_name": "PreToolUse", "tool_name": s.tool, "tool_input": input,
		})})
		if err != nil {
			return err
		}
		if out.Blocked {
			fmt.Printf("tool %s %q: blocked (%s)\n", s.tool, s.command, out.Reason)
			continue
		}
		if out.UpdatedInput != nil {
			input = out.UpdatedInput
		}
		fmt.Printf("tool %s %q: runs as %q\n", s.tool, s.command, input["command"])
		if _, err := eng.Fire(ctx, engine.Event{ID: postTool, Payload: with(session, map[string]any{
			"hook_event_name": "PostToolUse", "tool_name": s.tool, "tool_input": input,
			"tool_response": map[string]any{"stdout": "ok"},
		})}); err != nil {
			return err
		}
	}

	// The agent wants to stop; a Stop hook may send it back to work.
	messages := []string{"All done.", "Still done.", "I ran the tests: they pass."}
	for i, msg := range messages {
		out, err := eng.Fire(ctx, engine.Event{ID: stop, Payload: with(session, map[string]any{
			"hook_event_name": "Stop", "last_assistant_message": msg,
		})})
		if err != nil {
			return err
		}
		if out.Decision == "block" {
			fmt.Printf("stop %d: keep working: %s\n", i+1, out.Reason)
			continue
		}
		fmt.Printf("stop %d: the agent stops\n", i+1)
		break
	}
	return nil
}

func with(base, extra map[string]any) map[string]any {
	m := make(map[string]any, len(base)+len(extra))
	for k, v := range base {
		m[k] = v
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// examplesDir finds examples/ next to this file.
func examplesDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "examples"
	}
	return strings.TrimSuffix(filepath.Dir(file), string(filepath.Separator)+"embed")
}
