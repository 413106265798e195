hook "typed" {
  event = "PreToolUse"
  ts    = <<-TS
    const cmd: string = event.tool_input.command ?? "";
      if (cmd === "") return;
    return { decision: "allow" };
  TS
}

hook "quoted" {
  event = "PreToolUse"
  ts    = "return { reason: 'one line' }"
}
