package patch

import (
	"fmt"
	"strings"
)

// The markers of the format.
const (
	beginMarker  = "*** Begin Patch"
	endMarker    = "*** End Patch"
	addMarker    = "*** Add File: "
	deleteMarker = "*** Delete File: "
	updateMarker = "*** Update File: "
	moveMarker   = "*** Move to: "
	eofMarker    = "*** End of File"
)

// Op is what a patch does to one file.
type Op string

// The operations of a patch.
const (
	Add    Op = "add"
	Update Op = "update"
	Delete Op = "delete"
)

// File is one file operation of a patch.
type File struct {
	Op   Op
	Path string
	// MoveTo is the new path of an updated file that is renamed ("" when
	// it is not).
	MoveTo string
	// Content is the content of an added file.
	Content string
}

// Patch is the file operations of a patch, in the order it gives them.
type Patch struct {
	Files []File
}

// Paths returns every path the patch touches, in order, each once: the
// path of each operation, followed by its move target.
func (p *Patch) Paths() []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, f := range p.Files {
		add(f.Path)
		add(f.MoveTo)
	}
	return out
}

// Added returns the files the patch adds.
func (p *Patch) Added() []File {
	var out []File
	for _, f := range p.Files {
		if f.Op == Add {
			out = append(out, f)
		}
	}
	return out
}

// SyntaxError is patch text Codex would not apply. Line is the 1-based
// line of the problem (0 for the patch as a whole).
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.Line == 0 {
		return "invalid patch: " + e.Msg
	}
	return fmt.Sprintf("invalid patch: line %d: %s", e.Line, e.Msg)
}

// Parse reads the file operations of a patch.
func Parse(text string) (*Patch, error) {
	lines := splitLines(strings.TrimSpace(text))
	body, first, err := bounds(lines)
	if err != nil {
		return nil, err
	}
	p := &Patch{}
	for len(body) > 0 {
		f, n, err := parseOne(body, first)
		if err != nil {
			return nil, err
		}
		p.Files = append(p.Files, f)
		body, first = body[n:], first+n
	}
	return p, nil
}

// splitLines splits text as Rust's str::lines does: on "\n", with one
// "\r" before it removed, and no empty last line for a final newline.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// bounds checks the begin and end markers, unwrapping a heredoc around
// them, and returns the lines between them and the line number of the
// first.
func bounds(lines []string) ([]string, int, error) {
	body, err := strictBounds(lines)
	if err == nil {
		return body, 2, nil
	}
	if n := len(lines); n >= 4 {
		switch lines[0] {
		case "<<EOF", "<<'EOF'", `<<"EOF"`:
			if strings.HasSuffix(lines[n-1], "EOF") {
				if body, err2 := strictBounds(lines[1 : n-1]); err2 == nil {
					return body, 3, nil
				}
			}
		}
	}
	return nil, 0, err
}

func strictBounds(lines []string) ([]string, error) {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != beginMarker {
		return nil, &SyntaxError{Msg: "the first line must be '" + beginMarker + "'"}
	}
	if len(lines) < 2 || strings.TrimSpace(lines[len(lines)-1]) != endMarker {
		return nil, &SyntaxError{Msg: "the last line must be '" + endMarker + "'"}
	}
	return lines[1 : len(lines)-1], nil
}

// parseOne reads the file operation at the start of lines (line number
// at), returning it and the number of lines it takes.
func parseOne(lines []string, at int) (File, int, error) {
	head := strings.TrimSpace(lines[0])
	if path, ok := strings.CutPrefix(head, addMarker); ok {
		var b strings.Builder
		n := 1
		for _, l := range lines[1:] {
			s, ok := strings.CutPrefix(l, "+")
			if !ok {
				break
			}
			b.WriteString(s)
			b.WriteByte('\n')
			n++
		}
		return File{Op: Add, Path: path, Content: b.String()}, n, nil
	}
	if path, ok := strings.CutPrefix(head, deleteMarker); ok {
		return File{Op: Delete, Path: path}, 1, nil
	}
	path, ok := strings.CutPrefix(head, updateMarker)
	if !ok {
		return File{}, 0, &SyntaxError{Line: at, Msg: fmt.Sprintf("%q is not a file operation (Add File, Update File, Delete File)", head)}
	}
	f := File{Op: Update, Path: path}
	n := 1
	if len(lines) > 1 {
		if to, ok := strings.CutPrefix(lines[1], moveMarker); ok {
			f.MoveTo = to
			n++
		}
	}
	chunks := 0
	for n < len(lines) {
		l := lines[n]
		if strings.TrimSpace(l) == "" {
			n++
			continue
		}
		if strings.HasPrefix(l, "*") {
			break
		}
		k, err := chunk(lines[n:], at+n, chunks == 0)
		if err != nil {
			return File{}, 0, err
		}
		chunks++
		n += k
	}
	if chunks == 0 {
		return File{}, 0, &SyntaxError{Line: at, Msg: fmt.Sprintf("the update of %q has no changes", path)}
	}
	return f, n, nil
}

// chunk reads one change of an update: an optional "@@" context line and
// the lines starting with ' ', '+' or '-' (or empty) that follow,
// returning the number of lines it takes.
func chunk(lines []string, at int, first bool) (int, error) {
	start := 0
	switch {
	case lines[0] == "@@" || strings.HasPrefix(lines[0], "@@ "):
		start = 1
	case !first:
		return 0, &SyntaxError{Line: at, Msg: fmt.Sprintf("a change must start with @@, got %q", lines[0])}
	}
	if start >= len(lines) {
		return 0, &SyntaxError{Line: at + 1, Msg: "a change has no lines"}
	}
	n := 0
	for _, l := range lines[start:] {
		if l == eofMarker {
			if n == 0 {
				return 0, &SyntaxError{Line: at + start, Msg: "a change has no lines"}
			}
			n++
			break
		}
		if l != "" && l[0] != ' ' && l[0] != '+' && l[0] != '-' {
			if n == 0 {
				return 0, &SyntaxError{Line: at + start, Msg: fmt.Sprintf("%q: a changed line starts with ' ', '+' or '-'", l)}
			}
			break
		}
		n++
	}
	return n + start, nil
}
