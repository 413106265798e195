// Package daemonserver is the hookctl daemon's transport: it listens on
// the daemon's unix socket (Listen), accepts the connections of
// hookctl-client, answers only the processes of its own user, refuses a
// call that is not its own (another binary, working directory,
// environment, umask or resource limits), reads the typed request and
// writes the response a Handler gives (Serve), and exits when no call came
// for a while.
//
// It is apart from package daemon, which the client links: the client
// must not pay for package net's initialisation.
package daemonserver
