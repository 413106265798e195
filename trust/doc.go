// Package trust keeps hookctl's trust records: `hookctl claude` and
// `hookctl serve` run a configuration only if the user trusted it with
// `hookctl trust`, and only as it was then. The records live in one
// per-user file ($HOOKCTL_TRUST_FILE, else <user config dir>/hookctl/
// trusted.json), written atomically with mode 0600; a trust file other
// users can write is refused. Each record pins the content of the files
// the configuration reads, found by decoding it (package hcl) and
// following its scripts' require() calls; trusting runs no hook code.
//
// What a record pins.
//
// A trust record pins the content of every file a configuration loads or
// names, found when the configuration is trusted:
//
//   - its *.hcl files (the file given, or every *.hcl of the directory
//     given; at every check the *.hcl files present now are pinned, so an
//     added file is a change);
//   - the script files its hooks name (script = "..."), as the decoded
//     configuration resolves them (locals and env() evaluated);
//   - every module those scripts and the inline js bodies require() by a
//     literal name, transitively, with every file Node's resolution would
//     try before the one it found (./lib pins lib, lib.js, lib.json,
//     lib/package.json, lib/index.js and lib/index.json, as content or as
//     "absent"), so a file added later cannot shadow the one reviewed;
//   - the files file() and fileexists() read;
//   - the words of command handlers that name files inside the
//     configuration directory (command = ["./lint.sh"], "bash hooks/x.sh").
//
// A configuration whose scripts name modules by computed names
// (require(name), require("pkg") from node_modules), or that does not
// decode, cannot be followed that way: then every regular file under its
// directory is pinned (.git, .hg, .svn and .jj skipped), which is why
// hooks that do that belong in a directory of their own.
//
// Pinning what is named rather than everything under the directory keeps
// a trust valid when unrelated files change: a hooks.hcl at the top of a
// project does not pin the project's code, and .claude/hooks.hcl does not
// pin the settings.local.json Claude Code rewrites.
//
// Check is what the claude and serve paths call before loading; an
// *UntrustedError says why a configuration may not run. A process that
// checks on every call (the daemon behind hookctl-client) checks through
// an Index, which reads the trust file once per version of it and still
// hashes the configuration's files on every call. The functions are
// safe for concurrent use; two Trust calls at the same moment: the last
// write wins.
package trust
