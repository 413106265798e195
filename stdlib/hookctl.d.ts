// Type declarations for hookctl hook scripts: the event payloads, the ctx
// argument, handler results and the standard library. Reference it from a
// script with:
//
//   /// <reference path="path/to/hookctl.d.ts" />
//
// or add it to "files" in a jsconfig.json / tsconfig.json next to the
// scripts, and editors autocomplete `event.`, `ctx.`, import ... from
// "hookctl/..." and require("hookctl/..."). A handler typed for its event:
//
//   export default ((event, ctx) => {
//     if (event.tool_input.command?.startsWith("rm ")) return { decision: "deny", reason: "no rm" };
//   }) satisfies Handler<"PreToolUse">;
//
// Hooks run in goja, not in a browser or Node.js: set "lib": ["es2020"]
// (no "dom") in the tsconfig.json. `hookctl types` prints this file.

// ---------------------------------------------------------------------------
// Events

// HookEventBase, ToolInput and the per-tool inputs (BashInput, ...) are in
// the generated section below (package schema).

// <generated: events> (go generate ./stdlib; do not edit by hand)
// ---------------------------------------------------------------------------
// Events: one payload and one result interface per event of the catalog,
// the payloads' fields and the tools' inputs from package schema.

/** Fields Claude Code sends with every event (hosts add more). */
interface HookEventBase {
  /** The canonical tool name on tool events (Bash, Edit, ...), whatever the host called it. */
  tool?: string;
  session_id: string;
  transcript_path?: string;
  cwd: string;
  hook_event_name: string;
  prompt_id?: string;
  permission_mode?: "default" | "plan" | "acceptEdits" | "auto" | "dontAsk" | "bypassPermissions";
  effort?: { level: "low" | "medium" | "high" | "xhigh" | "max" };
  agent_id?: string;
  agent_type?: string;
  [field: string]: unknown;
}

/** What tool_input holds, whatever the tool: every known tool's members (see ToolInputs). */
interface ToolInput {
  "-A"?: number;
  "-B"?: number;
  "-C"?: number;
  "-i"?: boolean;
  "-n"?: boolean;
  absolute_path?: string;
  additional_permissions?: unknown;
  after?: number;
  allow_multiple?: boolean;
  allowed_domains?: string[];
  async?: boolean;
  before?: number;
  blocked_domains?: string[];
  case_sensitive?: boolean;
  cell_id?: string;
  cell_type?: "code" | "markdown";
  cmd?: unknown;
  code_edit?: string;
  command?: string;
  content?: string;
  context?: number;
  dangerouslyDisableSandbox?: boolean;
  delay_ms?: number;
  description?: string;
  dir_path?: string;
  directory?: string;
  edit_mode?: "replace" | "insert" | "delete";
  edits?: Array<{ old_string: string; new_string: string; replace_all?: boolean }>;
  end_line?: number;
  end_line_one_indexed_inclusive?: number;
  exclude?: unknown;
  exclude_pattern?: string;
  expected_replacements?: number;
  explanation?: string;
  file_filtering_options?: unknown;
  file_path?: string;
  file_text?: string;
  fixed_strings?: boolean;
  format?: string;
  glob?: string;
  head_limit?: number;
  ignore?: unknown;
  include?: unknown;
  include_pattern?: string;
  initial_wait?: unknown;
  input?: string;
  instruction?: string;
  instructions?: string;
  is_background?: boolean;
  isolation?: string;
  justification?: string;
  limit?: number;
  literal_text?: boolean;
  login?: boolean;
  max_matches_per_file?: number;
  max_output_tokens?: number;
  mode?: string;
  model?: string;
  multiline?: boolean;
  name?: string;
  names_only?: boolean;
  new_source?: string;
  new_str?: string;
  new_string?: string;
  no_ignore?: boolean;
  notebook_path?: string;
  offset?: number;
  old_str?: string;
  old_string?: string;
  output_mode?: string;
  pages?: string;
  path?: string;
  paths?: string[];
  pattern?: string;
  prefix_rule?: unknown;
  prompt?: string;
  query?: string;
  recursive?: boolean;
  replace_all?: boolean;
  respect_gemini_ignore?: boolean;
  respect_git_ignore?: boolean;
  run_in_background?: boolean;
  sandbox_permissions?: string;
  sessionId?: string;
  shell?: string;
  should_read_entire_file?: boolean;
  start_line?: number;
  start_line_one_indexed?: number;
  subagent_type?: string;
  target_directories?: unknown;
  target_file?: string;
  team_name?: string;
  timeout?: number;
  timeout_ms?: number;
  todos?: Array<{ content: string; status: "pending" | "in_progress" | "completed"; activeForm?: string; id?: string; priority?: string }>;
  total_max_matches?: number;
  tty?: boolean;
  type?: string;
  url?: string;
  useDefaultExcludes?: boolean;
  view_range?: unknown;
  with_escalated_permissions?: boolean;
  workdir?: unknown;
  yield_time_ms?: number;
  [field: string]: unknown;
}

/** Agent's tool_input. */
interface AgentInput {
  /** A short description of the task. */
  description: string;
  /** The task. */
  prompt: string;
  /** The kind of agent. */
  subagent_type?: string;
  model?: string;
  run_in_background?: boolean;
  name?: string;
  team_name?: string;
  mode?: string;
  isolation?: string;
  [field: string]: unknown;
}

/** Bash's tool_input. */
interface BashInput {
  /** The shell command line. */
  command: string;
  /** What the command does, in a few words. */
  description?: string;
  /** Milliseconds. */
  timeout?: number;
  run_in_background?: boolean;
  dangerouslyDisableSandbox?: boolean;
  /** Gemini CLI (before dir_path): the directory to run in. */
  directory?: string;
  /** Gemini CLI run_shell_command: the directory to run in. */
  dir_path?: string;
  /** Gemini CLI run_shell_command. */
  delay_ms?: number;
  /** Gemini CLI run_shell_command, Codex exec_command and shell_command: the extra sandbox access asked for. */
  additional_permissions?: unknown;
  /** Codex: the directory to run in. */
  workdir?: unknown;
  /** Codex. */
  timeout_ms?: number;
  /** Codex exec_command: the command. */
  cmd?: unknown;
  /** Codex exec_command. */
  tty?: boolean;
  /** Codex exec_command. */
  yield_time_ms?: number;
  /** Codex exec_command. */
  max_output_tokens?: number;
  /** Codex exec_command: the shell binary. */
  shell?: string;
  /** Codex exec_command and shell_command. */
  login?: boolean;
  /** Codex: use_default, require_escalated or with_additional_permissions. */
  sandbox_permissions?: string;
  /** Codex: the command prefix an approval would cover. */
  prefix_rule?: unknown;
  /** Codex. */
  with_escalated_permissions?: boolean;
  /** Codex. */
  justification?: string;
  /** Gemini CLI run_shell_command, Cursor. */
  is_background?: boolean;
  /** Cursor. */
  explanation?: string;
  /** Copilot CLI. */
  async?: boolean;
  /** Copilot CLI. */
  sessionId?: string;
  /** Copilot CLI. */
  mode?: string;
  /** Copilot CLI. */
  initial_wait?: unknown;
}

/** Edit's tool_input. */
interface EditInput {
  /** The absolute path of the file. */
  file_path: string;
  /** The text to replace. */
  old_string: string;
  /** Its replacement. */
  new_string: string;
  /** Replace every occurrence. */
  replace_all?: boolean;
  /** MultiEdit (and crush's multiedit): the replacements. */
  edits?: Array<{ old_string: string; new_string: string; replace_all?: boolean }>;
  /** Codex apply_patch: the patch text. */
  command?: string;
  /** Codex apply_patch. */
  input?: string;
  /** Copilot CLI str_replace. */
  path?: string;
  /** Copilot CLI. */
  old_str?: string;
  /** Copilot CLI. */
  new_str?: string;
  /** Gemini CLI replace. */
  expected_replacements?: number;
  /** Gemini CLI replace. */
  instruction?: string;
  /** Gemini CLI replace. */
  allow_multiple?: boolean;
  /** Cursor edit_file. */
  target_file?: string;
  /** Cursor edit_file. */
  instructions?: string;
  /** Cursor edit_file. */
  code_edit?: string;
}

/** Glob's tool_input. */
interface GlobInput {
  /** The glob pattern. */
  pattern: string;
  /** The directory to search. */
  path?: string;
  /** Gemini CLI. */
  case_sensitive?: boolean;
  /** Gemini CLI. */
  respect_git_ignore?: boolean;
  /** Gemini CLI glob: the directory to search. */
  dir_path?: string;
  /** Gemini CLI. */
  respect_gemini_ignore?: boolean;
  /** Cursor file_search. */
  query?: string;
  /** Cursor. */
  explanation?: string;
}

