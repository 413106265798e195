module.exports = { secret: true };
