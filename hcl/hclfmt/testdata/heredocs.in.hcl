hook "inline" {
event = "PreToolUse"
    matcher="Bash"
  js = <<-JS
    const { deny } = require("hookctl/decision");
  if (event.tool_input.command.includes("rm -rf")) {
          return deny(`no: $${event.tool_input.command}`);
    }
	// a tab, and ${ "an interpolation" } with spaces kept
  JS
}

hook "flush" {
  event = "Stop"
        ts=<<TS
export default function (event) {
    return {  };
}
TS
}

hook "list" {
  event = "PreToolUse"
  command = ["sh", "-c", <<-SH
      echo   "indented as written"
    SH
  ]
}