/** Grep's tool_input. */
interface GrepInput {
  /** The regular expression. */
  pattern: string;
  /** The file or directory to search. */
  path?: string;
  /** Files to search. */
  glob?: string;
  /** "content", "files_with_matches" or "count". */
  output_mode?: string;
  "-A"?: number;
  "-B"?: number;
  "-C"?: number;
  context?: number;
  "-n"?: boolean;
  "-i"?: boolean;
  /** File type. */
  type?: string;
  head_limit?: number;
  offset?: number;
  multiline?: boolean;
  /** Gemini CLI, crush. */
  include?: string;
  /** crush. */
  literal_text?: boolean;
  /** Gemini CLI grep_search: the directory to search. */
  dir_path?: string;
  /** Gemini CLI. */
  names_only?: boolean;
  /** Gemini CLI. */
  max_matches_per_file?: number;
  /** Gemini CLI. */
  total_max_matches?: number;
  /** Gemini CLI. */
  fixed_strings?: boolean;
  /** Gemini CLI. */
  after?: number;
  /** Gemini CLI. */
  before?: number;
  /** Gemini CLI. */
  no_ignore?: boolean;
  /** Cursor. */
  query?: string;
  /** Cursor. */
  include_pattern?: string;
  /** Cursor. */
  exclude_pattern?: string;
  /** Cursor. */
  case_sensitive?: boolean;
  /** Cursor codebase_search. */
  target_directories?: unknown;
  /** Cursor. */
  explanation?: string;
}

/** LS's tool_input. */
interface LSInput {
  /** The directory. */
  path: string;
  /** Globs to leave out. */
  ignore?: unknown;
  /** Gemini CLI list_directory: the directory. */
  dir_path?: string;
  /** Gemini CLI list_directory. */
  file_filtering_options?: unknown;
  [field: string]: unknown;
}

/** MultiEdit's tool_input. */
interface MultiEditInput {
  /** The absolute path of the file. */
  file_path: string;
  /** The replacements, applied in order. */
  edits: Array<{ old_string: string; new_string: string; replace_all?: boolean }>;
}

/** NotebookEdit's tool_input. */
interface NotebookEditInput {
  /** The absolute path of the notebook. */
  notebook_path: string;
  /** The cell's new source. */
  new_source: string;
  cell_id?: string;
  cell_type?: "code" | "markdown";
  edit_mode?: "replace" | "insert" | "delete";
}

/** PowerShell's tool_input. */
interface PowerShellInput {
  /** The PowerShell command line. */
  command: string;
  description?: string;
  /** Milliseconds. */
  timeout?: number;
  run_in_background?: boolean;
  [field: string]: unknown;
}

/** Read's tool_input. */
interface ReadInput {
  /** The absolute path of the file. */
  file_path: string;
  /** The first line to read. */
  offset?: number;
  /** How many lines. */
  limit?: number;
  /** PDF pages. */
  pages?: string;
  /** Gemini CLI read_file. */
  absolute_path?: string;
  /** Copilot CLI view. */
  path?: string;
  /** Gemini CLI read_many_files. */
  paths?: string[];
  /** Gemini CLI read_many_files. */
  include?: unknown;
  /** Gemini CLI read_many_files. */
  exclude?: unknown;
  /** Gemini CLI read_file. */
  start_line?: number;
  /** Gemini CLI read_file. */
  end_line?: number;
  /** Gemini CLI read_many_files. */
  recursive?: boolean;
  /** Gemini CLI read_many_files. */
  useDefaultExcludes?: boolean;
  /** Gemini CLI read_many_files. */
  file_filtering_options?: unknown;
  /** Copilot CLI view. */
  view_range?: unknown;
  /** Cursor read_file. */
  target_file?: string;
  /** Cursor. */
  should_read_entire_file?: boolean;
  /** Cursor. */
  start_line_one_indexed?: number;
  /** Cursor. */
  end_line_one_indexed_inclusive?: number;
}

/** TodoWrite's tool_input. */
interface TodoWriteInput {
  todos: Array<{ content: string; status: "pending" | "in_progress" | "completed"; activeForm?: string; id?: string; priority?: string }>;
}

/** WebFetch's tool_input. */
interface WebFetchInput {
  /** The URL. */
  url: string;
  /** What to extract from the page. */
  prompt?: string;
  /** crush fetch. */
  format?: string;
  /** crush fetch. */
  timeout?: number;
  /** crush download. */
  file_path?: string;
}

/** WebSearch's tool_input. */
interface WebSearchInput {
  /** The search query. */
  query: string;
  allowed_domains?: string[];
  blocked_domains?: string[];
}

/** Write's tool_input. */
interface WriteInput {
  /** The absolute path of the file. */
  file_path: string;
  /** The whole new content. */
  content: string;
  /** Copilot CLI create. */
  path?: string;
  /** Copilot CLI create. */
  file_text?: string;
  /** Codex apply_patch (matched as Write too): the patch text. */
  command?: string;
  /** Codex apply_patch (matched as Write too): the patch text. */
  input?: string;
}

/** Each known tool's tool_input, by its Claude Code name (other hosts' names map onto these). */
interface ToolInputs {
  Agent: AgentInput;
  Bash: BashInput;
  Edit: EditInput;
  Glob: GlobInput;
  Grep: GrepInput;
  LS: LSInput;
  MultiEdit: MultiEditInput;
  NotebookEdit: NotebookEditInput;
  PowerShell: PowerShellInput;
  Read: ReadInput;
  TodoWrite: TodoWriteInput;
  WebFetch: WebFetchInput;
  WebSearch: WebSearchInput;
  Write: WriteInput;
}

/** SessionStart: a session starts, resumes, is cleared, compacted or forked (claude-code, modifying). Matchers test source. Also fired as session_start, session.start, session:start, sessionStart. */
interface SessionStartEvent extends HookEventBase {
  hook_event_name: "SessionStart";
  source: "startup" | "resume" | "clear" | "compact" | "fork";
  model?: string;
  session_title?: string;
  /** On resume and fork. */
  seconds_since_last_response?: number;
  /** On resume and fork. */
  context_tokens?: number;
  /** On resume and fork. */
  prompt_cache_likely_expired?: boolean;
  /** On resume and fork. */
  estimated_cache_write_usd?: number;
}
/** What a SessionStart handler returns: the event takes no decision. */
interface SessionStartResult extends HookResult {
  /** Merged: first. */
  initial_user_message?: string;
  /** Merged: sticky. */
  reload_skills?: boolean;
  /** Merged: first. */
  session_title?: string;
  /** Merged: union. */
  watch_paths?: string[];
}

/** Setup: repository setup (--init-only, --init, --maintenance) (claude-code, modifying). Matchers test trigger. */
interface SetupEvent extends HookEventBase {
  hook_event_name: "Setup";
  trigger: "init" | "maintenance";
}
/** What a Setup handler returns: the event takes no decision. */
interface SetupResult extends HookResult {
}

/** InstructionsLoaded: a CLAUDE.md or rules file is loaded (claude-code, void). Matchers test load_reason. */
interface InstructionsLoadedEvent extends HookEventBase {
  hook_event_name: "InstructionsLoaded";
  file_path: string;
  memory_type: "User" | "Project" | "Local" | "Managed" | string;
  load_reason: "session_start" | "nested_traversal" | "path_glob_match" | "include" | "compact" | string;
  globs?: string[];
  trigger_file_path?: string;
  parent_file_path?: string;
}
/** What a InstructionsLoaded handler returns: the event takes no decision. */
interface InstructionsLoadedResult extends HookResult {
}

/** UserPromptSubmit: a prompt is submitted, before the model sees it (claude-code, modifying). Also fired as turn:pre, BeforeAgent, beforeSubmitPrompt, userPromptSubmitted. */
interface UserPromptSubmitEvent extends HookEventBase {
  hook_event_name: "UserPromptSubmit";
  prompt: string;
  session_title?: string;
}
/** What a UserPromptSubmit handler returns; decisions, most restrictive first: block. */
interface UserPromptSubmitResult extends HookResult {
  decision?: "block";
  /** Merged: chain, the next hook sees it as event.prompt. */
  prompt?: string;
  /** Merged: first. */
  session_title?: string;
  /** Merged: sticky. */
  suppress_original_prompt?: boolean;
}

