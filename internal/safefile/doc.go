// Package safefile opens and reads files named by hook scripts and by hook
// payloads without ever letting the hook wait past its deadline.
//
// A path a hook reads may name anything: a FIFO (whose open(2) blocks until
// a writer appears and whose read blocks until it writes), a socket, a
// character device such as /dev/zero (endless) or a terminal, or a file of
// a pseudo file system such as /proc or /sys whose size says nothing about
// how much reading it returns. Open and OpenFile refuse all of these with a
// *NotRegularError: they open with O_NONBLOCK, so opening a FIFO or a
// device returns at once, then check the open file's type with fstat(2)
// (and, on Linux, its file system with fstatfs(2)) before anything reads
// it. Only regular files and, where asked, directories are accepted.
//
// Bounded runs an operation that may still block in the kernel (a file on a
// hung network or FUSE mount) on a goroutine of its own and returns when the
// caller's context ends, whatever the operation is doing; what the
// abandoned operation eventually returns is released. ReadFile puts both
// together: a bounded, size-capped read of a regular file that checks the
// context between chunks.
package safefile
