hook "x" {
  event = "PreToolUse"
  js    = <<-JS
    const c = event.tool_input.command;
    if (c.includes("rm") {
      return { decision: "deny" };
    }
  JS
}

hook "y" {
  event  = "PreToolUse"
  script = "scripts/broken.js"
}