/** UserPromptExpansion: a /command or MCP prompt expands (claude-code, modifying). Matchers test command_name. */
interface UserPromptExpansionEvent extends HookEventBase {
  hook_event_name: "UserPromptExpansion";
  expansion_type: "slash_command" | "mcp_prompt";
  command_name: string;
  command_args: string;
  command_source: string;
  prompt: string;
}
/** What a UserPromptExpansion handler returns; decisions, most restrictive first: block. */
interface UserPromptExpansionResult extends HookResult {
  decision?: "block";
}

/** MessageDisplay: assistant text is about to be shown (display only) (claude-code, modifying). */
interface MessageDisplayEvent extends HookEventBase {
  hook_event_name: "MessageDisplay";
  turn_id: string;
  message_id: string;
  index: number;
  final: boolean;
  /** The text about to be shown. */
  delta: string;
}
/** What a MessageDisplay handler returns: the event takes no decision. */
interface MessageDisplayResult extends HookResult {
  /** Merged: chain, the next hook sees it as event.delta. */
  display_content?: string;
}

/** PreToolUse: a tool call is about to run (claude-code, modifying). Matchers test tool_name. Also fired as before_tool_call, tool.pre, tool:pre, BeforeTool, preToolUse. */
interface PreToolUseEvent extends HookEventBase {
  hook_event_name: "PreToolUse";
  /** Bash, Edit, Write, Read, Glob, Grep, Agent, WebFetch, mcp__server__tool, ... */
  tool_name: string;
  tool_input: ToolInput;
  tool_use_id: string;
  /** For MCP tools. */
  mcp_server?: { name: string; source?: string };
}
/** What a PreToolUse handler returns; decisions, most restrictive first: deny > defer > ask > allow. */
interface PreToolUseResult extends HookResult {
  decision?: "deny" | "defer" | "ask" | "allow";
  /** Merged: concat. */
  additional_context?: string;
  /** Merged: sticky, stops the chain and blocks. */
  block?: boolean;
  /** Merged: last. */
  block_reason?: string;
  /** Merged: chain, the next hook sees it as event.params. */
  params?: Record<string, unknown>;
  /** Merged: first. */
  require_approval?: unknown;
  /** Merged: chain, the next hook sees it as event.tool_input. */
  updated_input?: unknown;
}

/** PermissionRequest: a permission prompt is about to show (claude-code, modifying). Matchers test tool_name. */
interface PermissionRequestEvent extends HookEventBase {
  hook_event_name: "PermissionRequest";
  /** Bash, Edit, Write, Read, Glob, Grep, Agent, WebFetch, mcp__server__tool, ... */
  tool_name: string;
  tool_input: ToolInput;
  permission_suggestions?: unknown[];
}
/** What a PermissionRequest handler returns; decisions, most restrictive first: deny > allow. */
interface PermissionRequestResult extends HookResult {
  decision?: "deny" | "allow";
  /** Merged: sticky. */
  interrupt?: boolean;
  /** Merged: first. */
  message?: unknown;
  /** Merged: append. */
  updated_permissions?: unknown[];
}

/** PermissionDenied: the auto-mode classifier denied a tool call (claude-code, modifying). Matchers test tool_name. */
interface PermissionDeniedEvent extends HookEventBase {
  hook_event_name: "PermissionDenied";
  /** Bash, Edit, Write, Read, Glob, Grep, Agent, WebFetch, mcp__server__tool, ... */
  tool_name: string;
  tool_input: ToolInput;
  tool_use_id: string;
  reason: string;
}
/** What a PermissionDenied handler returns: the event takes no decision. */
interface PermissionDeniedResult extends HookResult {
  /** Merged: sticky. */
  retry?: boolean;
}

/** PostToolUse: a tool call succeeded (claude-code, modifying). Matchers test tool_name. Also fired as after_tool_call, tool.post, tool:post, AfterTool, postToolUse. */
interface PostToolUseEvent extends HookEventBase {
  hook_event_name: "PostToolUse";
  /** Bash, Edit, Write, Read, Glob, Grep, Agent, WebFetch, mcp__server__tool, ... */
  tool_name: string;
  tool_input: ToolInput;
  tool_response: unknown;
  tool_use_id: string;
  duration_ms?: number;
}
/** What a PostToolUse handler returns; decisions, most restrictive first: block. */
interface PostToolUseResult extends HookResult {
  decision?: "block";
  /** Merged: concat. */
  classifier_context?: string;
}

/** PostToolUseFailure: a tool call failed (claude-code, modifying). Matchers test tool_name. Also fired as tool:error, postToolUseFailure. */
interface PostToolUseFailureEvent extends HookEventBase {
  hook_event_name: "PostToolUseFailure";
  /** Bash, Edit, Write, Read, Glob, Grep, Agent, WebFetch, mcp__server__tool, ... */
  tool_name: string;
  tool_input: ToolInput;
  tool_use_id: string;
  /** The first line is "Exit code N" for shells. */
  error: string;
  is_interrupt?: boolean;
  duration_ms?: number;
}
/** What a PostToolUseFailure handler returns: the event takes no decision. */
interface PostToolUseFailureResult extends HookResult {
}

/** PostToolBatch: a batch of parallel tool calls resolved, before the next model call (claude-code, modifying). */
interface PostToolBatchEvent extends HookEventBase {
  hook_event_name: "PostToolBatch";
  tool_calls: Array<{ tool_name: string; tool_input: ToolInput; tool_use_id: string; tool_response: unknown }>;
}
/** What a PostToolBatch handler returns; decisions, most restrictive first: block. */
interface PostToolBatchResult extends HookResult {
  decision?: "block";
}

/** Notification: the agent sends a notification (claude-code, void). Matchers test notification_type. */
interface NotificationEvent extends HookEventBase {
  hook_event_name: "Notification";
  message: string;
  title?: string;
  notification_type: "permission_prompt" | "idle_prompt" | "auth_success" | "elicitation_dialog" | "agent_needs_input" | "agent_completed" | string;
}
/** What a Notification handler returns: the event takes no decision. */
interface NotificationResult extends HookResult {
}

/** SubagentStart: a subagent is spawned (claude-code, modifying). Matchers test agent_type. Also fired as subagent_spawned, subagent:start, subagentStart. */
interface SubagentStartEvent extends HookEventBase {
  hook_event_name: "SubagentStart";
  agent_id: string;
  agent_type: string;
}
/** What a SubagentStart handler returns: the event takes no decision. */
interface SubagentStartResult extends HookResult {
}

/** SubagentStop: a subagent finished its response (block = keep working) (claude-code, modifying). Matchers test agent_type. Also fired as subagent_ended, subagent:stop, subagentStop. */
interface SubagentStopEvent extends HookEventBase {
  hook_event_name: "SubagentStop";
  agent_id: string;
  agent_type: string;
  agent_transcript_path?: string;
  /** True while the agent continues because a Stop hook blocked. */
  stop_hook_active: boolean;
  /** Consecutive Stop blocks so far (hookctl's loop guard). */
  loop_count: number;
  last_assistant_message?: string;
  background_tasks?: unknown[];
  session_crons?: unknown[];
}
/** What a SubagentStop handler returns; decisions, most restrictive first: block. */
interface SubagentStopResult extends HookResult {
  decision?: "block";
}

/** TaskCreated: a task is being created (claude-code, modifying). */
interface TaskCreatedEvent extends HookEventBase {
  hook_event_name: "TaskCreated";
  task_id: string;
  task_subject: string;
  task_description?: string;
  teammate_name?: string;
  /** Deprecated. */
  team_name?: string;
}
/** What a TaskCreated handler returns; decisions, most restrictive first: block. */
interface TaskCreatedResult extends HookResult {
  decision?: "block";
}

/** TaskCompleted: a task is marked complete (claude-code, modifying). */
interface TaskCompletedEvent extends HookEventBase {
  hook_event_name: "TaskCompleted";
  task_id: string;
  task_subject: string;
  task_description?: string;
  teammate_name?: string;
  /** Deprecated. */
  team_name?: string;
}
/** What a TaskCompleted handler returns; decisions, most restrictive first: block. */
interface TaskCompletedResult extends HookResult {
  decision?: "block";
}

/** Stop: the main agent finished responding (block = keep working) (claude-code, modifying). Also fired as turn:post, AfterAgent, stop. */
interface StopEvent extends HookEventBase {
  hook_event_name: "Stop";
  /** True while the agent continues because a Stop hook blocked. */
  stop_hook_active: boolean;
  /** Consecutive Stop blocks so far (hookctl's loop guard). */
  loop_count: number;
  last_assistant_message?: string;
  background_tasks?: unknown[];
  session_crons?: unknown[];
}
/** What a Stop handler returns; decisions, most restrictive first: block. */
interface StopResult extends HookResult {
  decision?: "block";
}

