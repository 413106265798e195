import { helper } from "./helper.js";
import legacy from "./legacy.js";

export default async (event, ctx) => {
  const r = await Promise.resolve(helper(event.tool_input.command));
  return { decision: r, reason: legacy.why };
};
