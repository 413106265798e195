module.exports = function (event, ctx) {
  return helper(event);
};

function helper(event) {
  return event.nope.deeper; // line 6
}