/** StopFailure: a turn ended with an API error (claude-code, void). Matchers test error. Also fired as error, errorOccurred. */
interface StopFailureEvent extends HookEventBase {
  hook_event_name: "StopFailure";
  error: "rate_limit" | "overloaded" | "authentication_failed" | "billing_error" | "invalid_request" | "model_not_found" | "server_error" | "max_output_tokens" | "unknown" | string;
  error_details?: string;
  /** The API error text. */
  last_assistant_message?: string;
}
/** What a StopFailure handler returns: the event takes no decision. */
interface StopFailureResult extends HookResult {
}

/** TeammateIdle: an agent-team teammate is about to go idle (claude-code, modifying). */
interface TeammateIdleEvent extends HookEventBase {
  hook_event_name: "TeammateIdle";
  teammate_name: string;
  /** Deprecated. */
  team_name?: string;
}
/** What a TeammateIdle handler returns; decisions, most restrictive first: block. */
interface TeammateIdleResult extends HookResult {
  decision?: "block";
}

/** ConfigChange: a settings or skill file changed mid-session (claude-code, modifying). Matchers test source. */
interface ConfigChangeEvent extends HookEventBase {
  hook_event_name: "ConfigChange";
  source: "user_settings" | "project_settings" | "local_settings" | "policy_settings" | "skills";
  file_path?: string;
}
/** What a ConfigChange handler returns; decisions, most restrictive first: block. */
interface ConfigChangeResult extends HookResult {
  decision?: "block";
}

/** CwdChanged: the working directory changed (claude-code, modifying). */
interface CwdChangedEvent extends HookEventBase {
  hook_event_name: "CwdChanged";
  old_cwd: string;
  new_cwd: string;
}
/** What a CwdChanged handler returns: the event takes no decision. */
interface CwdChangedResult extends HookResult {
  /** Merged: last. */
  watch_paths?: string[];
}

/** DirectoryAdded: a directory was added to the workspace (claude-code, void). Matchers test source. */
interface DirectoryAddedEvent extends HookEventBase {
  hook_event_name: "DirectoryAdded";
  directory: string;
  source: "slash_command" | "register_repo_root" | string;
}
/** What a DirectoryAdded handler returns: the event takes no decision. */
interface DirectoryAddedResult extends HookResult {
}

/** FileChanged: a watched file changed on disk (claude-code, modifying). Matchers test file_path. */
interface FileChangedEvent extends HookEventBase {
  hook_event_name: "FileChanged";
  file_path: string;
  event: "change" | "add" | "unlink";
}
/** What a FileChanged handler returns: the event takes no decision. */
interface FileChangedResult extends HookResult {
  /** Merged: last. */
  watch_paths?: string[];
}

/** WorktreeCreate: a worktree is about to be created (claude-code, modifying). */
interface WorktreeCreateEvent extends HookEventBase {
  hook_event_name: "WorktreeCreate";
  name: string;
}
/** What a WorktreeCreate handler returns; decisions, most restrictive first: block. */
interface WorktreeCreateResult extends HookResult {
  decision?: "block";
  /** Merged: first. */
  worktree_path?: string;
}

/** WorktreeRemove: a worktree was removed (claude-code, void). */
interface WorktreeRemoveEvent extends HookEventBase {
  hook_event_name: "WorktreeRemove";
  worktree_path: string;
}
/** What a WorktreeRemove handler returns: the event takes no decision. */
interface WorktreeRemoveResult extends HookResult {
}

/** PreCompact: the context is about to be compacted (claude-code, modifying). Matchers test trigger. Also fired as before_compaction, session:compact:before, compact:pre, PreCompress, preCompact. */
interface PreCompactEvent extends HookEventBase {
  hook_event_name: "PreCompact";
  trigger: "manual" | "auto";
  custom_instructions?: string | null;
}
/** What a PreCompact handler returns; decisions, most restrictive first: block. */
interface PreCompactResult extends HookResult {
  decision?: "block";
}

/** PostCompact: the context was compacted (claude-code, void). Matchers test trigger. Also fired as after_compaction, session:compact:after, compact, compact:post. */
interface PostCompactEvent extends HookEventBase {
  hook_event_name: "PostCompact";
  trigger: "manual" | "auto";
  compact_summary: string;
}
/** What a PostCompact handler returns: the event takes no decision. */
interface PostCompactResult extends HookResult {
}

/** PreModelSwitch: a requested model switch, before it happens (fails closed) (claude-code, modifying). Matchers test to_model. */
interface PreModelSwitchEvent extends HookEventBase {
  hook_event_name: "PreModelSwitch";
  from_model: string;
  to_model: string;
  requested_model?: string;
  source: "command" | "picker" | "sdk" | "auto" | "resume" | string;
  context_tokens?: number;
  prompt_cache_warm?: boolean;
  cache_ttl?: "5m" | "1h" | string;
  estimated_cache_write_usd?: number;
  pricing?: unknown;
}
/** What a PreModelSwitch handler returns; decisions, most restrictive first: deny > ask > allow (a failing hook blocks). */
interface PreModelSwitchResult extends HookResult {
  decision?: "deny" | "ask" | "allow";
}

/** PostModelSwitch: the model changed (claude-code, modifying). Matchers test to_model. */
interface PostModelSwitchEvent extends HookEventBase {
  hook_event_name: "PostModelSwitch";
  from_model: string;
  to_model: string;
  requested_model?: string;
  source: "command" | "picker" | "sdk" | "auto" | "resume" | string;
  context_tokens?: number;
  prompt_cache_warm?: boolean;
  cache_ttl?: "5m" | "1h" | string;
  estimated_cache_write_usd?: number;
  pricing?: unknown;
}
/** What a PostModelSwitch handler returns: the event takes no decision. */
interface PostModelSwitchResult extends HookResult {
}

/** Elicitation: an MCP server asks the user for input (claude-code, modifying). Matchers test mcp_server_name. */
interface ElicitationEvent extends HookEventBase {
  hook_event_name: "Elicitation";
  mcp_server_name: string;
  message: string;
  mode?: "form" | "url";
  url?: string;
  elicitation_id?: string;
  requested_schema?: unknown;
}
/** What a Elicitation handler returns: the event takes no decision. */
interface ElicitationResult extends HookResult {
  /** Merged: restrictive, most restrictive first. */
  action?: "cancel" | "decline" | "accept";
  /** Merged: last. */
  content?: unknown;
}

/** ElicitationResult: the user answered an MCP elicitation (claude-code, modifying). Matchers test mcp_server_name. */
interface ElicitationResultEvent extends HookEventBase {
  hook_event_name: "ElicitationResult";
  mcp_server_name: string;
  action: "accept" | "decline" | "cancel";
  content?: unknown;
  mode?: "form" | "url";
  elicitation_id?: string;
}
/** What a ElicitationResult handler returns: the event takes no decision. */
interface ElicitationResultResult extends HookResult {
  /** Merged: restrictive, most restrictive first. */
  action?: "cancel" | "decline" | "accept";
  /** Merged: last. */
  content?: unknown;
}

/** SessionEnd: a session ends (claude-code, void). Matchers test reason. Also fired as session_end, session.end, session:end, sessionEnd. */
interface SessionEndEvent extends HookEventBase {
  hook_event_name: "SessionEnd";
  reason: "clear" | "resume" | "logout" | "prompt_input_exit" | "other";
}
/** What a SessionEnd handler returns: the event takes no decision. */
interface SessionEndResult extends HookResult {
}

/** before_model_resolve: before the model is resolved for a run (openclaw, modifying). */
interface BeforeModelResolveEvent extends HookEventBase {
  hook_event_name: "before_model_resolve";
}
/** What a before_model_resolve handler returns: the event takes no decision. */
interface BeforeModelResolveResult extends HookResult {
  /** Merged: first. */
  model_override?: string;
  /** Merged: first. */
  provider_override?: string;
}

/** agent_turn_prepare: plugin turn injections are drained (openclaw, modifying). */
interface AgentTurnPrepareEvent extends HookEventBase {
  hook_event_name: "agent_turn_prepare";
}
/** What a agent_turn_prepare handler returns: the event takes no decision. */
interface AgentTurnPrepareResult extends HookResult {
  /** Merged: concat. */
  append_context?: string;
  /** Merged: concat. */
  prepend_context?: string;
}

