// The comparison's in-process Node.js peer, in the style of OpenClaw's hook
// runner: handlers sorted by priority, modifying ones awaited in turn and
// their results merged, void ones run with Promise.all. The same 10 hooks
// (condition + three regexes) as hooks.hcl. Prints JSON timings.
//
//   node node_runner.js payload.json [fires]
"use strict";
const fs = require("fs");

const payload = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const fires = Number(process.argv[3] || 200000);

function condition(e) {
  const c = (e.tool_input && e.tool_input.command) || "";
  return ["Bash", "Shell"].includes(e.tool_name) && (/^rm /.test(c) || c.includes("sudo")) && !(e.session_id || "").startsWith("test-");
}

function makeHook(i, kind) {
  return {
    id: "h" + i,
    priority: -i,
    kind,
    handler: async (event) => {
      if (!condition(event)) return undefined;
      const c = event.tool_input.command;
      if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
      if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
      if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
      return { additional_context: "hook " + i + ": ok" };
    },
  };
}

const hooks = [];
for (let i = 0; i < 10; i++) hooks.push(makeHook(i, i < 5 ? "modifying" : "void"));
hooks.sort((a, b) => (b.priority || 0) - (a.priority || 0));
const modifying = hooks.filter((h) => h.kind === "modifying");
const voids = hooks.filter((h) => h.kind === "void");

async function fire(event) {
  let acc;
  let ctx = event;
  for (const h of modifying) {
    const r = await h.handler(ctx);
    if (r === undefined || r === null) continue;
    acc = acc ? { ...acc, ...r, additional_context: [acc.additional_context, r.additional_context].filter(Boolean).join("\n\n") } : { ...r };
    if (r.decision === "deny" || r.decision === "block") break;
  }
  await Promise.all(voids.map((h) => h.handler(ctx)));
  return acc;
}

(async () => {
  for (let i = 0; i < 20000; i++) await fire(payload);
  const lat = new Float64Array(fires);
  const start = process.hrtime.bigint();
  for (let i = 0; i < fires; i++) {
    const t0 = process.hrtime.bigint();
    await fire(payload);
    lat[i] = Number(process.hrtime.bigint() - t0);
  }
  const total = Number(process.hrtime.bigint() - start);
  lat.sort();
  const pct = (p) => lat[Math.min(fires - 1, Math.floor(p * fires))];
  const out = await fire(payload);
  process.stdout.write(JSON.stringify({ fires, mean_ns: total / fires, p50_ns: pct(0.5), p99_ns: pct(0.99), node: process.version, context: out && out.additional_context }) + "\n");
})();
