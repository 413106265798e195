// Package lsp is hookctl's language server (`hookctl lsp`): the Language
// Server Protocol over a byte stream (stdio) for hookctl configuration
// files (*.hcl) and test files (*_test.hcl).
//
// It publishes diagnostics as a document changes — the checks of
// hookctl validate (the configuration directory loaded the way validate
// loads it, open buffers read instead of the disk, then lint.Check) and
// of hookctl test (hcl.ParseTests), each with its stable HK code — and
// answers completion (block types and attributes, event names, tool
// names in matchers, built-ins and their options, payload paths in
// `when`), hover (events, built-ins and their options, payload fields)
// and go-to-definition (script files, required modules).
//
// Checks run in the background, one at a time per configuration: an edit
// supersedes the running check, whose result is dropped, so that a slow
// load never holds up the answers. A malformed message is answered with
// an error and reading goes on.
package lsp
