hook "log" {
  event = "PreToolUse"
  js    = <<-JS
    ctx.log.info(`tool ${event.tool_name}`)
  JS
}

hook "echo" {
  event   = "PreToolUse"
  command = "echo ${tool_input["command"]}"
}
