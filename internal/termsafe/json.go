package termsafe

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// JSON encodes v as indented JSON that is safe to print to a terminal and
// decodes to the same value: encoding/json already writes the C0 controls
// inside strings as \u escapes; JSON writes the other unsafe characters
// (see Unsafe: DEL, the C1 controls, the bidirectional formatting
// characters, U+2028 and U+2029) as \u escapes too, which Escape's \x
// escapes would make invalid JSON. Unlike json.Marshal it does not escape
// <, > and & (a "->" stays "->"). The result ends with a newline.
func JSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	i := firstUnsafe(string(b), true)
	if i < 0 {
		return b, nil
	}
	// Outside strings JSON holds only ASCII and the layout's newlines;
	// inside them encoding/json left only valid UTF-8 and no C0 control.
	out := append(make([]byte, 0, len(b)+16), b[:i]...)
	for s := b[i:]; len(s) > 0; {
		r, n := utf8.DecodeRune(s)
		if r != '\n' && r != '\t' && Unsafe(r) {
			out = appendHex(append(out, `\u`...), uint64(r), 4)
		} else {
			out = append(out, s[:n]...)
		}
		s = s[n:]
	}
	return out, nil
}
