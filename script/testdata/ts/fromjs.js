const { check } = require("./lib/check.js");

module.exports = function (event) {
  return check(event.tool_input.command);
};
