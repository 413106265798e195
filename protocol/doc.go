// Package protocol is what every agent host's hook protocol is to
// hookctl: the interface Protocol (decode a payload onto the catalog,
// encode an outcome per event, the exit status that blocks, whether the
// host can ask, how its own scripts read a payload and answer, its
// configuration file for install and import, detection hints and what it
// cannot express), the decoded Event, the Reply, and Handle, which fires
// an event and answers in its protocol.
//
// Each host is a package of its own under protocol/ (claude, codex,
// gemini, cursor, copilot, crush; opta is a command convention only), and
// protocol/hosts lists them in a Registry: nothing else names a host. A
// new host is one package and one line in that list. Table holds what
// most hosts are made of (their event and field names as data); a host's
// package embeds one and adds what is its own.
//
// A decision a host cannot express is mapped by a stated policy and said
// on stderr: an ask on crush or Codex is a deny by default (AskDeny),
// because a guard that cannot ask must not allow. An event the catalog
// does not have is reported, never silently allowed.
package protocol