/** before_prompt_build: before the prompt is assembled (openclaw, modifying). */
interface BeforePromptBuildEvent extends HookEventBase {
  hook_event_name: "before_prompt_build";
}
/** What a before_prompt_build handler returns: the event takes no decision. */
interface BeforePromptBuildResult extends HookResult {
  /** Merged: concat. */
  append_context?: string;
  /** Merged: concat. */
  append_system_context?: string;
  /** Merged: concat. */
  prepend_context?: string;
  /** Merged: concat. */
  prepend_system_context?: string;
  /** Merged: first. */
  system_prompt?: string;
  /** Merged: intersect. */
  tools_allow?: string[];
}

/** before_agent_start: legacy: before the agent starts (prompt build + model resolve) (openclaw, modifying). */
interface BeforeAgentStartEvent extends HookEventBase {
  hook_event_name: "before_agent_start";
}
/** What a before_agent_start handler returns: the event takes no decision. */
interface BeforeAgentStartResult extends HookResult {
  /** Merged: concat. */
  append_context?: string;
  /** Merged: first. */
  model_override?: string;
  /** Merged: concat. */
  prepend_context?: string;
  /** Merged: first. */
  provider_override?: string;
  /** Merged: first. */
  system_prompt?: string;
}

/** before_agent_reply: claim: a plugin may answer instead of the agent (openclaw, modifying). */
interface BeforeAgentReplyEvent extends HookEventBase {
  hook_event_name: "before_agent_reply";
}
/** What a before_agent_reply handler returns: the event takes no decision. */
interface BeforeAgentReplyResult extends HookResult {
  /** Merged: sticky, stops the chain. */
  handled?: boolean;
  /** Merged: first. */
  reply?: string;
}

/** before_agent_run: gate: the first block stops the run (fails closed) (openclaw, modifying). */
interface BeforeAgentRunEvent extends HookEventBase {
  hook_event_name: "before_agent_run";
}
/** What a before_agent_run handler returns; decisions, most restrictive first: block > pass (a failing hook blocks). */
interface BeforeAgentRunResult extends HookResult {
  decision?: "block" | "pass";
  outcome?: "block" | "pass";
  /** Merged: first. */
  category?: string;
  /** Merged: first. */
  message?: unknown;
  /** Merged: merge. */
  metadata?: Record<string, unknown>;
}

/** model_call_started: a model call started (openclaw, void). */
interface ModelCallStartedEvent extends HookEventBase {
  hook_event_name: "model_call_started";
}
/** What a model_call_started handler returns: the event takes no decision. */
interface ModelCallStartedResult extends HookResult {
}

/** model_call_ended: a model call ended (openclaw, void). */
interface ModelCallEndedEvent extends HookEventBase {
  hook_event_name: "model_call_ended";
}
/** What a model_call_ended handler returns: the event takes no decision. */
interface ModelCallEndedResult extends HookResult {
}

/** llm_input: the input sent to the model (openclaw, void). */
interface LlmInputEvent extends HookEventBase {
  hook_event_name: "llm_input";
}
/** What a llm_input handler returns: the event takes no decision. */
interface LlmInputResult extends HookResult {
}

/** llm_output: the model's output (openclaw, void). */
interface LlmOutputEvent extends HookEventBase {
  hook_event_name: "llm_output";
}
/** What a llm_output handler returns: the event takes no decision. */
interface LlmOutputResult extends HookResult {
}

/** before_agent_finalize: before the answer goes out: continue, revise or finalize (openclaw, modifying). */
interface BeforeAgentFinalizeEvent extends HookEventBase {
  hook_event_name: "before_agent_finalize";
}
/** What a before_agent_finalize handler returns; decisions, most restrictive first: finalize > revise > continue. */
interface BeforeAgentFinalizeResult extends HookResult {
  decision?: "finalize" | "revise" | "continue";
  action?: "finalize" | "revise" | "continue";
  /** Merged: first. */
  retry?: unknown;
}

/** agent_end: an agent run ended (openclaw, void). */
interface AgentEndEvent extends HookEventBase {
  hook_event_name: "agent_end";
}
/** What a agent_end handler returns: the event takes no decision. */
interface AgentEndResult extends HookResult {
}

/** heartbeat_prompt_contribution: a heartbeat prompt is built (openclaw, modifying). */
interface HeartbeatPromptContributionEvent extends HookEventBase {
  hook_event_name: "heartbeat_prompt_contribution";
}
/** What a heartbeat_prompt_contribution handler returns: the event takes no decision. */
interface HeartbeatPromptContributionResult extends HookResult {
  /** Merged: concat. */
  append_context?: string;
  /** Merged: concat. */
  prepend_context?: string;
}

/** before_reset: a session is about to be reset (openclaw, void). */
interface BeforeResetEvent extends HookEventBase {
  hook_event_name: "before_reset";
}
/** What a before_reset handler returns: the event takes no decision. */
interface BeforeResetResult extends HookResult {
}

/** inbound_claim: claim: an inbound message may be handled by a plugin (openclaw, modifying). */
interface InboundClaimEvent extends HookEventBase {
  hook_event_name: "inbound_claim";
}
/** What a inbound_claim handler returns: the event takes no decision. */
interface InboundClaimResult extends HookResult {
  /** Merged: sticky, stops the chain. */
  handled?: boolean;
  /** Merged: first. */
  reply?: string;
}

/** channel_pairing_requested: a channel pairing was requested (openclaw, void). */
interface ChannelPairingRequestedEvent extends HookEventBase {
  hook_event_name: "channel_pairing_requested";
}
/** What a channel_pairing_requested handler returns: the event takes no decision. */
interface ChannelPairingRequestedResult extends HookResult {
}

/** message_received: an inbound message arrived (openclaw, void). Also fired as message:received. */
interface MessageReceivedEvent extends HookEventBase {
  hook_event_name: "message_received";
}
/** What a message_received handler returns: the event takes no decision. */
interface MessageReceivedResult extends HookResult {
}

/** message_sending: an outbound message is about to be sent (cancel is terminal) (openclaw, modifying). */
interface MessageSendingEvent extends HookEventBase {
  hook_event_name: "message_sending";
}
/** What a message_sending handler returns; decisions, most restrictive first: cancel. */
interface MessageSendingResult extends HookResult {
  decision?: "cancel";
  /** Merged: sticky, stops the chain and blocks. */
  cancel?: boolean;
  /** Merged: last. */
  cancel_reason?: string;
  /** Merged: last. */
  content?: unknown;
  /** Merged: last. */
  metadata?: Record<string, unknown>;
}

/** reply_payload_sending: a reply payload is about to be sent (openclaw, modifying). */
interface ReplyPayloadSendingEvent extends HookEventBase {
  hook_event_name: "reply_payload_sending";
}
/** What a reply_payload_sending handler returns; decisions, most restrictive first: cancel. */
interface ReplyPayloadSendingResult extends HookResult {
  decision?: "cancel";
  /** Merged: sticky, stops the chain and blocks. */
  cancel?: boolean;
  /** Merged: chain, the next hook sees it as event.payload. */
  payload?: unknown;
  /** Merged: last. */
  reason?: string;
}

/** message_sent: an outbound message was sent (openclaw, void). Also fired as message:sent. */
interface MessageSentEvent extends HookEventBase {
  hook_event_name: "message_sent";
}
/** What a message_sent handler returns: the event takes no decision. */
interface MessageSentResult extends HookResult {
}

/** before_dispatch: claim: before a message is dispatched to the agent (openclaw, modifying). */
interface BeforeDispatchEvent extends HookEventBase {
  hook_event_name: "before_dispatch";
}
/** What a before_dispatch handler returns: the event takes no decision. */
interface BeforeDispatchResult extends HookResult {
  /** Merged: sticky, stops the chain. */
  handled?: boolean;
  /** Merged: first. */
  text?: string;
}

/** reply_dispatch: claim: a finalized reply is dispatched (openclaw, modifying). */
interface ReplyDispatchEvent extends HookEventBase {
  hook_event_name: "reply_dispatch";
}
/** What a reply_dispatch handler returns: the event takes no decision. */
interface ReplyDispatchResult extends HookResult {
  /** Merged: first. */
  counts?: unknown;
  /** Merged: sticky, stops the chain. */
  handled?: boolean;
  /** Merged: first. */
  queued_final?: unknown;
}

/** resolve_exec_env: environment variables for an exec tool call (openclaw, modifying). */
interface ResolveExecEnvEvent extends HookEventBase {
  hook_event_name: "resolve_exec_env";
}
/** What a resolve_exec_env handler returns: the event takes no decision. */
interface ResolveExecEnvResult extends HookResult {
  /** Merged: merge. */
  env?: Record<string, string>;
}

