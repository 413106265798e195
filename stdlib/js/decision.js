// hookctl/decision: result builders with the shapes the engine merges.
"use strict";

function withReason(decision, reason) {
  const r = { decision: decision };
  if (reason !== undefined && reason !== null && reason !== "") r.reason = String(reason);
  return r;
}

module.exports = {
  allow: (reason) => withReason("allow", reason),
  deny: (reason) => withReason("deny", reason === undefined ? "denied by a hook" : reason),
  ask: (reason) => withReason("ask", reason),
  defer: (reason) => withReason("defer", reason),
  block: (reason) => withReason("block", reason === undefined ? "blocked by a hook" : reason),
  context: (text) => ({ additional_context: String(text) }),
  systemMessage: (text) => ({ system_message: String(text) }),
  // stop ends the whole agent (continue: false), whatever else decided.
  stop: (reason) => ({ continue: false, stop_reason: reason === undefined ? "" : String(reason) }),
  // rewrite merges patch into the original tool input: Claude Code replaces
  // the input whole, so every field the tool needs is carried over.
  rewrite: (event, patch, extra) =>
    Object.assign({ updated_input: Object.assign({}, event.tool_input, patch) }, extra || {}),
  // blockStop keeps the agent working on Stop/SubagentStop, unless it is
  // already continuing because of a Stop hook (stop_hook_active) - or, with
  // { maxLoops: n }, once it did so n times in a row.
  blockStop: (event, reason, opts) => {
    opts = opts || {};
    if (opts.maxLoops !== undefined) {
      if ((event.loop_count || 0) >= opts.maxLoops) return undefined;
    } else if (event.stop_hook_active && !opts.force) {
      return undefined;
    }
    return withReason("block", reason === undefined ? "keep working" : reason);
  },
  // merge combines results; later fields win.
  merge: (...results) => Object.assign({}, ...results.filter((r) => r)),
};
