package replay_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/replay"
)

// What would a rule against force pushes have done in a recorded session?
func Example() {
	transcript := `{"type":"user","sessionId":"s1","cwd":"/home/dev/app","message":{"role":"user","content":"ship it"}}
{"type":"assistant","sessionId":"s1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"git push --force origin main"}}],"stop_reason":"tool_use"}}
{"type":"user","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"+ 1a2b3c...4d5e6f main -> main (forced update)","is_error":false}]}}
{"type":"assistant","sessionId":"s1","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Pushed."}],"stop_reason":"end_turn"}}
`
	eng, err := engine.New()
	if err != nil {
		panic(err)
	}
	defer eng.Close(context.Background())
	err = eng.Register(engine.Hook{
		ID: "no-force-push", Event: "PreToolUse", Matcher: "Bash",
		When:    "tool_input.command contains 'push --force'",
		Handler: engine.Static(engine.Deny("force pushes rewrite shared history")),
	})
	if err != nil {
		panic(err)
	}
	r := replay.NewReader(strings.NewReader(transcript), replay.WithPath("/home/dev/.claude/projects/-home-dev-app/s1.jsonl"))
	rep, err := replay.Run(context.Background(), r, replay.Config{Name: "hooks.hcl", Engine: eng})
	if err != nil {
		panic(err)
	}
	for _, rec := range rep.Records {
		v := rec.Verdicts[0]
		fmt.Printf("line %d %s (%s): %s", rec.Line, rec.Event, rec.Input, v.Action)
		if v.Action != replay.ActionNone {
			fmt.Printf(" by %s: %s", strings.Join(v.Hooks, ", "), v.Reason)
		}
		fmt.Println()
	}
	fmt.Println()
	rep.WriteSummary(os.Stdout, 0)
	// Output:
	// line 1 SessionStart (startup): none
	// line 1 UserPromptSubmit (ship it): none
	// line 2 PreToolUse (git push --force origin main): deny by no-force-push: force pushes rewrite shared history
	// line 3 PostToolUse (git push --force origin main): none
	// line 4 Stop (Pushed.): none
	//
	// transcript: s1.jsonl, 4 line(s), 1 session(s), 1 prompt(s), 1 tool call(s) (1 ran)
	// events fired: SessionStart 1, UserPromptSubmit 1, PreToolUse 1, PostToolUse 1, Stop 1
	// outcomes: 1 blocked, 0 asked, 0 rewritten, 0 with context, 0 allowed, 0 hook error(s)
	// denied here, ran in the session: 1 call(s)
}
