package hosts_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/protocol/hosts"
)

// subcommandFiles compare a hookctl subcommand with the string "claude"
// (hookctl claude, the command Claude Code runs): the same word as the
// host's name, but the CLI's vocabulary, not a host switch.
var subcommandFiles = map[string]bool{
	"cmd/hookctl-client/main.go": true,
	"cmd/hookctl/daemon.go":      true,
	"cmd/hookctl/signal.go":      true,
}

// hostNameUses returns, for the module at root, every place outside
// protocol/<name>/ where a non-test file switches on a registry name or
// compares a value with one: a case clause or an == / != with the name
// as a string literal.
func hostNameUses(t *testing.T, root string, names []string) []string {
	t.Helper()
	isName := map[string]bool{}
	for _, n := range names {
		isName[n] = true
	}
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor" || n == "node_modules") {
				return filepath.SkipDir
			}
			if path == filepath.Join(root, "tests") {
				// The harness that drives the real hosts (tests/e2e's
				// fake model APIs) knows them by name; it is not hookctl.
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		flag := func(lit ast.Expr, how string) {
			bl, ok := lit.(*ast.BasicLit)
			if !ok || bl.Kind != token.STRING {
				return
			}
			s, err := strconv.Unquote(bl.Value)
			if err != nil || !isName[s] {
				return
			}
			if strings.HasPrefix(rel, "protocol/"+s+"/") || subcommandFiles[rel] && s == "claude" {
				return
			}
			found = append(found, fset.Position(bl.Pos()).String()+": "+how+" "+bl.Value)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CaseClause:
				for _, e := range n.List {
					flag(e, "case")
				}
			case *ast.BinaryExpr:
				if n.Op == token.EQL || n.Op == token.NEQ {
					flag(n.X, n.Op.String())
					flag(n.Y, n.Op.String())
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestNoHostSwitchOutsideItsPackage fails when a file of the module other
// than protocol/<name>/ switches on a protocol's name or compares with
// it: what differs between hosts is a method of their protocol, so that a
// new host is one package and one registry line.
func TestNoHostSwitchOutsideItsPackage(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	for _, use := range hostNameUses(t, root, hosts.New().Conventions()) {
		t.Errorf("%s: a host name switched on or compared outside its protocol package; make it a method of protocol.Protocol", use)
	}
}

// TestHostSwitchIsFound: the check sees a switch and a comparison.
func TestHostSwitchIsFound(t *testing.T) {
	root := t.TempDir()
	src := `package x

func f(h string) int {
	switch h {
	case "crush":
		return 1
	}
	if "gemini" == h || h != "opta" {
		return 2
	}
	return 0
}
`
	if err := os.MkdirAll(filepath.Join(root, "protocol", "crush"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"x.go", "protocol/crush/x.go"} {
		if err := os.WriteFile(filepath.Join(root, p), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := hostNameUses(t, root, hosts.New().Conventions())
	if len(got) != 5 || !strings.Contains(strings.Join(got, "\n"), `x.go:5:7: case "crush"`) {
		t.Fatalf("found %q, want the three in x.go and gemini and opta in protocol/crush/x.go", got)
	}
}
