module.exports = function (event) {
  if (event.x {
    return;
  }
};
