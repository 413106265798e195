module.exports = function () {
  return require("../outside/secret.js");
};
