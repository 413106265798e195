package hclfmt

import (
	"bytes"
	"errors"
	"fmt"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/hookctl/hookctl/hcl"
)

// ErrHeredoc reports formatted output whose heredocs cannot be matched
// with the input's, so that their bodies cannot be kept as they were: the
// input is refused rather than changed inside a heredoc. It is not
// expected to happen (formatting changes only white space between
// tokens); it is there so that it can never happen silently.
var ErrHeredoc = errors.New("hclfmt: the formatted heredocs do not match the input's")

// Format returns src, named name in diagnostics, in canonical layout (see
// the package comment). A src that does not parse returns its syntax
// errors as an *hcl.Diagnostics (each with file:line:column) and no
// output.
func Format(name string, src []byte) ([]byte, error) {
	if d := hcl.CheckSource(name, src); d != nil {
		return nil, d
	}
	out, err := keepHeredocs(src, hclwrite.Format(src))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return endWithNewline(out), nil
}

// span is a byte range [start, end) of a source.
type span struct{ start, end int }

// heredocs returns the byte range of each outermost heredoc's body and
// closing marker in src: from the end of its opening <<MARKER line to the
// end of its closing MARKER token. A heredoc inside an interpolation of
// another is part of the outer one.
func heredocs(src []byte) []span {
	toks, _ := hclsyntax.LexConfig(src, "", hcl2.InitialPos)
	var out []span
	depth, start := 0, 0
	for _, t := range toks {
		switch t.Type {
		case hclsyntax.TokenOHeredoc:
			if depth == 0 {
				start = t.Range.End.Byte
			}
			depth++
		case hclsyntax.TokenCHeredoc:
			if depth == 0 {
				continue
			}
			if depth--; depth == 0 {
				out = append(out, span{start, t.Range.End.Byte})
			}
		}
	}
	return out
}

// keepHeredocs returns formatted with the body of each heredoc replaced by
// the input's bytes.
func keepHeredocs(src, formatted []byte) ([]byte, error) {
	in := heredocs(src)
	if len(in) == 0 {
		return formatted, nil
	}
	out := heredocs(formatted)
	if len(out) != len(in) {
		return nil, ErrHeredoc
	}
	var b bytes.Buffer
	b.Grow(len(formatted))
	prev := 0
	for i, o := range out {
		if o.start < prev || o.end > len(formatted) || in[i].end > len(src) {
			return nil, ErrHeredoc
		}
		b.Write(formatted[prev:o.start])
		b.Write(src[in[i].start:in[i].end])
		prev = o.end
	}
	b.Write(formatted[prev:])
	return b.Bytes(), nil
}

// endWithNewline trims the white space after the last token and ends a
// non-empty file with one line break, \r\n if the file's first line break
// is one.
func endWithNewline(b []byte) []byte {
	nl := []byte("\n")
	if i := bytes.IndexByte(b, '\n'); i > 0 && b[i-1] == '\r' {
		nl = []byte("\r\n")
	}
	b = bytes.TrimRight(b, " \t\r\n")
	if len(b) == 0 {
		return b
	}
	return append(b, nl...)
}
