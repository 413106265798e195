const x = require("./does-not-exist.js");
module.exports = function () {};
