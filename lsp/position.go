package lsp

import (
	"bytes"
	"fmt"
	"net/url"
	"path"
	goruntime "runtime"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/apparentlymart/go-textseg/v15/textseg"

	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/termsafe"
)

// hostWindows says whether file: URIs name Windows paths here.
const hostWindows = goruntime.GOOS == "windows"

// uriPath returns the absolute, clean path of a file: URI, by the
// server's platform rules.
func (s *Server) uriPath(uri string) (string, error) { return uriPathFor(uri, s.win) }

// docKey is the key of the open document at path (a path uriPathFor
// returned) with Windows' rules (win) or Unix's. Windows compares names
// regardless of case, and editors spell one file differently
// (file:///C:/p/h.hcl, VS Code's file:///c%3A/p/h.hcl): its key is the
// whole path in upper case, Windows' own folding (NTFS compares names
// upper-cased), so both are one document. On Unix a name's case is part
// of it and the key is the path. A document keeps its path as written,
// to read and to show.
func docKey(path string, win bool) string {
	if win {
		return strings.Map(ntfsUpper, path)
	}
	return path
}

// ntfsUpper is a letter upper-cased as NTFS compares names, as near as
// Unicode's simple mapping gives it: except that a letter from outside
// ASCII never becomes an ASCII one (Go maps ſ to S and ı to I, NTFS's
// table does not: hookſ.hcl and hooks.hcl are two files there).
func ntfsUpper(r rune) rune {
	u := unicode.ToUpper(r)
	if r >= utf8.RuneSelf && u < utf8.RuneSelf {
		return r
	}
	return u
}

// uriPathFor is uriPath with Windows' rules (win) or Unix's: on Windows
// file:///C:/dir/f.hcl (and file:///c%3A/dir/f.hcl, as VS Code writes it)
// is C:\dir\f.hcl and file://server/share/f.hcl the UNC path
// \\server\share\f.hcl; on Unix a URI naming another host is refused.
func uriPathFor(uri string, win bool) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("lsp: not a file URI: %s", uri)
	}
	remote := u.Host != "" && !strings.EqualFold(u.Host, "localhost")
	p := u.Path
	if !win {
		if remote {
			return "", fmt.Errorf("lsp: a file URI of another host: %s", uri)
		}
		if !strings.HasPrefix(p, "/") {
			return "", fmt.Errorf("lsp: not an absolute path: %s", uri)
		}
		return path.Clean(p), nil
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if remote {
		// \\server\share\rest: the share is part of the volume.
		share, rest, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
		if share == "" {
			return "", fmt.Errorf("lsp: a UNC path without a share: %s", uri)
		}
		return `\\` + u.Host + `\` + share + winClean("/"+rest), nil
	}
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // /C:/dir -> C:/dir
	}
	if len(p) < 3 || p[1] != ':' || p[2] != '/' || !isLetter(p[0]) {
		return "", fmt.Errorf("lsp: not an absolute path: %s", uri)
	}
	return p[:2] + winClean(p[2:]), nil
}

// winClean cleans the rooted slash path p and writes it with backslashes.
func winClean(p string) string {
	return strings.ReplaceAll(path.Clean(p), "/", `\`)
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// pathURI returns the file: URI of an absolute path.
func pathURI(p string) string { return pathURIFor(p, hostWindows) }

// pathURIFor is pathURI with Windows' rules (win) or Unix's.
func pathURIFor(p string, win bool) string {
	if !win {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	s := strings.ReplaceAll(p, `\`, "/")
	if host, rest, ok := strings.Cut(strings.TrimPrefix(s, "//"), "/"); ok && strings.HasPrefix(s, "//") {
		return (&url.URL{Scheme: "file", Host: host, Path: "/" + rest}).String()
	}
	return (&url.URL{Scheme: "file", Path: "/" + s}).String()
}

// lineStart returns the byte offset where 0-based line n starts (the end
// of text past its last line).
func lineStart(text []byte, n int) int {
	off := 0
	for ; n > 0; n-- {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	return off
}

// lineEnd returns the offset of the end of the line starting at off.
func lineEnd(text []byte, off int) int {
	if i := bytes.IndexByte(text[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(text)
}

// offsetOf converts an LSP position (UTF-16 code units) into a byte
// offset, clamped to the line and the text.
func offsetOf(text []byte, p Position) int {
	if p.Line < 0 {
		return 0
	}
	off := lineStart(text, p.Line)
	end := lineEnd(text, off)
	for units := 0; off < end && units < p.Character; {
		r, size := utf8.DecodeRune(text[off:end])
		units += utf16.RuneLen(r)
		if units > p.Character {
			break
		}
		off += size
	}
	return off
}

// positionOf converts a byte offset into an LSP position.
func positionOf(text []byte, off int) Position {
	off = min(max(off, 0), len(text))
	line := bytes.Count(text[:off], []byte{'\n'})
	start := bytes.LastIndexByte(text[:off], '\n') + 1
	return Position{Line: line, Character: utf16Len(text[start:off])}
}

func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			n++ // an invalid byte shows as U+FFFD, one unit
		} else {
			n += utf16.RuneLen(r)
		}
		b = b[size:]
	}
	return n
}

// hclPosition converts a diagnostic's 1-based line and column (HCL
// counts columns in grapheme clusters) into an LSP position in text.
func hclPosition(text []byte, line, column int) Position {
	if line < 1 {
		return Position{}
	}
	off := lineStart(text, line-1)
	end := lineEnd(text, off)
	rest := text[off:end]
	for c := 1; c < column && len(rest) > 0; c++ {
		adv, _, _ := textseg.ScanGraphemeClusters(rest, true)
		if adv <= 0 {
			break
		}
		rest = rest[adv:]
	}
	return positionOf(text, end-len(rest))
}

// toLSP converts a diagnostic of the file whose text is given.
func toLSP(d hcl.Diagnostic, text []byte) Diagnostic {
	start := hclPosition(text, d.Line, d.Column)
	end := start
	if d.EndLine > 0 {
		end = hclPosition(text, d.EndLine, d.EndColumn)
	}
	if end.Line < start.Line || (end.Line == start.Line && end.Character < start.Character) {
		end = start
	}
	if end == start && d.Line > 0 {
		// An empty range is hard to see: underline the rest of the word.
		off := offsetOf(text, start)
		e := off
		for e < len(text) && !strings.ContainsRune(" \t\r\n", rune(text[e])) {
			e++
		}
		end = positionOf(text, e)
	}
	sev := SeverityError
	if d.Severity == hcl.SeverityWarning {
		sev = SeverityWarning
	}
	// The detail is the exact text (a hook id with a bidi override or an
	// escape sequence): escaped here, as validate's text output does, so
	// that an editor shows it for what it is.
	msg := termsafe.Escape(d.Summary)
	if d.Detail != "" {
		lines := strings.Split(d.Detail, "\n")
		for i, l := range lines {
			lines[i] = termsafe.Escape(l)
		}
		msg += ": " + strings.Join(lines, "\n")
	}
	out := Diagnostic{Range: Range{Start: start, End: end}, Severity: sev, Code: string(d.Code), Source: "hookctl", Message: msg}
	if d.Suggestion != "" {
		out.Data = &DiagnosticData{Suggestion: d.Suggestion}
	}
	return out
}
