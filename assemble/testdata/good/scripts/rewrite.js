module.exports = (event) => {
  if (event.tool_input.command.startsWith("pip ")) {
    return { updated_input: { ...event.tool_input, command: "uv " + event.tool_input.command } };
  }
};
