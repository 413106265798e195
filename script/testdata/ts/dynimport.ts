export default async function (event: { tool_input: { command: string } }) {
  const { check } = await import("./lib/check.ts");
  return check(event.tool_input.command);
}
