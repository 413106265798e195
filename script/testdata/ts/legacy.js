module.exports = { why: "legacy says so" };