/** tool_result_persist: a tool result is about to be written to the transcript (sync hot path) (openclaw, sync). */
interface ToolResultPersistEvent extends HookEventBase {
  hook_event_name: "tool_result_persist";
}
/** What a tool_result_persist handler returns: the event takes no decision. */
interface ToolResultPersistResult extends HookResult {
  /** Merged: chain, the next hook sees it as event.message. */
  message?: unknown;
}

/** before_message_write: a message is about to be written (sync gate) (openclaw, sync). */
interface BeforeMessageWriteEvent extends HookEventBase {
  hook_event_name: "before_message_write";
}
/** What a before_message_write handler returns; decisions, most restrictive first: block. */
interface BeforeMessageWriteResult extends HookResult {
  decision?: "block";
  /** Merged: sticky, stops the chain and blocks. */
  block?: boolean;
  /** Merged: chain, the next hook sees it as event.message. */
  message?: unknown;
}

/** subagent_spawning: deprecated: a subagent is being spawned (openclaw, modifying). */
interface SubagentSpawningEvent extends HookEventBase {
  hook_event_name: "subagent_spawning";
}
/** What a subagent_spawning handler returns: the event takes no decision. */
interface SubagentSpawningResult extends HookResult {
  /** Merged: restrictive, most restrictive first. */
  status?: "error" | "ok";
  /** Merged: sticky. */
  thread_binding_ready?: boolean;
}

/** subagent_delivery_target: where a subagent's completion is delivered (openclaw, modifying). */
interface SubagentDeliveryTargetEvent extends HookEventBase {
  hook_event_name: "subagent_delivery_target";
}
/** What a subagent_delivery_target handler returns: the event takes no decision. */
interface SubagentDeliveryTargetResult extends HookResult {
  /** Merged: first. */
  origin?: unknown;
}

/** subagent_progress: a subagent reported progress (openclaw, void). */
interface SubagentProgressEvent extends HookEventBase {
  hook_event_name: "subagent_progress";
}
/** What a subagent_progress handler returns: the event takes no decision. */
interface SubagentProgressResult extends HookResult {
}

/** gateway_start: the gateway started (openclaw, void). Also fired as gateway:startup. */
interface GatewayStartEvent extends HookEventBase {
  hook_event_name: "gateway_start";
}
/** What a gateway_start handler returns: the event takes no decision. */
interface GatewayStartResult extends HookResult {
}

/** gateway_stop: the gateway is stopping (openclaw, void). Also fired as deactivate, gateway:shutdown. */
interface GatewayStopEvent extends HookEventBase {
  hook_event_name: "gateway_stop";
}
/** What a gateway_stop handler returns: the event takes no decision. */
interface GatewayStopResult extends HookResult {
}

/** cron_reconciled: cron jobs were reconciled (openclaw, void). */
interface CronReconciledEvent extends HookEventBase {
  hook_event_name: "cron_reconciled";
}
/** What a cron_reconciled handler returns: the event takes no decision. */
interface CronReconciledResult extends HookResult {
}

/** cron_changed: a cron job changed (openclaw, void). */
interface CronChangedEvent extends HookEventBase {
  hook_event_name: "cron_changed";
}
/** What a cron_changed handler returns: the event takes no decision. */
interface CronChangedResult extends HookResult {
}

/** before_install: a skill or plugin is about to be installed (fails closed) (openclaw, modifying). */
interface BeforeInstallEvent extends HookEventBase {
  hook_event_name: "before_install";
}
/** What a before_install handler returns; decisions, most restrictive first: block (a failing hook blocks). */
interface BeforeInstallResult extends HookResult {
  decision?: "block";
  /** Merged: sticky, stops the chain and blocks. */
  block?: boolean;
  /** Merged: last. */
  block_reason?: string;
  /** Merged: append. */
  findings?: unknown[];
}

/** skill_proposal_evaluate: evaluators score a skill proposal (openclaw, void). */
interface SkillProposalEvaluateEvent extends HookEventBase {
  hook_event_name: "skill_proposal_evaluate";
}
/** What a skill_proposal_evaluate handler returns: the event takes no decision. */
interface SkillProposalEvaluateResult extends HookResult {
}

/** skill_proposal_changed: a skill proposal changed (openclaw, void). */
interface SkillProposalChangedEvent extends HookEventBase {
  hook_event_name: "skill_proposal_changed";
}
/** What a skill_proposal_changed handler returns: the event takes no decision. */
interface SkillProposalChangedResult extends HookResult {
}

/** skill_changed: a skill changed (openclaw, void). */
interface SkillChangedEvent extends HookEventBase {
  hook_event_name: "skill_changed";
}
/** What a skill_changed handler returns: the event takes no decision. */
interface SkillChangedResult extends HookResult {
}

/** secret_env_authorize: gate: which secret env vars a tool may see (intersection) (openclaw, modifying). */
interface SecretEnvAuthorizeEvent extends HookEventBase {
  hook_event_name: "secret_env_authorize";
}
/** What a secret_env_authorize handler returns; decisions, most restrictive first: block (a failing hook blocks). */
interface SecretEnvAuthorizeResult extends HookResult {
  decision?: "block";
  /** Merged: intersect. */
  allowed_names?: string[];
}

/** after_tools_resolved: the tool list after policy (openclaw, void). */
interface AfterToolsResolvedEvent extends HookEventBase {
  hook_event_name: "after_tools_resolved";
}
/** What a after_tools_resolved handler returns: the event takes no decision. */
interface AfterToolsResolvedResult extends HookResult {
}

/** before_model_call: gate: before a model call (openclaw, modifying). */
interface BeforeModelCallEvent extends HookEventBase {
  hook_event_name: "before_model_call";
}
/** What a before_model_call handler returns; decisions, most restrictive first: block (a failing hook blocks). */
interface BeforeModelCallResult extends HookResult {
  decision?: "block";
  /** Merged: sticky, stops the chain and blocks. */
  block?: boolean;
}

/** command:new: the /new command (openclaw, void). */
interface CommandNewEvent extends HookEventBase {
  hook_event_name: "command:new";
}
/** What a command:new handler returns: the event takes no decision. */
interface CommandNewResult extends HookResult {
}

/** command:reset: the /reset command (openclaw, void). */
interface CommandResetEvent extends HookEventBase {
  hook_event_name: "command:reset";
}
/** What a command:reset handler returns: the event takes no decision. */
interface CommandResetResult extends HookResult {
}

/** command:stop: the /stop command (openclaw, void). */
interface CommandStopEvent extends HookEventBase {
  hook_event_name: "command:stop";
}
/** What a command:stop handler returns: the event takes no decision. */
interface CommandStopResult extends HookResult {
}

/** session:patch: a session was patched (openclaw, void). */
interface SessionPatchEvent extends HookEventBase {
  hook_event_name: "session:patch";
}
/** What a session:patch handler returns: the event takes no decision. */
interface SessionPatchResult extends HookResult {
}

/** session:auto-reset: a session was reset automatically (openclaw, void). */
interface SessionAutoResetEvent extends HookEventBase {
  hook_event_name: "session:auto-reset";
}
/** What a session:auto-reset handler returns: the event takes no decision. */
interface SessionAutoResetResult extends HookResult {
}

/** agent:bootstrap: agent bootstrap files are assembled (openclaw, modifying). */
interface AgentBootstrapEvent extends HookEventBase {
  hook_event_name: "agent:bootstrap";
}
/** What a agent:bootstrap handler returns: the event takes no decision. */
interface AgentBootstrapResult extends HookResult {
  /** Merged: append. */
  bootstrap_files?: unknown[];
}

/** gateway:pre-restart: the gateway is about to restart (openclaw, void). */
interface GatewayPreRestartEvent extends HookEventBase {
  hook_event_name: "gateway:pre-restart";
}
/** What a gateway:pre-restart handler returns: the event takes no decision. */
interface GatewayPreRestartResult extends HookResult {
}

/** message:transcribed: an audio message was transcribed (openclaw, void). */
interface MessageTranscribedEvent extends HookEventBase {
  hook_event_name: "message:transcribed";
}
/** What a message:transcribed handler returns: the event takes no decision. */
interface MessageTranscribedResult extends HookResult {
}

/** message:preprocessed: an inbound message was preprocessed (openclaw, void). */
interface MessagePreprocessedEvent extends HookEventBase {
  hook_event_name: "message:preprocessed";
}
/** What a message:preprocessed handler returns: the event takes no decision. */
interface MessagePreprocessedResult extends HookResult {
}

