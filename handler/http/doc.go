// Package http is the http handler kind: a hook that POSTs the payload
// as JSON to a URL (limited to the settings' http_allow) and reads the
// reply like a Claude Code command hook's stdout. Redirects are not
// followed; header values take $VAR only from the variables allowed.
package http
