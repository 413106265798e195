#!/usr/bin/env node
module.exports = function (event) {
  return { reason: "#!" };
};
