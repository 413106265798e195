package jsonx

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal without HTML escaping: `&&`, `<` and `->` are
// written as they are, not as \u0026, \u003c and -\u003e (the replies and
// payloads hookctl writes are read by programs, never embedded in HTML).
// Like json.Marshal, it adds no trailing newline.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}
