// Module-level state: shared by the hooks of one runtime, which lets tests
// tell whether two calls ran on the same runtime.
let value;
let count = 0;
module.exports = {
  get: () => value,
  set: (v) => { value = v; },
  next: () => ++count,
};