/** Every event's payload, by its canonical name. */
interface HookEvents {
  SessionStart: SessionStartEvent;
  Setup: SetupEvent;
  InstructionsLoaded: InstructionsLoadedEvent;
  UserPromptSubmit: UserPromptSubmitEvent;
  UserPromptExpansion: UserPromptExpansionEvent;
  MessageDisplay: MessageDisplayEvent;
  PreToolUse: PreToolUseEvent;
  PermissionRequest: PermissionRequestEvent;
  PermissionDenied: PermissionDeniedEvent;
  PostToolUse: PostToolUseEvent;
  PostToolUseFailure: PostToolUseFailureEvent;
  PostToolBatch: PostToolBatchEvent;
  Notification: NotificationEvent;
  SubagentStart: SubagentStartEvent;
  SubagentStop: SubagentStopEvent;
  TaskCreated: TaskCreatedEvent;
  TaskCompleted: TaskCompletedEvent;
  Stop: StopEvent;
  StopFailure: StopFailureEvent;
  TeammateIdle: TeammateIdleEvent;
  ConfigChange: ConfigChangeEvent;
  CwdChanged: CwdChangedEvent;
  DirectoryAdded: DirectoryAddedEvent;
  FileChanged: FileChangedEvent;
  WorktreeCreate: WorktreeCreateEvent;
  WorktreeRemove: WorktreeRemoveEvent;
  PreCompact: PreCompactEvent;
  PostCompact: PostCompactEvent;
  PreModelSwitch: PreModelSwitchEvent;
  PostModelSwitch: PostModelSwitchEvent;
  Elicitation: ElicitationEvent;
  ElicitationResult: ElicitationResultEvent;
  SessionEnd: SessionEndEvent;
  before_model_resolve: BeforeModelResolveEvent;
  agent_turn_prepare: AgentTurnPrepareEvent;
  before_prompt_build: BeforePromptBuildEvent;
  before_agent_start: BeforeAgentStartEvent;
  before_agent_reply: BeforeAgentReplyEvent;
  before_agent_run: BeforeAgentRunEvent;
  model_call_started: ModelCallStartedEvent;
  model_call_ended: ModelCallEndedEvent;
  llm_input: LlmInputEvent;
  llm_output: LlmOutputEvent;
  before_agent_finalize: BeforeAgentFinalizeEvent;
  agent_end: AgentEndEvent;
  heartbeat_prompt_contribution: HeartbeatPromptContributionEvent;
  before_reset: BeforeResetEvent;
  inbound_claim: InboundClaimEvent;
  channel_pairing_requested: ChannelPairingRequestedEvent;
  message_received: MessageReceivedEvent;
  message_sending: MessageSendingEvent;
  reply_payload_sending: ReplyPayloadSendingEvent;
  message_sent: MessageSentEvent;
  before_dispatch: BeforeDispatchEvent;
  reply_dispatch: ReplyDispatchEvent;
  resolve_exec_env: ResolveExecEnvEvent;
  tool_result_persist: ToolResultPersistEvent;
  before_message_write: BeforeMessageWriteEvent;
  subagent_spawning: SubagentSpawningEvent;
  subagent_delivery_target: SubagentDeliveryTargetEvent;
  subagent_progress: SubagentProgressEvent;
  gateway_start: GatewayStartEvent;
  gateway_stop: GatewayStopEvent;
  cron_reconciled: CronReconciledEvent;
  cron_changed: CronChangedEvent;
  before_install: BeforeInstallEvent;
  skill_proposal_evaluate: SkillProposalEvaluateEvent;
  skill_proposal_changed: SkillProposalChangedEvent;
  skill_changed: SkillChangedEvent;
  secret_env_authorize: SecretEnvAuthorizeEvent;
  after_tools_resolved: AfterToolsResolvedEvent;
  before_model_call: BeforeModelCallEvent;
  "command:new": CommandNewEvent;
  "command:reset": CommandResetEvent;
  "command:stop": CommandStopEvent;
  "session:patch": SessionPatchEvent;
  "session:auto-reset": SessionAutoResetEvent;
  "agent:bootstrap": AgentBootstrapEvent;
  "gateway:pre-restart": GatewayPreRestartEvent;
  "message:transcribed": MessageTranscribedEvent;
  "message:preprocessed": MessagePreprocessedEvent;
}

/** What each event's handlers return, by its canonical name. */
interface HookResults {
  SessionStart: SessionStartResult;
  Setup: SetupResult;
  InstructionsLoaded: InstructionsLoadedResult;
  UserPromptSubmit: UserPromptSubmitResult;
  UserPromptExpansion: UserPromptExpansionResult;
  MessageDisplay: MessageDisplayResult;
  PreToolUse: PreToolUseResult;
  PermissionRequest: PermissionRequestResult;
  PermissionDenied: PermissionDeniedResult;
  PostToolUse: PostToolUseResult;
  PostToolUseFailure: PostToolUseFailureResult;
  PostToolBatch: PostToolBatchResult;
  Notification: NotificationResult;
  SubagentStart: SubagentStartResult;
  SubagentStop: SubagentStopResult;
  TaskCreated: TaskCreatedResult;
  TaskCompleted: TaskCompletedResult;
  Stop: StopResult;
  StopFailure: StopFailureResult;
  TeammateIdle: TeammateIdleResult;
  ConfigChange: ConfigChangeResult;
  CwdChanged: CwdChangedResult;
  DirectoryAdded: DirectoryAddedResult;
  FileChanged: FileChangedResult;
  WorktreeCreate: WorktreeCreateResult;
  WorktreeRemove: WorktreeRemoveResult;
  PreCompact: PreCompactResult;
  PostCompact: PostCompactResult;
  PreModelSwitch: PreModelSwitchResult;
  PostModelSwitch: PostModelSwitchResult;
  Elicitation: ElicitationResult;
  ElicitationResult: ElicitationResultResult;
  SessionEnd: SessionEndResult;
  before_model_resolve: BeforeModelResolveResult;
  agent_turn_prepare: AgentTurnPrepareResult;
  before_prompt_build: BeforePromptBuildResult;
  before_agent_start: BeforeAgentStartResult;
  before_agent_reply: BeforeAgentReplyResult;
  before_agent_run: BeforeAgentRunResult;
  model_call_started: ModelCallStartedResult;
  model_call_ended: ModelCallEndedResult;
  llm_input: LlmInputResult;
  llm_output: LlmOutputResult;
  before_agent_finalize: BeforeAgentFinalizeResult;
  agent_end: AgentEndResult;
  heartbeat_prompt_contribution: HeartbeatPromptContributionResult;
  before_reset: BeforeResetResult;
  inbound_claim: InboundClaimResult;
  channel_pairing_requested: ChannelPairingRequestedResult;
  message_received: MessageReceivedResult;
  message_sending: MessageSendingResult;
  reply_payload_sending: ReplyPayloadSendingResult;
  message_sent: MessageSentResult;
  before_dispatch: BeforeDispatchResult;
  reply_dispatch: ReplyDispatchResult;
  resolve_exec_env: ResolveExecEnvResult;
  tool_result_persist: ToolResultPersistResult;
  before_message_write: BeforeMessageWriteResult;
  subagent_spawning: SubagentSpawningResult;
  subagent_delivery_target: SubagentDeliveryTargetResult;
  subagent_progress: SubagentProgressResult;
  gateway_start: GatewayStartResult;
  gateway_stop: GatewayStopResult;
  cron_reconciled: CronReconciledResult;
  cron_changed: CronChangedResult;
  before_install: BeforeInstallResult;
  skill_proposal_evaluate: SkillProposalEvaluateResult;
  skill_proposal_changed: SkillProposalChangedResult;
  skill_changed: SkillChangedResult;
  secret_env_authorize: SecretEnvAuthorizeResult;
  after_tools_resolved: AfterToolsResolvedResult;
  before_model_call: BeforeModelCallResult;
  "command:new": CommandNewResult;
  "command:reset": CommandResetResult;
  "command:stop": CommandStopResult;
  "session:patch": SessionPatchResult;
  "session:auto-reset": SessionAutoResetResult;
  "agent:bootstrap": AgentBootstrapResult;
  "gateway:pre-restart": GatewayPreRestartResult;
  "message:transcribed": MessageTranscribedResult;
  "message:preprocessed": MessagePreprocessedResult;
}
// </generated: events>

/** The name of an event of the catalog. */
type HookEventName = keyof HookEvents;

/** Any event's payload. */
type HookEvent = HookEvents[HookEventName];

