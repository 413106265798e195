package lsp

import (
	"bytes"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// frame is a block, or a bracketed expression, open at some point of a
// file.
type frame struct {
	block  bool
	typ    string
	labels []string
	// cur is the attribute being written at the block's top level
	// (between its name and the end of its line); attrs collects the
	// string literals of each attribute of the block.
	cur   string
	attrs map[string][]string
}

// first returns the first string literal of an attribute.
func (f *frame) first(attr string) string {
	if v := f.attrs[attr]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// cursor is what surrounds a position of a file: the blocks it is in and
// what it is on.
type cursor struct {
	// blocks are the enclosing blocks, outermost first (the root is not
	// one).
	blocks []*frame
	// attr is the attribute whose value holds the cursor, at the top
	// level of the innermost block ("" when none).
	attr string
	// naming is set when the cursor is where an attribute or a block
	// name is written (only an identifier before it on its line); word is
	// that identifier up to the cursor, and wordEnd its end.
	naming bool
	// inString is set inside a quoted string or a heredoc; label is set
	// when that string is a label of a block header, whose type is
	// header.
	inString bool
	label    bool
	header   string
	// token is the text of the token under the cursor (a string literal's
	// text, an identifier) and tokStart its offset; prefix is its text up
	// to the cursor.
	token    string
	tokStart int
	prefix   string
}

// block returns the innermost block (nil at the root).
func (c *cursor) block() *frame {
	if len(c.blocks) == 0 {
		return nil
	}
	return c.blocks[len(c.blocks)-1]
}

// path returns the types of the enclosing blocks.
func (c *cursor) path() []string {
	out := make([]string, len(c.blocks))
	for i, b := range c.blocks {
		out[i] = b.typ
	}
	return out
}

// analyze finds what surrounds the byte offset off of src. It reads
// tokens only, so that a file being typed (unbalanced, half-written)
// still gives an answer: an unterminated string on the cursor's line is
// closed at the end of the line first.
func analyze(src []byte, off int) (*cursor, []*frame) {
	off = min(max(off, 0), len(src))
	src = closeQuote(src, off)
	toks, _ := hclsyntax.LexConfig(src, "", hcl2.InitialPos)

	root := &frame{block: true, attrs: map[string][]string{}}
	stack := []*frame{root}
	var all []*frame
	lineFirst := 0    // index of the first token of the line
	lineBegin := true // no token yet on the line (at a block's top level)
	var snap *cursor  // what surrounds off, once reached
	nearest := func() *frame {
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i].block {
				return stack[i]
			}
		}
		return root
	}
	take := func(t hclsyntax.Token, i int) {
		c := &cursor{}
		for _, f := range stack[1:] {
			if f.block {
				c.blocks = append(c.blocks, f)
			}
		}
		b := nearest()
		c.attr = b.cur
		start, end := t.Range.Start.Byte, t.Range.End.Byte
		switch t.Type {
		case hclsyntax.TokenQuotedLit, hclsyntax.TokenStringLit:
			if start <= off && off <= end {
				c.inString = true
				c.token, c.tokStart, c.prefix = string(t.Bytes), start, string(src[start:off])
			}
		case hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
			if end == off {
				c.inString, c.tokStart = true, off
			}
		case hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
			if start == off && i > 0 && (toks[i-1].Type == hclsyntax.TokenOQuote) {
				c.inString, c.tokStart = true, off
			}
		case hclsyntax.TokenIdent:
			if start <= off && off <= end {
				c.token, c.tokStart, c.prefix = string(t.Bytes), start, string(src[start:off])
				c.naming = lineBegin && stack[len(stack)-1].block
			}
		}
		if !c.inString && c.token == "" && lineBegin && stack[len(stack)-1].block && start >= off {
			c.naming = true // blank space where a name goes
			c.tokStart = off
		}
		if c.inString && stack[len(stack)-1].block && b.cur == "" && lineFirst < len(toks) && toks[lineFirst].Type == hclsyntax.TokenIdent {
			c.label, c.header = true, string(toks[lineFirst].Bytes)
		}
		snap = c
	}
	for i, t := range toks {
		if snap == nil && (t.Range.End.Byte > off || (t.Range.End.Byte == off && t.Type != hclsyntax.TokenNewline) || t.Type == hclsyntax.TokenEOF) {
			take(t, i)
		}
		top := stack[len(stack)-1]
		switch t.Type {
		case hclsyntax.TokenNewline:
			if top.block {
				top.cur, lineBegin, lineFirst = "", true, i+1
			}
			continue
		case hclsyntax.TokenOBrace:
			if top.block {
				if f := header(toks[lineFirst:i]); f != nil {
					stack = append(stack, f)
					all = append(all, f)
					top.cur = ""
					lineBegin = false
					continue
				}
			}
			stack = append(stack, &frame{})
		case hclsyntax.TokenOBrack, hclsyntax.TokenOParen, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			stack = append(stack, &frame{})
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenTemplateSeqEnd:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			if nt := stack[len(stack)-1]; nt.block && t.Type == hclsyntax.TokenCBrace {
				nt.cur = ""
			}
		case hclsyntax.TokenIdent:
			if top.block && lineBegin && i+1 < len(toks) && toks[i+1].Type == hclsyntax.TokenEqual {
				top.cur = string(t.Bytes)
			}
		case hclsyntax.TokenQuotedLit, hclsyntax.TokenStringLit:
			if b := nearest(); b.cur != "" {
				b.attrs[b.cur] = append(b.attrs[b.cur], string(t.Bytes))
			}
		}
		if top.block {
			lineBegin = false
		}
	}
	if snap == nil {
		snap = &cursor{naming: lineBegin}
	}
	return snap, all
}

// header returns the block a header's tokens open (type and labels), or
// nil when they are not a block header (an attribute's object value).
func header(toks []hclsyntax.Token) *frame {
	if len(toks) == 0 || toks[0].Type != hclsyntax.TokenIdent {
		return nil
	}
	f := &frame{block: true, typ: string(toks[0].Bytes), attrs: map[string][]string{}}
	for _, t := range toks[1:] {
		switch t.Type {
		case hclsyntax.TokenIdent, hclsyntax.TokenQuotedLit:
			f.labels = append(f.labels, string(t.Bytes))
		case hclsyntax.TokenOQuote, hclsyntax.TokenCQuote:
		default:
			return nil
		}
	}
	return f
}

// closeQuote closes a string left open on the line of off (its closing
// quote not typed yet), so that it does not swallow the rest of the file.
func closeQuote(src []byte, off int) []byte {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := lineEnd(src, off)
	line := src[start:end]
	if bytes.Contains(line, []byte("<<")) {
		return src
	}
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '"':
			n++
		}
	}
	if n%2 == 0 {
		return src
	}
	out := make([]byte, 0, len(src)+1)
	out = append(append(append(out, src[:end]...), '"'), src[end:]...)
	return out
}
