package daemon

import (
	"errors"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestSupported: the daemon runs where its transport checks its callers
// (unix sockets; Windows' named pipes); elsewhere it is refused with a
// reason that says what the client does instead.
func TestSupported(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if err := supported(goos, true); err != nil {
			t.Fatalf("%s: %v", goos, err)
		}
	}
	if err := Supported(); err != nil {
		t.Fatalf("here: %v", err)
	}
	err := supported("plan9", false)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "plan9") || !strings.Contains(err.Error(), "runs hookctl itself") {
		t.Fatalf("plan9: %v", err)
	}
}

// TestWindowsSupported: the package as built for Windows declares its
// transport checked (callerChecked, read from its Windows sources), so
// Supported is nil there and the client uses the daemon; run on any
// system.
func TestWindowsSupported(t *testing.T) {
	bc := build.Default
	bc.GOOS, bc.GOARCH = "windows", "amd64"
	pkg, err := bc.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var found []string
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if n.Name == "callerChecked" && i < len(vs.Values) {
						if id, ok := vs.Values[i].(*ast.Ident); ok {
							found = append(found, name+": "+id.Name)
						}
					}
				}
			}
		}
	}
	if len(found) != 1 || !strings.HasSuffix(found[0], ": true") {
		t.Fatalf("callerChecked on windows: %v", found)
	}
}
