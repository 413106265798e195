package hcl_test

import (
	"bytes"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/hcl"
)

var update = flag.Bool("update", false, "rewrite docs/diagnostics.md from the table of codes")

const codesDoc = "../docs/diagnostics.md"

// TestCodesDoc: docs/diagnostics.md is the table of codes, generated from
// it; a code added, renamed or given another summary fails here until the
// document is regenerated (-update).
func TestCodesDoc(t *testing.T) {
	var b bytes.Buffer
	if err := hcl.WriteCodesMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(codesDoc, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(codesDoc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Fatalf("%s is not the table of hcl/codes.go: run go test ./hcl -run TestCodesDoc -update", codesDoc)
	}
	// Every code is in the document, once.
	for _, c := range hcl.Codes() {
		if n := strings.Count(string(got), "| "+string(c.Code)+" |"); n != 1 {
			t.Errorf("%s is in the document %d times", c.Code, n)
		}
	}
}

// TestCodesTable: codes are HK and four digits, unique, grouped by their
// first two digits, and a summary has one code.
func TestCodesTable(t *testing.T) {
	seen, sums, groups := map[hcl.Code]bool{}, map[string]hcl.Code{}, map[string]string{}
	re := regexp.MustCompile(`^HK1\d{3}$`)
	for _, c := range hcl.Codes() {
		if !re.MatchString(string(c.Code)) {
			t.Errorf("%q is not HK and four digits", c.Code)
		}
		if seen[c.Code] {
			t.Errorf("%s is listed twice", c.Code)
		}
		seen[c.Code] = true
		prefix := string(c.Code)[:4]
		if g, ok := groups[prefix]; ok && g != c.Group {
			t.Errorf("%s is in group %q, its neighbours in %q", c.Code, c.Group, g)
		}
		groups[prefix] = c.Group
		if c.Title == "" {
			t.Errorf("%s has no title", c.Code)
		}
		for _, s := range c.Summaries {
			if prev, ok := sums[s]; ok {
				t.Errorf("summary %q has two codes, %s and %s", s, prev, c.Code)
			}
			sums[s] = c.Code
			if got := hcl.CodeOf(s); got != c.Code {
				t.Errorf("CodeOf(%q) = %s, want %s", s, got, c.Code)
			}
		}
	}
	if hcl.CodeOf("no such summary") != hcl.CodeOther {
		t.Error("an unknown summary is not CodeOther")
	}
}

// goSource is the module's Go code (test files excepted): the string
// literals and identifiers it holds, and the calls that report a
// diagnostic.
type goSource struct {
	literals map[string]bool
	idents   map[string]bool
	// summaries are the summaries given to a reporting call, by position.
	summaries map[string]string
	// dynamic are reporting calls whose summary is neither a literal nor
	// a parameter passed on.
	dynamic []string
}

// reporters are the functions that report a diagnostic, with the index of
// their summary argument.
var reporters = map[string]int{
	"errorf": 1, "warnf": 1, "Errorf": 1, "Warnf": 1, "warn": 1,
	"ErrorAt": 2, "ErrorAtFile": 2, "NewDiagnostic": 2,
}

func scanModule(t *testing.T) *goSource {
	t.Helper()
	src := &goSource{literals: map[string]bool{}, idents: map[string]bool{}, summaries: map[string]string{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != "..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Base(path) == "codes.go" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		// Diagnostics are reported by package hcl and by the code that
		// imports it.
		reports := f.Name.Name == "hcl"
		for _, imp := range f.Imports {
			reports = reports || imp.Path.Value == `"github.com/hookctl/hookctl/hcl"`
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					if s, err := strconv.Unquote(n.Value); err == nil {
						src.literals[s] = true
					}
				}
			case *ast.Ident:
				src.idents[n.Name] = true
			case *ast.CallExpr:
				name := ""
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					if x, ok := fn.X.(*ast.Ident); ok && (x.Name == "fmt" || x.Name == "errors") {
						return true
					}
					name = fn.Sel.Name
				}
				i, ok := reporters[name]
				if !reports || !ok || len(n.Args) <= i+1 {
					return true
				}
				at := fset.Position(n.Pos()).String()
				switch a := n.Args[i].(type) {
				case *ast.BasicLit:
					if s, err := strconv.Unquote(a.Value); err == nil && a.Kind == token.STRING {
						src.summaries[at] = s
					}
				case *ast.Ident:
					if a.Name != "summary" { // a parameter passed on
						src.dynamic = append(src.dynamic, at)
					}
				case *ast.SelectorExpr:
					if a.Sel.Name != "Summary" { // a diagnostic's, passed on
						src.dynamic = append(src.dynamic, at)
					}
				default:
					// The summaries an expression chooses from are
					// literals in it.
					n := 0
					ast.Inspect(a, func(x ast.Node) bool {
						if l, ok := x.(*ast.BasicLit); ok && l.Kind == token.STRING {
							if s, err := strconv.Unquote(l.Value); err == nil {
								src.summaries[at+" "+strconv.Itoa(n)] = s
								n++
							}
						}
						return true
					})
					if n == 0 {
						src.dynamic = append(src.dynamic, at)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestCodesCoverSource: every summary the code reports has a code of its
// own (not CodeOther), and every code in the table is used: its summaries
// are written in hookctl's code (or, for the HCL library's, in the
// library's), and a code without summaries is named by Go code.
func TestCodesCoverSource(t *testing.T) {
	src := scanModule(t)
	if len(src.summaries) < 50 {
		t.Fatalf("only %d reporting calls found: the scan is broken", len(src.summaries))
	}
	for at, s := range src.summaries {
		if hcl.CodeOf(s) == hcl.CodeOther {
			t.Errorf("%s: summary %q has no code: add it to hcl/codes.go", at, s)
		}
	}
	for _, at := range src.dynamic {
		t.Errorf("%s: a diagnostic's summary is computed; write it as a literal so that it has a code", at)
	}
	var lib []byte
	for _, c := range hcl.Codes() {
		if len(c.Summaries) == 0 {
			name := constName(t, c.Code)
			if !src.idents[name] {
				t.Errorf("%s (%s) is not used outside codes.go", c.Code, name)
			}
			continue
		}
		for _, s := range c.Summaries {
			if src.literals[s] {
				continue
			}
			if c.Library {
				if lib == nil {
					lib = hclLibrarySource(t)
				}
				if bytes.Contains(lib, []byte(strconv.Quote(s))) {
					continue
				}
			}
			t.Errorf("%s: summary %q is not reported anywhere", c.Code, s)
		}
	}
}

// constName is the name of the constant of code c in codes.go.
func constName(t *testing.T, c hcl.Code) string {
	t.Helper()
	b, err := os.ReadFile("codes.go")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*(Code\w+)\s+Code\s*=\s*"` + string(c) + `"`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s has no summaries and no constant in codes.go", c)
	}
	return string(m[1])
}

// hclLibrarySource is the Go source of the HCL library, concatenated.
func hclLibrarySource(t *testing.T) []byte {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/hashicorp/hcl/v2").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var all []byte
	_ = filepath.WalkDir(strings.TrimSpace(string(out)), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			b, _ := os.ReadFile(path)
			all = append(all, b...)
		}
		return nil
	})
	return all
}

// TestCodesGolden pins known inputs to their codes: a code must not
// change for the same problem.
func TestCodesGolden(t *testing.T) {
	cases := []struct {
		name, src string
		want      []hcl.Code
	}{
		{"syntax", "hook \"x\" {\n  event = \n}\n", []hcl.Code{"HK1001", "HK1102", "HK1602"}},
		{"unclosed", "hook \"x\" {\n", []hcl.Code{"HK1001", "HK1302", "HK1602"}},
		{"unknown block", "hoook \"x\" {}\n", []hcl.Code{"HK1201"}},
		{"unknown attribute", "hook \"x\" {\n  event = \"Stop\"\n  matchr = \"Bash\"\n  decision = \"allow\"\n}\n", []hcl.Code{"HK1202"}},
		{"unknown event", "hook \"x\" {\n  event = \"PreToolUs\"\n  decision = \"allow\"\n}\n", []hcl.Code{"HK1301"}},
		{"missing event", "hook \"x\" {\n  decision = \"allow\"\n}\n", []hcl.Code{"HK1302"}},
		{"condition", "hook \"x\" {\n  event = \"PreToolUse\"\n  when = \"tool_input.command ===\"\n  decision = \"deny\"\n}\n", []hcl.Code{"HK1401"}},
		{"unknown variable", "hook \"x\" {\n  event = \"Stop\"\n  reason = nope\n  decision = \"block\"\n}\n", []hcl.Code{"HK1203"}},
		{"duration", "hook \"x\" {\n  event = \"Stop\"\n  timeout = \"soon\"\n  decision = \"block\"\n}\n", []hcl.Code{"HK1103"}},
		{"duplicate id", "hook \"x\" {\n  event = \"Stop\"\n  decision = \"block\"\n}\nhook \"x\" {\n  event = \"Stop\"\n  decision = \"block\"\n}\n", []hcl.Code{"HK1601"}},
		{"type", "hook \"x\" {\n  event = \"Stop\"\n  enabled = \"maybe\"\n  decision = \"block\"\n}\n", []hcl.Code{"HK1101"}},
		{"locals cycle", "locals {\n  a = local.b\n  b = local.a\n}\n", []hcl.Code{"HK1704"}},
		{"setting", "settings {\n  max_concurrency = 0\n}\n", []hcl.Code{"HK1701"}},
		{"matcher warning", "hook \"x\" {\n  event = \"Stop\"\n  matcher = \"Bash\"\n  decision = \"block\"\n}\n", []hcl.Code{"HK1404"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := hcl.ParseSource("x.hcl", []byte(tc.src), t.TempDir()).Diagnostics()
			var got []hcl.Code
			for _, x := range d.List {
				if x.Code == "" {
					t.Errorf("no code: %+v", x)
				}
				if !slices.Contains(got, x.Code) {
					got = append(got, x.Code)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("codes %v, want %v:\n%v", got, tc.want, renderAll(d))
			}
			// The rendered text shows the code beside the position.
			if r := renderAll(d); !strings.Contains(r, "x.hcl:") || !strings.Contains(r, "["+string(tc.want[0])+"]: ") {
				t.Fatalf("the code is not rendered:\n%s", r)
			}
		})
	}
}

func renderAll(d *hcl.Diagnostics) string {
	var b bytes.Buffer
	d.Render(&b)
	return b.String()
}

// TestRenderWithoutCode: a diagnostic an embedder builds without a code
// renders as before, with no empty brackets.
func TestRenderWithoutCode(t *testing.T) {
	d := &hcl.Diagnostics{List: []hcl.Diagnostic{{File: "a.hcl", Line: 1, Column: 2, Severity: hcl.SeverityError, Summary: "Bad"}}}
	if got := renderAll(d); got != "a.hcl:1:2: error: Bad\n" {
		t.Fatalf("%q", got)
	}
	d.List[0].Code = "HK1102"
	if got := renderAll(d); got != "a.hcl:1:2: error[HK1102]: Bad\n" {
		t.Fatalf("%q", got)
	}
}
