package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// member is one key of a JSON object and its value's bytes as written.
type member struct {
	key        string
	raw        json.RawMessage
	start, end int // the value's span in the document (top level only)
}

// document is a JSON object file edited in place: a member's value is
// replaced or a member appended, every other byte kept.
type document struct {
	data    []byte
	members []member
	open    int    // offset of the object's {
	close   int    // offset of the object's }
	indent  string // one level of indentation; "" for a file on one line
	newline bool
}

// parseDocument reads a JSON object file (empty: a new one).
func parseDocument(path string, data []byte) (*document, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
		d, err := parseDocument(path, data)
		if err == nil {
			d.newline, d.indent = true, "  "
		}
		return d, err
	}
	if !json.Valid(data) {
		err := json.Unmarshal(data, new(any))
		return nil, fmt.Errorf("%s is not JSON (%v); the file was left alone", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
		return nil, fmt.Errorf("%s: %w; the file was left alone", path, ErrNotObject)
	}
	doc := &document{data: data, open: int(dec.InputOffset()) - 1}
	seen := map[string]bool{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := k.(string)
		if seen[key] {
			return nil, fmt.Errorf("%s: the key %q is there twice (which one a host reads is its choice); the file was left alone", path, key)
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		end := int(dec.InputOffset())
		start := end - len(raw)
		if start < 0 || !bytes.Equal(data[start:end], raw) {
			return nil, fmt.Errorf("%s: cannot place the value of %q; the file was left alone", path, key)
		}
		doc.members = append(doc.members, member{key: key, raw: raw, start: start, end: end})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	doc.close = int(dec.InputOffset()) - 1
	doc.newline = bytes.IndexByte(data[doc.open:doc.close+1], '\n') >= 0
	if doc.newline {
		doc.indent = "  "
		if m := indentRE.FindSubmatch(data[doc.open:]); m != nil {
			doc.indent = string(m[1])
		}
	}
	return doc, nil
}

// indentRE finds the indentation of the first member of the object.
var indentRE = regexp.MustCompile(`^\{[ \t]*\r?\n([ \t]+)\S`)

// member is the value of key.
func (d *document) member(key string) (json.RawMessage, bool) {
	for _, m := range d.members {
		if m.key == key {
			return m.raw, true
		}
	}
	return nil, false
}

// set replaces key's value with value, or appends key when it is not
// there.
func (d *document) set(key string, value []byte) {
	for _, m := range d.members {
		if m.key == key {
			d.splice(m.start, m.end, value)
			return
		}
	}
	d.insert(key, value)
}

// insert appends key with value at the end of the object.
func (d *document) insert(key string, value []byte) {
	k, _ := json.Marshal(key)
	var text []byte
	sep := ":"
	if d.newline {
		sep = ": "
	}
	at := d.open + 1
	if n := len(d.members); n > 0 {
		at = d.members[n-1].end
		text = append(text, ',')
	}
	if d.newline {
		text = append(text, '\n')
		text = append(text, d.indent...)
	}
	text = append(text, k...)
	text = append(text, sep...)
	text = append(text, value...)
	if len(d.members) == 0 && d.newline {
		// {} → {\n  "key": value\n}
		text = append(text, '\n')
		d.splice(at, d.close, text)
	} else {
		d.splice(at, at, text)
	}
	// Re-read to keep the spans right.
	nd, err := parseDocument("", d.data)
	if err == nil {
		nd.indent, nd.newline = d.indent, d.newline
		*d = *nd
	}
}

// splice replaces data[start:end] with text and re-reads the spans.
func (d *document) splice(start, end int, text []byte) {
	out := make([]byte, 0, len(d.data)+len(text))
	out = append(out, d.data[:start]...)
	out = append(out, text...)
	out = append(out, d.data[end:]...)
	indent, newline := d.indent, d.newline
	nd, err := parseDocument("", out)
	if err != nil {
		// Cannot happen: text is JSON in a JSON object.
		panic(fmt.Sprintf("protocol: JSON edit broke the document: %v", err))
	}
	nd.indent, nd.newline = indent, newline
	*d = *nd
}

func (d *document) bytes() []byte { return d.data }

// formatHooks writes the hooks object: the lists in order, each entry
// kept as it was written or the new one in the file's indentation; a
// list that held only install's entries (nil placeholders) is left out,
// one that was empty stays.
func (d *document) formatHooks(hooks []member, lists [][]json.RawMessage) []byte {
	var b bytes.Buffer
	nl := func(depth int) {
		if d.newline {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat(d.indent, depth))
		}
	}
	b.WriteByte('{')
	n := 0
	for i, m := range hooks {
		var elems []json.RawMessage
		for _, e := range lists[i] {
			if e != nil {
				elems = append(elems, e)
			}
		}
		if len(elems) == 0 && len(lists[i]) > 0 {
			// Only install's entries were there: the list goes.
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		nl(2)
		k, _ := json.Marshal(m.key)
		b.Write(k)
		if d.newline {
			b.WriteString(": [")
		} else {
			b.WriteString(":[")
		}
		for j, e := range elems {
			if j > 0 {
				b.WriteByte(',')
			}
			nl(3)
			b.Write(d.reindent(e, 3))
		}
		if len(elems) > 0 {
			nl(2)
		}
		b.WriteByte(']')
	}
	if n > 0 {
		nl(1)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// fresh marks an entry hookctl wrote (to be indented to its place).
const fresh = "\x00fresh"

// reindent places a new entry at depth (an entry that was in the file is
// kept as it is).
func (d *document) reindent(e json.RawMessage, depth int) []byte {
	if !bytes.HasPrefix(e, []byte(fresh)) {
		return e
	}
	e = e[len(fresh):]
	if !d.newline {
		return e
	}
	var b bytes.Buffer
	if err := json.Indent(&b, e, strings.Repeat(d.indent, depth), d.indent); err != nil {
		return e
	}
	return b.Bytes()
}

// marshalEntry encodes a new entry compactly (keys sorted, HTML kept).
func marshalEntry(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// objectMembers are the members of a JSON object in their order; an
// error for anything else or a key given twice.
func objectMembers(raw []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
		return nil, ErrNotObject
	}
	var out []member
	seen := map[string]bool{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := k.(string)
		if seen[key] {
			return nil, fmt.Errorf("the key %q is there twice", key)
		}
		seen[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{key: key, raw: v})
	}
	return out, nil
}

// arrayElems are the elements of a JSON array as written.
func arrayElems(raw []byte) ([]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '[' {
		return nil, errors.New("not a list")
	}
	var out []json.RawMessage
	for dec.More() {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil && err != io.EOF {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
