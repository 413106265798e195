// Rewrites pip to uv pip (examples/scripts style).
const { prefix } = require("./lib/words.js");
module.exports = function (event, ctx) {
  const cmd = event.tool_input.command;
  if (!/^pip install /.test(cmd)) return;
  ctx.state.rewrote = true;
  return {
    updated_input: { ...event.tool_input, command: cmd.replace(/^pip /, prefix + " pip ") },
    additional_context: "pip was rewritten to uv pip",
  };
};
