export const helper = (cmd) => (cmd === "ls" ? "allow" : "ask");
