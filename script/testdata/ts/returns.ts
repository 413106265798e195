export default function (event: any): any {
  if (event.x) return { decision: "allow" };
  return "deny";
}
