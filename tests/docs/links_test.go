package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// root is the repository's root, seen from this package's directory.
const root = "../.."

// docFiles are the Markdown files whose links TestLinks checks: the README,
// SECURITY.md and every page of docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(root, "README.md"), filepath.Join(root, "SECURITY.md")}, pages...)
}

// TestLinks checks that every relative link of the README, SECURITY.md and
// docs/*.md resolves: the file or directory it names exists, and a #fragment
// is the GitHub anchor of a heading of the Markdown file it points into.
func TestLinks(t *testing.T) {
	anchors := map[string]map[string]bool{} // by cleaned path
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := headingAnchors(string(b))
		anchors[path] = a
		return a
	}
	n := 0
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range markdownLinks(string(b)) {
			if strings.Contains(l.target, "://") || strings.HasPrefix(l.target, "mailto:") {
				continue
			}
			n++
			path, frag, _ := strings.Cut(l.target, "#")
			target := filepath.Clean(file)
			if path != "" {
				target = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s:%d: link to %s: %v", rel(file), l.line, l.target, err)
					continue
				}
			}
			if frag == "" {
				continue
			}
			if !strings.HasSuffix(target, ".md") {
				t.Errorf("%s:%d: link to %s: a fragment of a file that is not Markdown", rel(file), l.line, l.target)
				continue
			}
			if !anchorsOf(target)["#"+frag] {
				t.Errorf("%s:%d: link to %s: %s has no heading with the anchor #%s", rel(file), l.line, l.target, rel(target), frag)
			}
		}
	}
	if n == 0 {
		t.Fatal("no relative link found: the link extraction is broken")
	}
}

func rel(path string) string {
	r, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}

// link is a Markdown link's target and the line it is on.
type link struct {
	target string
	line   int
}

var linkRE = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)

// markdownLinks returns the inline links of a Markdown text, outside fenced
// code blocks and code spans.
func markdownLinks(text string) []link {
	prose := stripCode(text)
	var links []link
	for _, m := range linkRE.FindAllStringSubmatchIndex(prose, -1) {
		links = append(links, link{target: prose[m[2]:m[3]], line: 1 + strings.Count(prose[:m[0]], "\n")})
	}
	return links
}

// stripCode blanks fenced code blocks and code spans out of a Markdown text,
// keeping its newlines so that offsets still give line numbers.
func stripCode(text string) string {
	lines := strings.Split(text, "\n")
	fence := ""
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case fence == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			fence = trimmed[:3]
			lines[i] = ""
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			lines[i] = ""
		}
	}
	text = strings.Join(lines, "\n")
	var b strings.Builder
	for i := 0; i < len(text); {
		if text[i] != '`' {
			b.WriteByte(text[i])
			i++
			continue
		}
		n := 0
		for i+n < len(text) && text[i+n] == '`' {
			n++
		}
		closing := findRun(text, i+n, n)
		if closing < 0 { // a lone run of backticks is text
			b.WriteString(text[i : i+n])
			i += n
			continue
		}
		b.WriteString(strings.Repeat("\n", strings.Count(text[i:closing+n], "\n")))
		i = closing + n
	}
	return b.String()
}

// findRun returns the offset from from on of the next run of exactly n
// backticks, or -1.
func findRun(text string, from, n int) int {
	for i := from; i < len(text); {
		if text[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(text) && text[j] == '`' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}

var (
	headingRE    = regexp.MustCompile(`^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$`)
	inlineLinkRE = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTagRE    = regexp.MustCompile(`<[^>]+>`)
	htmlIDRE     = regexp.MustCompile(`<a\s+(?:name|id)="([^"]+)"`)
)

// headingAnchors returns the anchors GitHub gives the headings of a Markdown
// text ("#heading-text", with -1, -2 for repeated ones) and those of
// <a name="..."> or id="..." tags.
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	fence := ""
	for _, l := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(l, " ")
		if fence == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
			fence = trimmed[:3]
			continue
		}
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		for _, m := range htmlIDRE.FindAllStringSubmatch(l, -1) {
			anchors["#"+m[1]] = true
		}
		m := headingRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		s := slug(m[1])
		if k := seen[s]; k > 0 {
			anchors["#"+s+"-"+strconv.Itoa(k)] = true
		} else {
			anchors["#"+s] = true
		}
		seen[s]++
	}
	return anchors
}

// slug is GitHub's anchor for a heading's text: the rendered text lower-cased,
// without punctuation but hyphens and underscores, each space a hyphen.
func slug(heading string) string {
	heading = inlineLinkRE.ReplaceAllString(heading, "$1")
	heading = htmlTagRE.ReplaceAllString(heading, "")
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestSlug pins the anchors GitHub gives headings the pages have.
func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Running a fleet: shared state on NATS":     "running-a-fleet-shared-state-on-nats",
		"What `dangerous-commands` sees":            "what-dangerous-commands-sees",
		"Quickstart: guard `rm -rf` in Claude Code": "quickstart-guard-rm--rf-in-claude-code",
		"See [the CLI](cli.md) now":                 "see-the-cli-now",
		"hookctl_client v2.1":                       "hookctl_client-v21",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
	a := headingAnchors("# A\n```\n# not a heading\n```\n## A\n### B #\n")
	for _, want := range []string{"#a", "#a-1", "#b"} {
		if !a[want] {
			t.Errorf("headingAnchors lacks %s: %v", want, a)
		}
	}
	if a["#not-a-heading"] {
		t.Error("headingAnchors took a line of a code block for a heading")
	}
}
