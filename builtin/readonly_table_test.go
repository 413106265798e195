package builtin

import (
	"slices"
	"testing"
)

// TestReadOnlyCommandsPrintNoFile: read-only-approver approves two kinds of
// command: secret-files' readers marked ro, whose files secret-files judges,
// and readOnlyCommands, which must print no file's bytes. A command in
// readOnlyCommands must be listed here, after checking that it prints none
// (else it belongs in readers), and none may be in both tables.
func TestReadOnlyCommandsPrintNoFile(t *testing.T) {
	printsNoFile := []string{
		"ls", "wc", "pwd", "echo", "printf", "which", "type", "whereis", "stat", "du", "df", "basename",
		"dirname", "realpath", "readlink", "true", "false", "test", "[", "whoami", "id", "groups", "uname",
		"tr", "seq", "sha256sum", "sha1sum", "sha512sum", "md5sum", "cksum", "printenv", "env", "ps", "sleep",
		"cd", "pushd", "popd", "xargs", "find", "tree", "file", "hostname", "command", "git", "go",
	}
	for name := range readOnlyCommands {
		if !slices.Contains(printsNoFile, name) {
			t.Errorf("read-only command %q is not known to print no file: make it a reader (ro) in readers, or list it here", name)
		}
		if _, ok := readers[name]; ok {
			t.Errorf("%q is both a reader and a read-only command", name)
		}
	}
	for name, r := range readers {
		if r.roCheck != nil && !r.ro {
			t.Errorf("reader %q has a read-only check but is not read-only", name)
		}
	}
}
