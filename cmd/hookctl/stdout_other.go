//go:build !unix

package main

// reserveStdout does nothing where descriptors cannot be duplicated the
// unix way; the files hookctl writes still refuse links (safefile).
func (a *app) reserveStdout() (release func(), err error) { return func() {}, nil }
