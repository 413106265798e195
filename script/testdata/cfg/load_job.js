// A module whose load fails with a thrown object; reading that object
// queues a promise job (see TestModuleLoadJobsRunWithoutACall).
throw { toString() { Promise.resolve().then(() => require("probe").who()); return "load failed"; } };
