// Type declarations for hookctl hook scripts: the event payloads, the ctx
// argument, handler results and the standard library. Reference it from a
// script with:
//
//   /// <reference path="path/to/hookctl.d.ts" />
//
// or add it to "files" in a jsconfig.json / tsconfig.json next to the
// scripts, and editors autocomplete `event.`, `ctx.` and require("hookctl/...").

// ---------------------------------------------------------------------------
// Events

/** Fields Claude Code sends with every event. */
interface HookEventBase {
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

interface ToolInput {
  command?: string;
  description?: string;
  timeout?: number;
  run_in_background?: boolean;
  file_path?: string;
  content?: string;
  old_string?: string;
  new_string?: string;
  path?: string;
  pattern?: string;
  glob?: string;
  url?: string;
  prompt?: string;
  [field: string]: unknown;
}

interface PreToolUseEvent extends HookEventBase {
  hook_event_name: "PreToolUse";
  tool_name: string;
  tool_input: ToolInput;
  tool_use_id: string;
}

interface PostToolUseEvent extends HookEventBase {
  hook_event_name: "PostToolUse";
  tool_name: string;
  tool_input: ToolInput;
  tool_response: unknown;
  tool_use_id: string;
  duration_ms?: number;
}

interface PostToolUseFailureEvent extends HookEventBase {
  hook_event_name: "PostToolUseFailure";
  tool_name: string;
  tool_input: ToolInput;
  error: string;
  is_interrupt?: boolean;
}

interface PermissionRequestEvent extends HookEventBase {
  hook_event_name: "PermissionRequest";
  tool_name: string;
  tool_input: ToolInput;
  permission_suggestions?: unknown[];
}

interface UserPromptSubmitEvent extends HookEventBase {
  hook_event_name: "UserPromptSubmit";
  prompt: string;
  session_title?: string;
}

interface StopEvent extends HookEventBase {
  hook_event_name: "Stop" | "SubagentStop";
  /** True while the agent continues because a Stop hook blocked. */
  stop_hook_active: boolean;
  /** Consecutive Stop blocks so far (hookctl's loop guard). */
  loop_count: number;
  last_assistant_message?: string;
  background_tasks?: unknown[];
  agent_transcript_path?: string;
}

interface SessionStartEvent extends HookEventBase {
  hook_event_name: "SessionStart";
  source: "startup" | "resume" | "clear" | "compact" | "fork";
  model?: string;
}

interface SessionEndEvent extends HookEventBase {
  hook_event_name: "SessionEnd";
  reason: "clear" | "resume" | "logout" | "prompt_input_exit" | "other";
}

interface NotificationEvent extends HookEventBase {
  hook_event_name: "Notification";
  message: string;
  title?: string;
  notification_type: string;
}

interface PreCompactEvent extends HookEventBase {
  hook_event_name: "PreCompact";
  trigger: "manual" | "auto";
  custom_instructions?: string;
}

type HookEvent =
  | PreToolUseEvent
  | PostToolUseEvent
  | PostToolUseFailureEvent
  | PermissionRequestEvent
  | UserPromptSubmitEvent
  | StopEvent
  | SessionStartEvent
  | SessionEndEvent
  | NotificationEvent
  | PreCompactEvent
  | HookEventBase;

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

interface HookContext {
  /** Shared by the hooks of one fire; conditions read it as `state.x`. */
  state: Record<string, unknown>;
  /** The hook's id. */
  hook: string;
  /** The canonical event name. */
  event: string;
  log: HookLogger;
  /** When the hook's time runs out. */
  deadline: Date | null;
  /** The capabilities granted with allow = [...]. */
  allow: string[];
}

/** The signature of a script file's module.exports. */
type HookHandler = (event: any, ctx: HookContext) => HookResult | undefined | void | Promise<HookResult | undefined | void>;

// ---------------------------------------------------------------------------
// Standard library

declare module "hookctl/decision" {
  export function allow(reason?: string): HookResult;
  export function deny(reason?: string): HookResult;
  export function ask(reason?: string): HookResult;
  export function defer(reason?: string): HookResult;
  export function block(reason?: string): HookResult;
  export function context(text: string): HookResult;
  export function systemMessage(text: string): HookResult;
  /** continue: false — stops the whole agent. */
  export function stop(reason?: string): HookResult;
  /** updated_input = { ...event.tool_input, ...patch }, plus extra fields. */
  export function rewrite(event: { tool_input?: Record<string, unknown> }, patch: Record<string, unknown>, extra?: HookResult): HookResult;
  /** Block a Stop unless stop_hook_active (or loop_count >= maxLoops). */
  export function blockStop(event: { stop_hook_active?: boolean; loop_count?: number }, reason?: string, opts?: { maxLoops?: number; force?: boolean }): HookResult | undefined;
  export function merge(...results: Array<HookResult | undefined>): HookResult;
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
  export function delete(key: string, opts?: Opts): void;
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

/** Inline js bodies see these two. */
declare const event: HookEvent;
declare const ctx: HookContext;
