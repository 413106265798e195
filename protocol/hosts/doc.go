// Package hosts is the registry of the protocols hookctl ships: New
// lists them, one line per host, in a protocol.Registry that the CLI
// (hook, claude, install, import) and assemble (a command hook's protocol
// attribute) look them up in. Nothing else names a host.
package hosts
