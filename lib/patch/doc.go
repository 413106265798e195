// Package patch reads the file operations out of the patch text of Codex's
// apply_patch tool: which files a patch adds, updates, deletes or moves,
// and the content of the files it adds.
//
// The format is Codex's:
//
//	*** Begin Patch
//	*** Add File: PATH
//	+line
//	*** Update File: PATH
//	*** Move to: NEWPATH
//	@@ context
//	-old
//	+new
//	*** Delete File: PATH
//	*** End Patch
//
// Parse follows the leniencies of Codex's own parser (whitespace around
// the markers, a heredoc wrapper <<'EOF' ... EOF around the patch, blank
// lines between chunks), so that the files it reports are the files Codex
// would touch. Text Codex would refuse is an error (*SyntaxError): a
// caller guarding file access must then treat the files as unknown, never
// as none.
//
// Paths are returned as the patch spells them (relative to the session's
// working directory, or absolute); resolving them is the caller's job.
// The package is pure Go with no state; its functions are safe for
// concurrent use.
package patch
