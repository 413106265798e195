// Package syncbuf provides Buffer, a bytes.Buffer that one goroutine may
// write while another reads it: for tests that capture what a logger, an
// exporter or a child process writes.
package syncbuf
