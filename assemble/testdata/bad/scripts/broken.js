module.exports = function (event) {
  return { decision: "deny", reason: };
};
