function handler(event: any) {
  return { decision: "allow" };
}
