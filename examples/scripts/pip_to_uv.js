// Rewrites `pip install` to `uv pip install`, keeping every other field of
// the tool input (Claude Code replaces the input whole).
const { rewrite } = require("hookctl/decision");

module.exports = function (event, ctx) {
  const cmd = event.tool_input.command || "";
  if (!/^pip install /.test(cmd)) return; // undefined = no opinion
  ctx.state.rewrote = true;               // visible to later hooks and conditions
  return rewrite(event, { command: cmd.replace(/^pip /, "uv pip ") }, {
    decision: "allow",
    reason: "pip is rewritten to uv pip",
    additional_context: "pip was rewritten to uv pip",
  });
};
