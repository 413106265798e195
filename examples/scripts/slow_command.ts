/// <reference path="../../stdlib/hookctl.d.ts" />
// TypeScript, run as written: hookctl strips the types when it loads the
// file (no build step), and errors point at this file's lines.
// Tells the agent when a shell command was slow, so it backgrounds the
// next one.
import { context } from "hookctl/decision";

const slowMs = 30_000;

export default ((event) => {
  const ms = event.duration_ms ?? 0;
  if (ms < slowMs) return;
  const cmd = event.tool_input.command ?? "";
  return context(`\`${cmd}\` took ${Math.round(ms / 1000)}s: run long commands with run_in_background.`);
}) satisfies Handler<"PostToolUse">;
