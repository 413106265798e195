import { check, type Verdict } from "./lib/check";

interface PreToolUse {
  tool_name: string;
  tool_input: { command?: string };
}

export default function (event: PreToolUse, ctx: unknown): Verdict | undefined {
  const cmd: string = event.tool_input.command ?? "";
  return check(cmd);
}