// ---------------------------------------------------------------------------
// Results

type Decision = "allow" | "deny" | "ask" | "defer" | "block" | "approve" | "cancel" | string;

/** What a handler returns; undefined means "no opinion". */
interface HookResult {
  decision?: Decision;
  reason?: string;
  /** Replaces tool_input for the next hooks and the tool (send every field). */
  updated_input?: Record<string, unknown>;
  updated_output?: unknown;
  additional_context?: string;
  system_message?: string;
  /** false stops the whole agent, whatever else was decided. */
  continue?: boolean;
  stop_reason?: string;
  suppress_output?: boolean;
  /** The event's own fields (cancel, model_override, prepend_context, ...). */
  [field: string]: unknown;
}

// ---------------------------------------------------------------------------
// ctx

interface HookLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

interface HookContext<E extends string = string> {
  /** Shared by the hooks of one fire; conditions read it as `state.x`. */
  state: Record<string, unknown>;
  /** The hook's id. */
  hook: string;
  /** The canonical event name. */
  event: E;
  log: HookLogger;
  /** When the hook's time runs out. */
  deadline: Date | null;
  /** The capabilities granted with allow = [...]. */
  allow: string[];
}

/**
 * A handler of event E, typed by its payload and its result:
 * `export default ((event, ctx) => { ... }) satisfies Handler<"PreToolUse">`.
 */
type Handler<E extends HookEventName = HookEventName> = (
  event: HookEvents[E],
  ctx: HookContext<E>,
) => HookResults[E] | undefined | void | Promise<HookResults[E] | undefined | void>;

/** The signature of a script file's handler for any event (module.exports or export default). */
type HookHandler = (event: any, ctx: HookContext) => HookResult | undefined | void | Promise<HookResult | undefined | void>;

// ---------------------------------------------------------------------------
// Standard library

declare module "hookctl/decision" {
  export function allow(reason?: string): { decision: "allow"; reason?: string };
  export function deny(reason?: string): { decision: "deny"; reason: string };
  export function ask(reason?: string): { decision: "ask"; reason?: string };
  export function defer(reason?: string): { decision: "defer"; reason?: string };
  export function block(reason?: string): { decision: "block"; reason: string };
  export function context(text: string): { additional_context: string };
  export function systemMessage(text: string): { system_message: string };
  /** continue: false — stops the whole agent. */
  export function stop(reason?: string): { continue: false; stop_reason: string };
  /** updated_input = { ...event.tool_input, ...patch }, plus extra fields. */
  export function rewrite(event: { tool_input?: Record<string, unknown> }, patch: Record<string, unknown>): { updated_input: Record<string, unknown> };
  export function rewrite<const X extends HookResult>(
    event: { tool_input?: Record<string, unknown> },
    patch: Record<string, unknown>,
    extra: X,
  ): X & { updated_input: Record<string, unknown> };
  /** Block a Stop unless stop_hook_active (or loop_count >= maxLoops). */
  export function blockStop(event: { stop_hook_active?: boolean; loop_count?: number }, reason?: string, opts?: { maxLoops?: number; force?: boolean }): { decision: "block"; reason: string } | undefined;
  /** Later fields win; typed as any of the results, each of which a typed handler checks. */
  export function merge<const T extends Array<HookResult | undefined>>(...results: T): Exclude<T[number], undefined>;
}

declare module "hookctl/path" {
  export function normalize(p: string): string;
  export function expand(p: string): string;
  /** Absolute path against cwd (the event's cwd by default), ~ expanded. */
  export function resolve(p: string, cwd?: string): string;
  export function isInside(p: string, root: string): boolean;
  /** Glob match: * ? [..] {a,b} and ** across directories; no slash = base name. */
  export function match(p: string, pattern: string): boolean;
  export function matchAny(p: string, patterns: string[]): boolean;
  export function basename(p: string): string;
  export function dirname(p: string): string;
  export function extname(p: string): string;
  export function join(...parts: string[]): string;
  export function isAbsolute(p: string): boolean;
  export function home(): string;
}

declare module "hookctl/shell" {
  export interface Redirect { op: string; fd: string; target: string }
  export interface Segment {
    argv: string[];
    /** Base name of argv[0]. */
    name: string;
    /** Arguments without flags. */
    args: string[];
    assigns: string[];
    /** Launchers peeled off, outermost first: sudo, env, bash -c, ... */
    wrappers: string[];
    /** How the segment joins the previous one: "", ";", "&&", "||", "|", "&", "\n". */
    op: string;
    subshell: boolean;
    redirects: Redirect[];
  }
  export function parse(cmdline: string): Segment[];
  export function commands(cmdline: string): string[];
  export function has(cmdline: string, ...names: Array<string | string[]>): boolean;
  export function words(s: string): string[];
}

declare module "hookctl/fs" {
  /** Regular files only (a FIFO, socket, device or /proc file is refused); maxBytes defaults to 1 MiB, at most 64 MiB. */
  export function read(path: string, opts?: { maxBytes?: number }): string;
  export function exists(path: string): boolean;
  export function stat(path: string): { size: number; isDir: boolean; isFile: boolean; mode: string; mtimeMs: number } | null;
  export function list(dir: string): string[];
  /** Matches and directories walked stay inside the roots after symbolic links are resolved (unless allow = ["read"]); at most 10,000 matches. */
  export function glob(pattern: string, opts?: { cwd?: string }): string[];
  /** Needs allow = ["write"]. */
  export function write(path: string, data: string): void;
  export function append(path: string, data: string): void;
  export function mkdir(path: string): void;
}

declare module "hookctl/exec" {
  export interface RunResult { code: number; stdout: string; stderr: string; timedOut: boolean; truncated: boolean; durationMs: number }
  /** Needs allow = ["exec"]. No shell: argv only. */
  export function run(argv: string[], opts?: { cwd?: string; env?: Record<string, string>; input?: string; timeout?: number | string; maxOutput?: number }): RunResult;
}

declare module "hookctl/kv" {
  type Scope = "session" | "project" | "global";
  interface Opts { scope?: Scope; ttl?: number | string }
  export function get(key: string, opts?: Opts & { default?: unknown }): unknown;
  export function set(key: string, value: unknown, opts?: Opts): void;
  function del(key: string, opts?: Opts): void;
  export { del as delete };
  export function incr(key: string, delta?: number, opts?: Opts): number;
  export function cas(key: string, oldValue: unknown, newValue: unknown, opts?: Opts): boolean;
  export function keys(prefix?: string, opts?: Opts): string[];
}

declare module "hookctl/log" {
  /** Needs allow = ["write"]. */
  export function append(file: string, record: Record<string, unknown>, opts?: { redact?: boolean; maxBytes?: number; maxBackups?: number }): void;
}

declare module "hookctl/secrets" {
  export function scan(text: string): Array<{ kind: string; start: number; end: number }>;
  export function contains(text: string): boolean;
  export function redact(text: string): string;
}

declare module "hookctl/transcript" {
  export interface ToolCall { id: string; name: string; input: Record<string, unknown>; result: string; isError: boolean; hasResult: boolean }
  export interface Summary {
    messages: number; userMessages: number; assistantMessages: number; model: string;
    lastAssistantText: string; lastUserText: string; toolCalls: ToolCall[]; skipped: number;
    usage: { inputTokens: number; outputTokens: number; cacheCreationInputTokens: number; cacheReadInputTokens: number };
  }
  /** Reads the event's transcript_path unless a path is given. */
  export function read(path?: string, opts?: { maxBytes?: number; maxToolCalls?: number }): Summary;
  export function lastAssistantText(path?: string): string;
}

declare module "hookctl/http" {
  export interface Response { status: number; body: string; json: any }
  /** Needs allow = ["net"]; limited to settings.http_allow. */
  export function post(url: string, body: unknown, opts?: { headers?: Record<string, string>; timeout?: number | string }): Response;
  export function get(url: string, opts?: { headers?: Record<string, string>; timeout?: number | string }): Response;
}

declare module "hookctl" {
  export const decision: typeof import("hookctl/decision");
  export const path: typeof import("hookctl/path");
  export const shell: typeof import("hookctl/shell");
  export const fs: typeof import("hookctl/fs");
  export const exec: typeof import("hookctl/exec");
  export const kv: typeof import("hookctl/kv");
  export const log: typeof import("hookctl/log");
  export const secrets: typeof import("hookctl/secrets");
  export const transcript: typeof import("hookctl/transcript");
  export const http: typeof import("hookctl/http");
}

// console goes to hookctl's logger (as ctx.log.info does).
interface Console {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
}
declare var console: Console;
