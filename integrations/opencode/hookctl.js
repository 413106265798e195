// hookctl for OpenCode: a plugin that runs the hooks of a hooks.hcl on every
// tool call, through a running `hookctl serve`.
//
//   1. hookctl serve --config hooks.hcl --listen 127.0.0.1:8765
//   2. copy this file to .opencode/plugin/hookctl.js (or ~/.config/opencode/plugin/)
//
// Before a tool runs, PreToolUse fires with the tool's name (OpenCode's
// lower-case names: bash, edit, write, read, ...; hookctl matches them as
// Bash, Edit, Write, Read) and arguments. A deny throws, which is how an
// OpenCode plugin blocks a tool: the model reads the reason. A rewrite
// replaces output.args. An ask is a deny (a plugin cannot ask) unless
// HOOKCTL_ON_ASK=allow. If hookctl cannot be reached, or answers with an
// error, the tool is blocked: a guard that cannot decide does not allow.
// After a tool ran, PostToolUse fires and its additional context is
// appended to the tool's output.
//
// HOOKCTL_URL sets the server (default http://127.0.0.1:8765).

const DEFAULT_URL = "http://127.0.0.1:8765";

export const Hookctl = async ({ directory } = {}) => {
  const url = (process.env.HOOKCTL_URL || DEFAULT_URL).replace(/\/+$/, "");
  const askAllows = process.env.HOOKCTL_ON_ASK === "allow";

  async function fire(event, payload) {
    let res;
    try {
      res = await fetch(`${url}/v1/fire/${event}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ hook_event_name: event, ...payload }),
      });
    } catch (e) {
      throw new Error(`hookctl: cannot reach ${url} (${e.message}); the tool call is blocked`);
    }
    const text = await res.text();
    if (!res.ok) {
      throw new Error(`hookctl: ${url} answered ${res.status} (${text.trim()}); the tool call is blocked`);
    }
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new Error(`hookctl: ${url} answered something that is not JSON; the tool call is blocked`);
    }
  }

  const payload = (input, args) => ({
    session_id: input.sessionID,
    cwd: directory,
    tool_name: input.tool,
    tool_use_id: input.callID,
    tool_input: args,
  });

  return {
    "tool.execute.before": async (input, output) => {
      const out = await fire("PreToolUse", payload(input, output.args));
      const reason = out.reason || "blocked by a hook";
      if (out.blocked || out.decision === "deny" || out.continue === false) {
        throw new Error(reason);
      }
      if (out.decision === "ask" && !askAllows) {
        throw new Error(`${reason} (the hook asked for approval, which this plugin cannot ask for)`);
      }
      if (out.updated_input && typeof out.updated_input === "object") {
        for (const k of Object.keys(output.args)) delete output.args[k];
        Object.assign(output.args, out.updated_input);
      }
    },
    "tool.execute.after": async (input, output) => {
      let out;
      try {
        out = await fire("PostToolUse", { ...payload(input, input.args || {}), tool_response: output.output });
      } catch (e) {
        output.output = `${output.output ?? ""}\n\n${e.message}`;
        return;
      }
      const extra = [out.blocked && out.reason, out.additional_context].filter(Boolean).join("\n");
      if (extra) output.output = `${output.output ?? ""}\n\n${extra}`;
    },
  };
};

export default Hookctl;
