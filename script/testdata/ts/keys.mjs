export function check(event) {
  return { decision: "allow" };
}
export const version = 2;
