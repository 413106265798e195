// Package stdlib is what hook authors get without writing it: the
// JavaScript modules scripts require as "hookctl/NAME" (decision, path,
// shell, fs, exec, kv, log, secrets, transcript, http), the helper
// functions of `when` conditions, and the built-in hook pack.
//
// The modules are native Go behind small JavaScript APIs (see
// hookctl.d.ts for their types). Those that touch the outside check the
// calling hook's capabilities: exec needs "exec", http needs "net", writing
// files needs "write"; reading files is limited to the project and
// configuration roots unless the hook has "read".
//
// Its sub-packages hold the pieces themselves, usable from Go: paths,
// shell, proc, kv, jsonl, secrets, transcript.
package stdlib
