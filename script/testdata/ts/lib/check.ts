export type Verdict = { decision: "deny" | "allow"; reason: string };

enum Level { Low, High }

export function check(cmd: string): Verdict | undefined {
  if (cmd.startsWith("boom")) {
    const level: Level = Level.High;
    throw new Error(`refused at level ${level}: ${cmd}`);
  }
  if (/rm\s+-rf/.test(cmd)) return { decision: "deny", reason: "rm -rf" };
  return undefined;
}
