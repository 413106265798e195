function handler(event) {
  return { decision: "allow" };
}
