package claude

// A host's reply to one hook event is described by data: for every event
// a Shape saying where the decision goes, which result fields the event
// accepts under which names, and what blocks through the exit status.
// Format interprets the table; another host is another table.

// Channel is where an event's decision goes in the reply.
type Channel uint8

const (
	// NoDecision: the event takes no decision in the reply.
	NoDecision Channel = iota
	// PermissionDecision: hookSpecificOutput.permissionDecision and
	// permissionDecisionReason (PreToolUse).
	PermissionDecision
	// BehaviorObject: hookSpecificOutput.decision = {behavior,
	// updatedInput, message, interrupt, updatedPermissions}
	// (PermissionRequest).
	BehaviorObject
	// TopLevelBlock: a block is top-level decision "block" and reason
	// (Stop, UserPromptSubmit, PostToolUse, ...); other decisions are not
	// expressed.
	TopLevelBlock
	// ExitStatus: a block is the exit status BlockExit with the reason on
	// stderr, and nothing on stdout (TaskCompleted, WorktreeCreate).
	ExitStatus
)

// When says which values of a result field are passed on.
type When uint8

const (
	// AnyValue passes any value but nil.
	AnyValue When = iota
	// NonEmpty passes a string that is not empty.
	NonEmpty
	// True passes the bool true.
	True
	// Present passes any value that is set, null included.
	Present
)

// Field is a result field an event passes on in hookSpecificOutput.
type Field struct {
	// Result is the field's name in the outcome (snake_case); Host its
	// name in the reply.
	Result, Host string
	When         When
}

// Shape is the reply of one event.
type Shape struct {
	Decision Channel
	// BlockExit is the exit status of a block on the ExitStatus channel.
	BlockExit int
	// UpdatedInput is set when the event accepts a rewritten tool input
	// beside its decision.
	UpdatedInput bool
	// Context is set when the event accepts additionalContext.
	Context bool
	// Fields are the event's own fields, passed on as they are.
	Fields []Field
	// Stdout names a result field that, when set and nothing blocks, is
	// the whole reply, printed raw (WorktreeCreate's worktree path).
	Stdout string
}

// Dialect is a host's reply format: a Shape per event, by canonical name.
// Events it does not list get the universal fields only (continue,
// stopReason, systemMessage, suppressOutput).
type Dialect struct {
	Name   string
	Events map[string]Shape
}

// BlocksByExitStatus reports whether Claude Code reads a block of the
// event only from a command hook's exit status (TaskCompleted,
// TeammateIdle, WorktreeCreate): an http hook's reply cannot carry it,
// only continue:false, which stops the agent.
func BlocksByExitStatus(event string) bool { return claudeCode.shape(event).Decision == ExitStatus }

// shape returns the event's shape (the zero Shape when not listed).
func (d *Dialect) shape(event string) Shape { return d.Events[event] }

// claudeCode is Claude Code's dialect (claude-code-hooks.md §3).
var claudeCode = Dialect{Name: "claude-code", Events: func() map[string]Shape {
	block := Shape{Decision: TopLevelBlock}
	blockCtx := Shape{Decision: TopLevelBlock, Context: true}
	ctx := Shape{Context: true}
	watch := []Field{{Result: "watch_paths", Host: "watchPaths"}}
	terminal := []Field{{Result: "terminal_sequence", Host: "terminalSequence"}}
	return map[string]Shape{
		"PreToolUse":        {Decision: PermissionDecision, UpdatedInput: true, Context: true},
		"PreModelSwitch":    {Decision: PermissionDecision},
		"PermissionRequest": {Decision: BehaviorObject, UpdatedInput: true},
		"UserPromptSubmit": {Decision: TopLevelBlock, Context: true, Fields: []Field{
			{Result: "session_title", Host: "sessionTitle"},
			{Result: "suppress_original_prompt", Host: "suppressOriginalPrompt"},
		}},
		"UserPromptExpansion": blockCtx,
		"PostToolUse": {Decision: TopLevelBlock, Context: true, Fields: []Field{
			{Result: "updated_output", Host: "updatedToolOutput"},
			{Result: "classifier_context", Host: "classifierContext"},
		}},
		"PostToolUseFailure": blockCtx,
		"PostToolBatch":      blockCtx,
		"Stop":               blockCtx,
		"SubagentStop":       blockCtx,
		"ConfigChange":       block,
		"PreCompact":         block,
		"TaskCreated":        block,
		"TaskCompleted":      {Decision: ExitStatus, BlockExit: 2},
		"TeammateIdle":       {Decision: ExitStatus, BlockExit: 2},
		"WorktreeCreate":     {Decision: ExitStatus, BlockExit: 1, Stdout: "worktree_path"},
		"SessionStart": {Context: true, Fields: append([]Field{
			{Result: "initial_user_message", Host: "initialUserMessage"},
			{Result: "session_title", Host: "sessionTitle"},
			{Result: "reload_skills", Host: "reloadSkills"},
		}, watch...)},
		"Setup":           ctx,
		"SubagentStart":   ctx,
		"PostModelSwitch": ctx,
		"CwdChanged":      {Fields: watch},
		"FileChanged":     {Fields: watch},
		"Notification":    {Fields: terminal},
		"StopFailure":     {Fields: terminal},
		"Elicitation": {Fields: []Field{
			{Result: "action", Host: "action", When: NonEmpty}, {Result: "content", Host: "content", When: Present},
		}},
		"ElicitationResult": {Fields: []Field{
			{Result: "action", Host: "action", When: NonEmpty}, {Result: "content", Host: "content", When: Present},
		}},
		"MessageDisplay":   {Fields: []Field{{Result: "display_content", Host: "displayContent", When: NonEmpty}}},
		"PermissionDenied": {Fields: []Field{{Result: "retry", Host: "retry", When: True}}},
	}
}()}

// passes reports whether a field's value is passed on.
func (f Field) passes(v any, ok bool) bool {
	if f.When == Present {
		return ok
	}
	if !ok || v == nil {
		return false
	}
	switch f.When {
	case NonEmpty:
		s, isStr := v.(string)
		return isStr && s != ""
	case True:
		b, isBool := v.(bool)
		return isBool && b
	}
	return true
}
